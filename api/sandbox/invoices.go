package sandbox

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"GET", "/api/invoice", kindRead, (*call).getInvoice},
	endpoint{"PUT", "/api/invoice", kindMutate, (*call).saveInvoice},
	endpoint{"DELETE", "/api/invoice", kindMutate, (*call).deleteInvoice},
	endpoint{"GET", "/api/invoice/pricelist", kindRead, (*call).priceList},
	endpoint{"PUT", "/api/invoice/submit", kindMutate, (*call).submitInvoice},
)

// invoiceOrder finds a work order for an invoice operation. Orders created
// before version 4.1 stay invisible until Completed (spec §9.2); the
// service then behaves as if they did not exist, hence 3005.
func (c *call) invoiceOrder(id int64) (*order, error) {
	o, err := c.order(id)
	if err != nil {
		return nil, err
	}
	if !o.wo.InvoiceVisible() {
		return nil, business(api.CodeNotFoundOrRecalled,
			"Work order %d was not found for invoicing: work orders received before 13 September 2018 appear to invoice operations once completed.", id)
	}
	return o, nil
}

// invoiceView is the invoice as read, without materialising the empty
// draft (reads hold only the shared lock).
func invoiceView(o *order) *api.Invoice {
	if o.invoice != nil {
		return o.invoice
	}
	inv := &api.Invoice{WorkOrderId: o.wo.WorkOrderId, Status: api.InvoiceDraft, Currency: o.wo.Currency, LineItems: []api.LineItem{}}
	inv.StampCurrency()
	return inv
}

func (c *call) getInvoice() (any, error) {
	o, err := c.queryInvoiceOrder()
	if err != nil {
		return nil, err
	}
	return c.envelope("Invoice", invoiceView(o)), nil
}

func (c *call) priceList() (any, error) {
	o, err := c.queryInvoiceOrder()
	if err != nil {
		return nil, err
	}
	return c.envelope("PriceList", o.cust.PriceList), nil
}

// editableInvoice is the common gate of PUT, DELETE and invoice attachment
// changes: visible, work order not rejected, invoice status editable (3036).
func (c *call) editableInvoice(id int64) (*order, *api.Invoice, error) {
	o, err := c.invoiceOrder(id)
	if err != nil {
		return nil, nil, err
	}
	if o.wo.Status == api.StatusRejected {
		return nil, nil, business(api.CodeWrongStatus, "Work order %s was rejected; its invoice cannot be changed.", o.wo.WorkOrderNumber)
	}
	inv := c.s.st.invoiceOf(o)
	if !invoiceEditable(inv.Status) {
		return nil, nil, business(api.CodeInvoiceNotEditable, "The invoice of work order %s is %s and can no longer be edited.", o.wo.WorkOrderNumber, inv.Status)
	}
	return o, inv, nil
}

// invoiceEditable is the sandbox's own rule (kept apart from the client's
// api.InvoiceStatus.Editable, since this is the oracle): the draft, a
// disputed invoice and one waiting for the work to be verified (not
// submitted yet: see awaitVerification) may change; every other status is
// with the customer. Status names follow the simulator suggestion of
// service-facts §8.
func invoiceEditable(s api.InvoiceStatus) bool {
	return s == "" || s == api.InvoiceDraft || s == api.InvoiceDisputed || s == api.InvoicePendingVerification
}

var lineTypes = []api.LineItemType{api.LineLabor, api.LineMaterial, api.LineTravel, api.LineOther, api.LineTax, api.LinePriceList}

func validLineType(t api.LineItemType) bool {
	for _, v := range lineTypes {
		if v == t {
			return true
		}
	}
	return false
}

func findPriceItem(pl *api.PriceList, id int64) *api.PriceListItem {
	for i := range pl.Items {
		if pl.Items[i].Id == id {
			return &pl.Items[i]
		}
	}
	return nil
}

