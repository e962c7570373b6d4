package sandbox

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

// WorkOrderSpec describes a work order for CreateWorkOrder: the state it is
// in, and whatever else a test or a demo needs to be true of it. A field
// left at its zero value is chosen the way the generated world chooses it.
type WorkOrderSpec struct {
	// Customer is the customer's name ("Northwind Retail"); "" = the first
	// customer that fits Currency and Quote.
	Customer string
	// Currency picks a customer billing in it ("JPY"); it must agree with
	// Customer when both are given.
	Currency string
	// Status is the work order's status; "" = New.
	Status api.WorkOrderStatus
	// Type is "Request" (the default) or "PMRM" (planned maintenance).
	Type string
	// Nte is the NTE in the work order's currency ("1500.00"); "" = a
	// plausible limit, "0" = no limit.
	Nte string
	// Quote is the status of the quote on the NTE; "" = no quote. A
	// submitted or rejected quote asks for more than the NTE; an approved
	// one is the NTE. Only a customer that takes quotes has one.
	Quote api.QuoteStatus
	// Invoice is the invoice's status; "" = the empty draft every work
	// order has. InvoiceDraft is a draft with labour, the trip charge and a
	// material from the price list; the later statuses (Submitted,
	// PendingVerification, Authorized, Paid, Disputed) carry the same lines
	// and need a completed status (CheckedOut, Verified).
	Invoice api.InvoiceStatus
	// Procedure gives the work order one procedure, the refrigeration
	// checklist: its second step (the coil photo) holds one picture, the
	// others nothing. On completed work the service has closed it, so only
	// ProcedureReadOnly fits there.
	Procedure ProcedureKind
	// Created is when the customer created it; zero = a plausible time for
	// the status. Before api.Version41Date it is invisible to invoicing
	// until completed.
	Created time.Time
}

// ProcedureKind is the state of WorkOrderSpec.Procedure.
type ProcedureKind int

const (
	NoProcedure       ProcedureKind = iota
	ProcedureEditable               // neither read-only nor marked N/A
	ProcedureReadOnly               // the customer locked it
	ProcedureMarkedNa               // marked not applicable
)

// CreateWorkOrder adds a work order in the state spec describes, built as
// the service would hold it in that state: quote, NTE, invoice, procedure,
// SLA and visit agree with each other and with the customer's policy. It is
// the world as it already stands, not an event: no notification is sent.
// Its LastUpdate is the clock's now, so the next sync reads it. A spec the
// service could never be in is refused with the reason. The result is a copy.
func (s *Sandbox) CreateWorkOrder(spec WorkOrderSpec) (api.WorkOrder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	o, err := s.st.gen.create(spec, now)
	if err != nil {
		return api.WorkOrder{}, fmt.Errorf("sandbox: creating a work order: %w", err)
	}
	s.st.add(o)
	return copyWorkOrder(&o.wo)
}

// Customers returns a copy of each customer's policy, in the world's order.
func (s *Sandbox) Customers() []CustomerPolicy {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]CustomerPolicy, len(s.st.customers))
	for i, c := range s.st.customers {
		out[i] = *c
	}
	return out
}