// applyPriceList checks one line against the customer's price list: the
// item must exist, a read-only rate must be kept (a zero rate takes the list
// rate), and free lines need a customer that allows them. Tax lines are
// never price-list lines.
func applyPriceList(o *order, l *api.LineItem, i int) error {
	prop := fmt.Sprintf("LineItems[%d]", i)
	pl := &o.cust.PriceList
	if l.Type != "" && !validLineType(l.Type) {
		return serve.Invalid(prop+".Type", "line %d: %q is not a line category", i+1, l.Type)
	}
	if l.PriceListItemId != 0 {
		item := findPriceItem(pl, l.PriceListItemId)
		if item == nil {
			return serve.Invalid(prop+".PriceListItemId", "line %d refers to price-list item %d, which %s's price list does not have", i+1, l.PriceListItemId, o.cust.Customer.Name)
		}
		if l.Type == "" {
			l.Type = api.LinePriceList
		}
		if strings.TrimSpace(l.Description) == "" {
			l.Description = item.Description
		}
		if l.Rate.IsZero() {
			l.Rate = item.Rate.In(o.wo.Currency)
		}
		if item.IsRateReadOnly && !l.Rate.Amount.Equal(item.Rate.Amount) {
			return serve.Invalid(prop+".Rate", "line %d: the rate of %q is fixed by the price list at %s", i+1, item.Description, item.Rate.In(o.wo.Currency).Format())
		}
	} else {
		if l.Type == api.LinePriceList {
			return serve.Invalid(prop+".PriceListItemId", "line %d is a price-list line without a price-list item", i+1)
		}
		if l.Type != api.LineTax && !pl.AllowProviderItems.True() {
			return serve.Invalid(prop, "line %d: %s accepts price-list lines only; choose an item from its price list", i+1, o.cust.Customer.Name)
		}
	}
	if !l.Rate.FitsMinorUnits() {
		return serve.Invalid(prop+".Rate", "line %d: %s rates have %d decimals; %s has more", i+1, o.wo.Currency, api.MinorUnits(o.wo.Currency), l.Rate.Amount)
	}
	return nil
}

// saveInvoice replaces the invoice content (PUT /api/invoice). Lines not
// referenced by id are deleted; id 0 adds a line (service-facts §4.6).
// Subtotals and the total are the service's to compute: Quantity × Rate
// rounded half-up to the currency's minor units, minus the discount.
func (c *call) saveInvoice() (any, error) {
	var req api.SaveInvoiceRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	id := req.WorkOrderId
	if id == 0 {
		id = req.Invoice.WorkOrderId
	}
	o, inv, err := c.editableInvoice(id)
	if err != nil {
		return nil, err
	}
	in := req.Invoice
	if in.Currency != "" && in.Currency != o.wo.Currency {
		return nil, serve.Invalid("Invoice.Currency", "the invoice is in %s, the work order's currency; %s is not allowed", o.wo.Currency, in.Currency)
	}
	in.Currency = o.wo.Currency
	in.StampCurrency()
	existing := map[int64]bool{}
	for _, l := range inv.LineItems {
		existing[l.Id] = true
	}
	taxes := 0
	lines := make([]api.LineItem, len(in.LineItems))
	sum := decimal.Zero
	for i, l := range in.LineItems {
		if l.Id != 0 && !existing[l.Id] {
			return nil, business(api.CodeUnknownLineItem, "Line item %d is not on the invoice of work order %s; send new lines with Id 0.", l.Id, o.wo.WorkOrderNumber)
		}
		if l.Type == api.LineTax {
			taxes++
		}
		if err := applyPriceList(o, &l, i); err != nil {
			return nil, err
		}
		l.Subtotal = l.ComputedSubtotal()
		sum = sum.Add(l.Subtotal.Amount)
		lines[i] = l
	}
	if taxes > 1 {
		// Assumption: no sandbox customer's service area has composite tax.
		return nil, business(api.CodeCompositeTax, "Only one Tax line is allowed: %s's service area has no composite tax.", o.cust.Customer.Name)
	}
	disc := in.DiscountAmount
	if disc.Amount.IsNegative() || !disc.FitsMinorUnits() {
		return nil, serve.Invalid("Invoice.DiscountAmount", "the discount must be a positive %s amount with at most %d decimals", o.wo.Currency, api.MinorUnits(o.wo.Currency))
	}
	total := api.Money{Amount: sum.Sub(disc.Amount), Currency: o.wo.Currency}.Round()
	if total.Amount.IsNegative() {
		return nil, serve.Invalid("Invoice.DiscountAmount", "the discount (%s) is larger than the lines (%s)", disc.Format(), api.Money{Amount: sum, Currency: o.wo.Currency}.Format())
	}
	for i := range lines {
		if lines[i].Id == 0 {
			c.s.st.nextLineID++
			lines[i].Id = c.s.st.nextLineID
		}
	}
	inv.InvoiceNumber = strings.TrimSpace(in.InvoiceNumber)
	inv.InvoiceDate = nil
	if in.InvoiceDate != nil && !in.InvoiceDate.IsZero() {
		d := in.InvoiceDate.UTC()
		inv.InvoiceDate = &d
	}
	inv.LineItems = lines
	inv.DiscountAmount = disc
	inv.TotalAmount = total
	c.s.st.touch(o, c.now)
	return c.envelope("Invoice", inv), nil
}