func (g *generator) create(spec WorkOrderSpec, now time.Time) (*order, error) {
	status := spec.Status
	if status == "" {
		status = api.StatusNew
	}
	if !status.Known() {
		return nil, fmt.Errorf("%q is not a work order status the service documents", status)
	}
	c, err := g.customerFor(spec)
	if err != nil {
		return nil, err
	}
	if spec.Quote != "" {
		if !slices.Contains(api.AllQuoteStatuses, spec.Quote) {
			return nil, fmt.Errorf("%q is not a quote status", spec.Quote)
		}
		if status == api.StatusRejected {
			return nil, errors.New("a rejected work order never had a quote: the service refuses quotes on it")
		}
	}
	inv := spec.Invoice
	if inv != "" && !slices.Contains(api.AllInvoiceStatuses, inv) {
		return nil, fmt.Errorf("%q is not an invoice status", inv)
	}
	if inv != "" && inv != api.InvoiceDraft && !status.Completed() {
		return nil, fmt.Errorf("an invoice is %s only once the work is completed; the work order is %s", inv, status)
	}
	if inv == api.InvoicePendingVerification && !c.policy.RequireVerification {
		return nil, fmt.Errorf("%s does not verify invoices: none waits in PendingVerification", c.policy.Customer.Name)
	}
	if spec.Procedure == ProcedureEditable || spec.Procedure == ProcedureMarkedNa {
		if status.Completed() {
			return nil, fmt.Errorf("the work is done (%s): the service has closed its procedures (read-only)", status)
		}
	}
	pm := false
	switch spec.Type {
	case "", "Request":
	case "PMRM":
		pm = true
	default:
		return nil, fmt.Errorf("type %q: a work order is a Request or PMRM", spec.Type)
	}
	created := spec.Created
	if created.IsZero() {
		created = g.createdFor(status, now)
	}
	if created.After(now) {
		return nil, fmt.Errorf("created %s, after the sandbox's now (%s)", created.Format(time.RFC3339), now.Format(time.RFC3339))
	}
	created = created.Truncate(time.Microsecond)
	if inv != "" && created.Before(api.Version41Date) && !status.Completed() {
		return nil, errors.New("a work order from before version 4.1 has no invoice until it is completed")
	}
	var nte decimal.Decimal
	explicitNte := spec.Nte != ""
	if explicitNte {
		m, err := api.NewMoney(spec.Nte, c.policy.Currency)
		if err != nil {
			return nil, fmt.Errorf("NTE %q: %w", spec.Nte, err)
		}
		if m.Amount.IsNegative() || !m.FitsMinorUnits() {
			return nil, fmt.Errorf("NTE %q is not an amount in %s", spec.Nte, c.policy.Currency)
		}
		nte = m.Amount
		if spec.Quote == api.QuoteApproved && nte.IsZero() {
			return nil, errors.New("an approved quote became the NTE: the NTE cannot be 0 (no limit)")
		}
	}

	var job jobDef
	for _, j := range jobsByKind[c.def.kind] {
		if j.pm == pm {
			job = j
			break
		}
	}
	o := g.base(c, job, status, created, now, explicitNte && nte.IsZero())
	o.wo.LastUpdate = now.Truncate(time.Microsecond)
	if explicitNte {
		o.wo.Nte.Amount = api.Money{Amount: nte, Currency: c.policy.Currency}
	}
	if spec.Procedure != NoProcedure {
		g.fixtureProcedure(o, spec.Procedure)
	}
	if spec.Quote != "" {
		g.setQuote(o, spec.Quote)
		if explicitNte && spec.Quote == api.QuoteApproved {
			o.wo.Nte.Amount.Amount = nte
			o.wo.Nte.Quote.Amount.Amount = nte
		}
	}
	if inv != "" {
		keep := o.wo.Nte
		if keep.Quote != nil {
			q := *keep.Quote
			keep.Quote = &q
		}
		i := g.st.invoiceOf(o)
		g.fillInvoice(o, i, 1) // may raise a plausible NTE to stay above the lines
		if explicitNte {
			o.wo.Nte = keep
		}
		if status.Completed() {
			deadline := now.AddDate(0, 0, 30) // from check-out, as the sandbox does
			i.SubmissionDeadline = &deadline
		}
		if inv != api.InvoiceDraft && c.policy.BlockOverNte && !o.wo.Nte.NoLimit() && i.TotalAmount.Amount.Cmp(o.wo.Nte.Amount.Amount) > 0 {
			return nil, fmt.Errorf("%s blocks invoices above the NTE: a %s invoice of %s cannot stand over an NTE of %s",
				c.policy.Customer.Name, inv, i.TotalAmount.Format(), o.wo.Nte.Amount.Format())
		}
		i.Status = inv
		switch inv {
		case api.InvoiceAuthorized:
			i.AuthNumber = g.st.nextDoc("AUTH")
		case api.InvoicePaid:
			i.AuthNumber, i.CheckNumber = g.st.nextDoc("AUTH"), g.st.nextDoc("CHK")
			paid := o.wo.LastUpdate
			i.PaidDate = &paid
		case api.InvoiceDisputed:
			i.Comment = "Please review the invoice."
		}
		i.StampCurrency()
	} else if status.Completed() {
		i := g.st.invoiceOf(o)
		deadline := now.AddDate(0, 0, 30)
		i.SubmissionDeadline = &deadline
	}
	o.wo.StampCurrency()
	return o, nil
}

// customerFor picks the customer spec names, or the first that fits it.
func (g *generator) customerFor(spec WorkOrderSpec) (*genCustomer, error) {
	var names []string
	for _, c := range g.custs {
		names = append(names, c.policy.Customer.Name)
		if spec.Customer != "" && !strings.EqualFold(c.policy.Customer.Name, spec.Customer) {
			continue
		}
		if spec.Customer != "" {
			if spec.Currency != "" && !strings.EqualFold(spec.Currency, c.policy.Currency) {
				return nil, fmt.Errorf("%s bills in %s, not %s", c.policy.Customer.Name, c.policy.Currency, spec.Currency)
			}
			if spec.Quote != "" && !c.policy.AllowQuotes {
				return nil, fmt.Errorf("%s does not take quotes: none of its work orders has one", c.policy.Customer.Name)
			}
			return c, nil
		}
		if spec.Currency != "" && !strings.EqualFold(spec.Currency, c.policy.Currency) || spec.Quote != "" && !c.policy.AllowQuotes {
			continue
		}
		return c, nil
	}
	if spec.Customer != "" {
		return nil, fmt.Errorf("no customer %q; the world has %s", spec.Customer, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("no customer bills in %q and fits the rest of the spec", spec.Currency)
}

// fixtureProcedure gives o the refrigeration checklist in state kind, with
// one picture on its photo step; on completed work it is closed, as the
// generated world has it.
func (g *generator) fixtureProcedure(o *order, kind ProcedureKind) {
	def := procedureDefs[0]
	g.st.nextProcID++
	p := api.Procedure{Id: g.st.nextProcID, Order: 1, Name: def.name, Status: "Open", AllowMarkNotApplicable: new(true)}
	switch kind {
	case ProcedureReadOnly:
		p.IsReadOnly = true
		if o.wo.Status.Completed() {
			p.Status = "Done"
		}
	case ProcedureMarkedNa:
		p.IsMarkedNa = true
	}
	for k, sd := range def.steps {
		g.st.nextStepID++
		step := api.Step{Id: g.st.nextStepID, Order: k + 1, Status: "Open", IsRequired: k == 0 || sd.photo,
			Description: sd.desc, StepType: "Field", Label: sd.label, DataType: sd.dataType}
		if p.Status == "Done" {
			step.Status = "Done"
		}
		p.Steps = append(p.Steps, step)
	}
	o.wo.WorkDetails = &api.WorkDetails{Procedures: []api.Procedure{p}}
	step := p.Steps[1].Id
	f := &file{meta: api.Attachment{AttachmentId: g.uuid(), Name: "evaporator-coil.png", MimeType: "image/png",
		DocumentType: "Picture", Created: o.wo.LastUpdate, Size: int64(len(demoPNG))},
		data: demoPNG, woID: o.wo.WorkOrderId, procID: p.Id, stepID: step}
	g.st.steps[step] = append(g.st.steps[step], f)
	g.st.files[f.meta.AttachmentId] = f
}