// deleteInvoice empties the invoice (the invoice itself always exists, one
// per work order); its attachments stay (assumption).
func (c *call) deleteInvoice() (any, error) {
	id, err := c.queryID("workOrderId")
	if err != nil {
		return nil, err
	}
	o, inv, err := c.editableInvoice(id)
	if err != nil {
		return nil, err
	}
	inv.InvoiceNumber, inv.InvoiceDate = "", nil
	inv.LineItems = []api.LineItem{}
	inv.DiscountAmount = api.Money{Currency: o.wo.Currency}
	inv.TotalAmount = api.Money{Currency: o.wo.Currency}
	c.s.st.touch(o, c.now)
	return nil, nil
}

// submitInvoice checks, in the order of service-facts §4.6: the work order
// is completed (3051), the invoice status allows submission (3050), the
// content is complete (3052); then the customer's NTE policy.
func (c *call) submitInvoice() (any, error) {
	var req api.SubmitInvoiceRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	o, err := c.invoiceOrder(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	// A pre-billed order's invoice may be submitted right after creation,
	// and submitting it is what accepts the order (service-facts §4.6, §7).
	prebilledNew := o.wo.IsPreBilled && o.wo.Status == api.StatusNew
	if !o.wo.Status.Completed() && !prebilledNew {
		return nil, business(api.CodeWorkOrderNotCompleted, "Work order %s is %s; the invoice can be submitted once it is checked out.", o.wo.WorkOrderNumber, o.wo.Status)
	}
	inv := c.s.st.invoiceOf(o)
	if inv.Status == api.InvoicePendingVerification {
		return nil, business(api.CodeInvoiceCannotSubmit, "The invoice of work order %s waits for %s to verify the work; it can be submitted once the work is verified.",
			o.wo.WorkOrderNumber, o.cust.Customer.Name)
	}
	if !invoiceEditable(inv.Status) {
		return nil, business(api.CodeInvoiceCannotSubmit, "The invoice of work order %s is already %s.", o.wo.WorkOrderNumber, inv.Status)
	}
	if problems := invoiceProblems(o, inv); len(problems) > 0 {
		return nil, business(api.CodeInvoiceInvalid, "The invoice cannot be submitted: %s.", strings.Join(problems, "; "))
	}
	nte := o.wo.Nte.Amount.In(o.wo.Currency)
	if !nte.IsZero() && inv.TotalAmount.Amount.Cmp(nte.Amount) > 0 && o.cust.BlockOverNte {
		return nil, business(api.CodeInvoiceInvalid, "The invoice total (%s) exceeds the NTE (%s); %s blocks invoices above the NTE. Submit a quote to raise the NTE first.",
			inv.TotalAmount.Format(), nte.Format(), o.cust.Customer.Name)
	}
	inv.Status = api.InvoiceSubmitted
	inv.Comment = ""
	if prebilledNew {
		o.wo.Status = api.StatusAccepted
	}
	c.s.st.touch(o, c.now)
	total := inv.TotalAmount
	c.s.notify.send(o, api.ActionInvoiceStatusChanged, apiSender, c.now, api.InvoiceStatusChangedEvent{Status: inv.Status, Amount: &total})
	return c.envelope("Invoice", inv), nil
}

// invoiceProblems lists rules 3–9 of service-facts §4.6 that the invoice breaks.
func invoiceProblems(o *order, inv *api.Invoice) []string {
	var p []string
	if strings.TrimSpace(inv.InvoiceNumber) == "" {
		p = append(p, "the invoice number is missing")
	}
	if inv.InvoiceDate == nil {
		p = append(p, "the invoice date is missing")
	}
	if len(inv.LineItems) == 0 {
		p = append(p, "the invoice has no lines")
	}
	for i, l := range inv.LineItems {
		n := i + 1
		if strings.TrimSpace(l.Description) == "" {
			p = append(p, fmt.Sprintf("line %d has no description", n))
		}
		if l.Quantity.IsZero() {
			p = append(p, fmt.Sprintf("line %d has quantity 0", n))
		}
		if l.Type == "" {
			p = append(p, fmt.Sprintf("line %d has no category", n))
		}
		if l.PriceListItemId != 0 {
			item := findPriceItem(&o.cust.PriceList, l.PriceListItemId)
			switch {
			case item == nil:
				p = append(p, fmt.Sprintf("line %d refers to a price-list item that no longer exists", n))
			case item.IsRateReadOnly && !l.Rate.Amount.Equal(item.Rate.Amount):
				p = append(p, fmt.Sprintf("line %d must keep the price-list rate %s", n, item.Rate.In(o.wo.Currency).Format()))
			}
		}
	}
	return p
}

// setInvoiceStatus is the customer's side of the invoice life cycle
// (service-facts §8 simulator suggestion): Submitted → Authorized → Paid,
// or Disputed from Submitted or Authorized. PendingVerification comes
// before submission, at customers that verify the work first, and ends
// when the work is verified (WorkVerified), not by moving the invoice.
func (s *Sandbox) setInvoiceStatus(o *order, status api.InvoiceStatus, comment string, now time.Time) error {
	body, err := s.moveInvoice(o, status, comment, now)
	if err != nil {
		return err
	}
	s.notify.send(o, api.ActionInvoiceStatusChanged, customerSender(o), now, body)
	return nil
}

// moveInvoice is setInvoiceStatus without the notification: it returns
// the notification's body.
func (s *Sandbox) moveInvoice(o *order, status api.InvoiceStatus, comment string, now time.Time) (*api.InvoiceStatusChangedEvent, error) {
	inv := s.st.invoiceOf(o)
	from := inv.Status
	ok := false
	switch status {
	case api.InvoiceAuthorized:
		ok = from == api.InvoiceSubmitted
	case api.InvoicePaid:
		ok = from == api.InvoiceAuthorized
	case api.InvoiceDisputed:
		ok = from == api.InvoiceSubmitted || from == api.InvoiceAuthorized
	}
	if !ok {
		// Statuses in words, lower case mid-sentence: the demo's Customer
		// menu shows this to a person ("is Submitted; … to Paid" read
		// as names, issue 38's second tryout).
		return nil, business(api.CodeBusinessRule, "The invoice of work order %s is %s; the customer cannot move it to %s.",
			o.wo.WorkOrderNumber, strings.ToLower(from.StatusWords()), strings.ToLower(status.StatusWords()))
	}
	ev := &api.InvoiceStatusChangedEvent{Status: status}
	total := inv.TotalAmount
	inv.Status = status
	switch status {
	case api.InvoiceAuthorized:
		inv.AuthNumber = s.st.nextDoc("AUTH")
		ev.AuthNumber, ev.Amount = inv.AuthNumber, &total
	case api.InvoicePaid:
		inv.CheckNumber = s.st.nextDoc("CHK")
		paid := now
		inv.PaidDate = &paid
		ev.CheckNumber, ev.PaidDate, ev.Amount = inv.CheckNumber, &paid, &total
	case api.InvoiceDisputed:
		if comment == "" {
			comment = "Please review the invoice."
		}
		inv.Comment = comment
		ev.Comment = comment
	}
	if comment != "" && status != api.InvoiceDisputed {
		inv.Comment = comment
		ev.Comment = comment
	}
	s.st.touch(o, now)
	return ev, nil
}

// awaitVerification: at a customer that verifies the work before an
// invoice can be submitted (service-facts §15, /docs/retrieving-invoices),
// the invoice of a work order just checked out waits in
// PendingVerification. Lines may be prepared meanwhile (assumption: the
// docs do not say; the invoice has not been submitted, so it is not with
// the customer yet), but it cannot be submitted (3050).
func (s *store) awaitVerification(o *order) {
	if !o.cust.RequireVerification {
		return
	}
	if inv := s.invoiceOf(o); inv.Status == api.InvoiceDraft || inv.Status == "" {
		inv.Status = api.InvoicePendingVerification
	}
}

// workVerified ends the wait: the invoice can be submitted.
func (s *Sandbox) workVerified(o *order, now time.Time) {
	if inv := o.invoice; inv != nil && inv.Status == api.InvoicePendingVerification {
		inv.Status = api.InvoiceDraft
	}
}
