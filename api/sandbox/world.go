package sandbox

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/assets"
)

// World is a generated demo world: customers with their policies and the
// work orders, invoices, messages and attachments the sandbox starts with.
type World struct {
	st *store
}

// WorkOrders returns copies of the world's work orders ordered by id.
func (w *World) WorkOrders() []api.WorkOrder {
	ids := make([]int64, 0, len(w.st.orders))
	for id := range w.st.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]api.WorkOrder, len(ids))
	for i, id := range ids {
		out[i], _ = copyWorkOrder(&w.st.orders[id].wo)
	}
	return out
}

// Customers returns the customers' policies.
func (w *World) Customers() []CustomerPolicy {
	out := make([]CustomerPolicy, len(w.st.customers))
	for i, c := range w.st.customers {
		out[i] = *c
	}
	return out
}

// demo file contents, embedded once and shared by every attachment that uses them.
var demoPNG, demoPDF = mustAsset("demo/evaporator-coil.png"), mustAsset("demo/service-report.pdf")

func mustAsset(name string) []byte {
	b, err := assets.Demo.ReadFile(name)
	if err != nil {
		panic("sandbox: missing embedded asset " + name)
	}
	return b
}

type siteRef struct {
	loc     *api.ServiceLocation // shared by the site's work orders: never modified
	contact *api.Contact
}

type genCustomer struct {
	policy *CustomerPolicy
	def    *customerDef
	sites  []siteRef
}

// generator makes work orders. Everything derives from its rng, so one seed
// and one "now" always give the same world.
type generator struct {
	st    *store
	rng   *rand.Rand
	custs []*genCustomer
	types map[string]*api.WorkType
	count int
}

// lastTouched is how far back the generated world's work was last changed:
// the work orders created at most 45 days ago (createdFor) and those
// received before version 4.1 alike.
const lastTouched = 45 * 24 * time.Hour

// pre41 are the dates of the orders received before version 4.1.
var pre41 = []time.Time{
	time.Date(2018, 6, 4, 14, 32, 0, 0, time.UTC),
	time.Date(2018, 8, 21, 9, 5, 0, 0, time.UTC),
	time.Date(2018, 9, 10, 16, 47, 0, 0, time.UTC),
}

// Generate builds a world of n work orders (at least 60 make every status,
// quote status, currency and procedure kind appear) with dates relative to now.
func Generate(seed int64, n int, now time.Time) *World {
	st := newStore(seed)
	g := &generator{st: st, rng: st.rng, types: map[string]*api.WorkType{}}
	st.gen = g
	for i := range customerDefs {
		d := &customerDefs[i]
		pl := api.PriceList{AllowProviderItems: api.FlagOf(d.free), AllowPriceListItems: api.Yes, Currency: d.currency}
		for k, p := range d.prices {
			pl.Items = append(pl.Items, api.PriceListItem{
				Id: d.id*100 + int64(k) + 1, Description: p.desc, Type: p.typ, Unit: p.unit,
				Rate: api.MustMoney(p.rate, d.currency), IsRateReadOnly: p.readOnly,
			})
		}
		pol := &CustomerPolicy{
			Customer: api.Customer{Id: d.id, Name: d.name}, Currency: d.currency, BranchId: d.branch,
			AllowQuotes: d.quotes, BlockOverNte: d.blockOverNte, AllowBackdating: d.backdating,
			PriceList: pl, Desk: d.desk,
		}
		if cd, ok := completionDefs[d.id]; ok {
			pol.RepairInfoRequired, pol.RepairCodes, pol.CustomFields = cd.repairRequired, cd.codes, cd.fields
			pol.RequireVerification = cd.verification
		}
		gc := &genCustomer{policy: pol, def: d}
		for k, s := range d.sites {
			gc.sites = append(gc.sites, siteRef{
				loc: &api.ServiceLocation{SpaceName: s.name, SpaceId: d.id*1000 + int64(k) + 1, Address: &api.Address{
					Street1: s.street, City: s.city, State: s.state, Country: s.country, PostalCode: s.postal}},
				contact: &api.Contact{FullName: s.contact, ContactAt: s.contactAt, Phones: []string{s.phone}, Emails: []string{s.email}},
			})
		}
		g.custs = append(g.custs, gc)
		st.customers = append(st.customers, pol)
	}
	n = max(n, 1)
	for i := 0; i < n; i++ {
		status, created := g.pickStatus(i, now)
		st.load(g.order(g.custs[i%len(g.custs)], status, created, now, i))
	}
	st.sortIndex()
	g.cover(now)
	st.assignCrews(seed)
	st.addPrintouts(seed)
	return &World{st: st}
}

var statusWeights = []struct {
	s api.WorkOrderStatus
	w int
}{
	{api.StatusNew, 15}, {api.StatusAccepted, 20}, {api.StatusCheckedIn, 10}, {api.StatusPaused, 5},
	{api.StatusCheckedOut, 16}, {api.StatusVerified, 10}, {api.StatusOnHold, 4},
	{api.StatusNeedsCompletionDetails, 3}, {api.StatusRejected, 4}, {api.StatusRecalled, 2},
}

// pickStatus: the first orders walk through every status so that any world
// of 10 or more has all of them; three of the next ones predate version 4.1.
func (g *generator) pickStatus(i int, now time.Time) (api.WorkOrderStatus, time.Time) {
	switch {
	case i < len(api.AllStatuses):
		return api.AllStatuses[i], g.createdFor(api.AllStatuses[i], now)
	case i == 10:
		return api.StatusCheckedIn, pre41[0] // long-running contract job, still invisible to invoicing
	case i == 11:
		return api.StatusOnHold, pre41[1]
	case i == 12:
		return api.StatusCheckedOut, pre41[2] // completed: invoicing can see it
	}
	n := g.rng.IntN(89)
	for _, sw := range statusWeights {
		if n < sw.w {
			return sw.s, g.createdFor(sw.s, now)
		}
		n -= sw.w
	}
	return api.StatusNew, now
}

func (g *generator) createdFor(s api.WorkOrderStatus, now time.Time) time.Time {
	if s == api.StatusNew {
		return now.Add(-time.Duration(10+g.rng.IntN(20*60)) * time.Minute)
	}
	return now.Add(-time.Duration(24+g.rng.IntN(45*24)) * time.Hour).Add(-time.Duration(g.rng.IntN(3600)) * time.Second)
}

var priorities = []api.Sla{
	{PriorityId: 1, PriorityName: "EMERGENCY", IsEmergency: true},
	{PriorityId: 2, PriorityName: "HIGH"},
	{PriorityId: 3, PriorityName: "NORMAL"},
	{PriorityId: 4, PriorityName: "LOW"},
}

// slaWindows: acknowledge, on site and due after creation, by priority.
var slaWindows = [][3]time.Duration{
	{time.Hour, 4 * time.Hour, 24 * time.Hour},
	{2 * time.Hour, 24 * time.Hour, 3 * 24 * time.Hour},
	{4 * time.Hour, 48 * time.Hour, 7 * 24 * time.Hour},
	{24 * time.Hour, 5 * 24 * time.Hour, 14 * 24 * time.Hour},
}

func (g *generator) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(g.rng.Uint32())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return uuid.UUID(b).String()
}

func (g *generator) workType(name string) *api.WorkType {
	if t, ok := g.types[name]; ok {
		return t
	}
	t := &api.WorkType{Name: name}
	g.types[name] = t
	return t
}

// nteFor is a plausible NTE in the customer's currency, rounded the way
// people set limits (50 units; 1,000 yen).
func (g *generator) nteFor(currency string) api.Money {
	if currency == "JPY" {
		return api.Money{Amount: decimal.NewFromInt(int64(30+g.rng.IntN(270)) * 1000), Currency: currency}
	}
	return api.Money{Amount: decimal.NewFromInt(int64(5+g.rng.IntN(45)) * 50), Currency: currency}
}

// order generates one work order of customer c.
func (g *generator) order(c *genCustomer, status api.WorkOrderStatus, created, now time.Time, i int) *order {
	g.count++
	jobs := jobsByKind[c.def.kind]
	job := jobs[g.rng.IntN(len(jobs))]
	o := g.base(c, job, status, created, now, i%9 == 4)
	if job.proc >= 0 && g.rng.IntN(5) < 2 || job.pm {
		g.addProcedures(o, job.proc, now)
	}
	if c.def.quotes && statusIn(status, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusCheckedOut, api.StatusVerified) && g.rng.IntN(4) == 0 {
		g.setQuote(o, api.AllQuoteStatuses[g.rng.IntN(len(api.AllQuoteStatuses))])
	}
	g.addInvoice(o, now)
	if g.rng.IntN(6) == 0 && status != api.StatusNew {
		g.addMessages(o, now)
	}
	if g.rng.IntN(10) == 0 {
		g.addAttachment(o, now)
	}
	o.wo.StampCurrency()
	return o
}

// base is what every work order has: ids, the job, a site, the SLA of a
// priority, an NTE (none when noLimit), a visit booked where the status
// needs one, sometimes IVR details. The generated world and the fixtures
// (CreateWorkOrder) share it; keep its dice in this order, or every seed's
// world changes.
func (g *generator) base(c *genCustomer, job jobDef, status api.WorkOrderStatus, created, now time.Time, noLimit bool) *order {
	st := g.st
	st.nextOrderID++
	st.nextNumber++
	d := c.def
	site := c.sites[g.rng.IntN(len(c.sites))]
	prio := g.rng.IntN(len(priorities))
	if job.pm {
		prio = 3
	}
	sla := priorities[prio]
	win := slaWindows[prio]
	ack, onSite, due := created.Add(win[0]), created.Add(win[1]), created.Add(win[2])
	// The deadline that matters in the order's status lands around now,
	// mostly ahead (-12 h to +84 h): a real desk has a few overdue jobs, not
	// most of them. Deadlines already passed in the status stay put.
	target := now.Add(time.Duration(g.rng.IntN(96)-12) * time.Hour).Truncate(15 * time.Minute)
	switch status {
	case api.StatusNew:
		if shift := target.Sub(ack); shift > 0 {
			ack, onSite, due = ack.Add(shift), onSite.Add(shift), due.Add(shift)
		}
	case api.StatusAccepted, api.StatusPaused:
		if shift := target.Sub(onSite); shift > 0 {
			onSite, due = onSite.Add(shift), due.Add(shift)
		}
	case api.StatusCheckedIn, api.StatusOnHold, api.StatusNeedsCompletionDetails:
		if shift := target.Sub(due); shift > 0 {
			due = due.Add(shift)
		}
	}
	sla.AcknowledgeBy, sla.OnSiteBy, sla.DueDate = &ack, &onSite, &due

	w := api.WorkOrder{
		WorkOrderId: st.nextOrderID, WorkOrderNumber: fmt.Sprintf("%s%d", d.prefix, st.nextNumber),
		Status: status, Type: "Request", WorkType: g.workType(job.workType),
		Created: created, AccompanyingMessage: job.title + ". " + job.message,
		Currency: d.currency, Sla: &sla, Contact: site.contact, Customer: c.policy.Customer,
		ServiceLocation: site.loc, BranchId: c.policy.BranchId,
	}
	w.SetAssigned(nil) // nobody yet: the contractor assigns (assignCrews, for the generated world)
	if job.pm {
		w.Type = "PMRM"
	}
	// LastUpdate: some time between creation and now, and within the last
	// lastTouched for the orders received long ago (the pre-4.1 ones, from
	// 2018): a job still on the desk was touched lately, and an invoice
	// dated years back made the demo's receivables look broken. The draw
	// is the same either way (scaled, not redrawn), so every seed's world
	// otherwise stays as it was.
	span := now.Sub(created)
	w.LastUpdate = created
	if span > 0 {
		r := g.rng.Int64N(int64(span))
		if from := now.Add(-lastTouched); created.Before(from) {
			w.LastUpdate = from.Add(time.Duration(float64(r) / float64(span) * float64(lastTouched)))
		} else {
			w.LastUpdate = created.Add(time.Duration(r))
		}
	}
	w.LastUpdate = w.LastUpdate.Truncate(time.Microsecond)
	if !noLimit {
		w.Nte.Amount = g.nteFor(d.currency)
	} else {
		w.Nte.Amount = api.Money{Amount: decimal.Zero, Currency: d.currency} // no limit
	}
	if statusIn(status, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusOnHold) || status == api.StatusNew && g.rng.IntN(3) == 0 {
		start := now.Add(time.Duration(g.rng.IntN(96)-24) * time.Hour).Truncate(30 * time.Minute)
		if earliest := created.Add(time.Hour).Truncate(30 * time.Minute); start.Before(earliest) {
			start = earliest // a visit is never booked before the order arrived
		}
		pte := "Appointment"
		if g.rng.IntN(3) == 0 {
			pte = "CallFirst"
		}
		w.Schedule = &api.Schedule{ScheduledStart: &start, Pte: pte}
	}
	if g.rng.IntN(3) == 0 {
		w.IvrInfo = &api.IvrInfo{PhoneNumber: ivrPhone(d.currency), Pin: fmt.Sprintf("%04d", g.rng.IntN(10000)), ReferenceCode: w.WorkOrderNumber}
	}
	return &order{wo: w, cust: c.policy}
}

func ivrPhone(currency string) string {
	switch currency {
	case "GBP":
		return "+44 808 157 0199"
	case "EUR":
		return "+49 800 555 0199"
	case "JPY":
		return "+81 120-555-019"
	}
	return "+1 800-555-0199"
}

func (g *generator) addProcedures(o *order, first int, now time.Time) {
	idx := []int{first}
	if first < 0 {
		idx = []int{2}
	} else if first != 2 && g.rng.IntN(3) == 0 {
		idx = append(idx, 2) // the safety checklist rides along
	}
	wd := &api.WorkDetails{}
	for k, pi := range idx {
		def := procedureDefs[pi]
		g.st.nextProcID++
		p := api.Procedure{Id: g.st.nextProcID, Order: k + 1, Name: def.name, Status: "Open", AllowMarkNotApplicable: new(pi == 2 || g.rng.IntN(2) == 0)}
		switch {
		case o.wo.Status.Completed():
			p.IsReadOnly, p.Status = true, "Done" // work done: the procedure is closed
		case allowsNA(&p) && g.rng.IntN(6) == 0:
			p.IsMarkedNa = true
		}
		for s, sd := range def.steps {
			g.st.nextStepID++
			step := api.Step{Id: g.st.nextStepID, Order: s + 1, Status: "Open", IsRequired: s == 0 || sd.photo,
				Description: sd.desc, StepType: "Field", Label: sd.label, DataType: sd.dataType}
			if p.IsReadOnly {
				step.Status = "Done"
			}
			p.Steps = append(p.Steps, step)
			if sd.photo && g.rng.IntN(3) > 0 {
				g.addStepFile(o, p.Id, step.Id, now)
			}
		}
		wd.Procedures = append(wd.Procedures, p)
	}
	o.wo.WorkDetails = wd
}

func (g *generator) addStepFile(o *order, procID, stepID int64, now time.Time) {
	meta := api.Attachment{AttachmentId: g.uuid(), DocumentType: "Picture", Created: o.wo.LastUpdate}
	data := demoPNG
	meta.Name, meta.MimeType = "evaporator-coil.png", "image/png"
	if g.rng.IntN(3) == 0 {
		data = demoPDF
		meta.Name, meta.MimeType, meta.DocumentType = "service-report.pdf", "application/pdf", "Document"
	}
	meta.Size = int64(len(data))
	f := &file{meta: meta, data: data, woID: o.wo.WorkOrderId, procID: procID, stepID: stepID}
	g.st.steps[stepID] = append(g.st.steps[stepID], f)
	g.st.files[meta.AttachmentId] = f
}

func (g *generator) addAttachment(o *order, now time.Time) {
	meta := api.Attachment{AttachmentId: g.uuid(), Name: "site-photo.png", MimeType: "image/png", DocumentType: "Picture",
		MessageVisibility: api.VisibilityAll, Created: o.wo.Created.Add(5 * time.Minute), Size: int64(len(demoPNG))}
	data := demoPNG
	if g.rng.IntN(2) == 0 {
		meta.Name, meta.MimeType, meta.DocumentType, meta.Size, data = "work-authorization.pdf", "application/pdf", "Document", int64(len(demoPDF)), demoPDF
	}
	f := &file{meta: meta, data: data, woID: o.wo.WorkOrderId}
	o.files = append(o.files, f)
	g.st.files[meta.AttachmentId] = f
}

func (g *generator) addMessages(o *order, now time.Time) {
	n := 1 + g.rng.IntN(3)
	t := o.wo.Created
	for k := 0; k < n; k++ {
		t = t.Add(time.Duration(10+g.rng.IntN(600)) * time.Minute)
		if t.After(now) {
			break
		}
		g.st.nextMsgID++
		m := api.Message{Id: g.st.nextMsgID, WorkOrderId: o.wo.WorkOrderId, MessageVisibility: api.VisibilityAll, Created: t}
		if k%2 == 0 {
			m.Text = customerMessages[g.rng.IntN(len(customerMessages))]
			m.Sender = &api.Sender{Name: o.wo.Contact.FullName, Type: "Customer"}
		} else {
			m.Text = contractorMessages[g.rng.IntN(len(contractorMessages))]
			m.Sender = &api.Sender{Name: technicians[g.rng.IntN(len(technicians))], Type: "CorrigoPro"}
		}
		o.messages = append(o.messages, m)
	}
}

// setQuote gives the order a quote in status qs, consistent with its NTE:
// a submitted or rejected quote asks for more than the NTE, an approved one
// has become the NTE.
func (g *generator) setQuote(o *order, qs api.QuoteStatus) {
	w := &o.wo
	base := w.Nte.Amount
	if base.IsZero() {
		base = g.nteFor(w.Currency)
	}
	amt := api.Money{Amount: base.Amount.Mul(decimal.NewFromFloat(1.5 + float64(g.rng.IntN(10))/10)), Currency: w.Currency}.Round()
	if w.Currency == "JPY" {
		amt.Amount = amt.Amount.Div(decimal.NewFromInt(1000)).Round(0).Mul(decimal.NewFromInt(1000))
	}
	q := &api.Quote{Amount: amt, QuoteStatus: qs, Comment: "Compressor failed; replacement needed, see attached report."}
	switch qs {
	case api.QuoteRequested:
		q.Amount = api.Money{Currency: w.Currency}
		q.Comment = "Please quote the full repair before going ahead."
	case api.QuoteApproved:
		w.Nte.Amount = amt
	case api.QuoteRejected:
		q.Comment = "Too expensive for this site; please requote with a repair instead of a replacement."
	}
	w.Nte.Quote = q
}

// addInvoice prepares the invoice a contractor would have by now: lines
// once work is under way, and the customer's later statuses for finished work.
func (g *generator) addInvoice(o *order, now time.Time) {
	w := &o.wo
	if !statusIn(w.Status, api.StatusCheckedIn, api.StatusPaused, api.StatusCheckedOut, api.StatusVerified, api.StatusNeedsCompletionDetails) {
		return
	}
	inv := g.st.invoiceOf(o)
	g.fillInvoice(o, inv, 1+g.rng.IntN(3))
	if w.Status.Completed() {
		deadline := w.LastUpdate.AddDate(0, 0, 30)
		inv.SubmissionDeadline = &deadline
		switch n := g.rng.IntN(10); {
		case n < 4:
		case n < 6:
			inv.Status = api.InvoiceSubmitted
		case n < 7:
			inv.Status, inv.AuthNumber = api.InvoiceAuthorized, g.st.nextDoc("AUTH")
		case n < 9:
			inv.Status, inv.AuthNumber, inv.CheckNumber = api.InvoicePaid, g.st.nextDoc("AUTH"), g.st.nextDoc("CHK")
			paid := w.LastUpdate
			inv.PaidDate = &paid
		default:
			inv.Status, inv.Comment = api.InvoiceDisputed, "Trip charge billed twice; please correct and resubmit."
		}
		if w.Status == api.StatusCheckedOut {
			g.st.awaitVerification(o)
		}
	}
}

// fillInvoice writes labour, the trip charge and some material from the
// customer's price list, priced so the total usually stays inside the NTE.
func (g *generator) fillInvoice(o *order, inv *api.Invoice, materials int) {
	pl := &o.cust.PriceList
	var lines []api.LineItem
	add := func(item api.PriceListItem, qty decimal.Decimal) {
		g.st.nextLineID++
		l := api.LineItem{Id: g.st.nextLineID, Type: item.Type, Description: item.Description, Quantity: qty,
			Rate: item.Rate.In(o.wo.Currency), PriceListItemId: item.Id}
		l.Subtotal = l.ComputedSubtotal()
		lines = append(lines, l)
	}
	add(pl.Items[0], decimal.NewFromFloat(float64(2+g.rng.IntN(6))/2)) // 1–3.5 hours
	for _, it := range pl.Items {
		if it.Type == api.LineTravel {
			add(it, decimal.NewFromInt(1))
			break
		}
	}
	for k := 0; k < materials; k++ {
		it := pl.Items[len(pl.Items)-1-g.rng.IntN(2)]
		add(it, decimal.NewFromInt(int64(1+g.rng.IntN(3))))
	}
	total := decimal.Zero
	for _, l := range lines {
		total = total.Add(l.Subtotal.Amount)
	}
	inv.LineItems = lines
	inv.InvoiceNumber = "INV-" + o.wo.WorkOrderNumber
	d := o.wo.LastUpdate.Truncate(24 * time.Hour)
	inv.InvoiceDate = &d
	inv.TotalAmount = api.Money{Amount: total, Currency: o.wo.Currency}
	inv.DiscountAmount = api.Money{Currency: o.wo.Currency}
	nte := o.wo.Nte.Amount.Amount
	if !nte.IsZero() && total.Cmp(nte) > 0 {
		// Keep generated invoices inside the NTE; cover() makes the one
		// deliberate exception.
		o.wo.Nte.Amount.Amount = total.Add(decimal.NewFromInt(100)).Round(-2)
		switch q := o.wo.Nte.Quote; {
		case q == nil:
		case q.QuoteStatus == api.QuoteApproved:
			q.Amount = o.wo.Nte.Amount
		case q.QuoteStatus != api.QuoteRequested && q.Amount.Amount.Cmp(o.wo.Nte.Amount.Amount) <= 0:
			q.Amount.Amount = o.wo.Nte.Amount.Amount.Mul(decimal.NewFromInt(3)).Div(decimal.NewFromInt(2)).Round(0)
		}
	}
}

// dispatch makes a brand-new work order for the scripted customer.
func (g *generator) dispatch(now time.Time) *order {
	c := g.custs[g.rng.IntN(len(g.custs))]
	return g.order(c, api.StatusNew, now, now, g.count)
}

// cover makes sure the world shows every case a demo or test needs,
// whatever the dice did: every quote status, every procedure kind with
// step attachments, every invoice status, and an over-NTE submitted invoice
// for a customer that disputes rather than blocks.
func (g *generator) cover(now time.Time) {
	st := g.st
	ids := make([]int64, 0, len(st.orders))
	for id := range st.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	find := func(ok func(o *order) bool) *order {
		for _, id := range ids {
			if o := st.orders[id]; ok(o) {
				return o
			}
		}
		return nil
	}
	modern := func(o *order) bool { return o.wo.InvoiceVisible() && !o.wo.Created.Before(api.Version41Date) }
	for _, qs := range api.AllQuoteStatuses {
		if find(func(o *order) bool { return o.wo.Nte.Quote != nil && o.wo.Nte.Quote.QuoteStatus == qs }) != nil {
			continue
		}
		o := find(func(o *order) bool {
			return o.cust.AllowQuotes && o.wo.Nte.Quote == nil && !o.wo.Nte.NoLimit() && modern(o) &&
				statusIn(o.wo.Status, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused)
		})
		if o != nil {
			g.setQuote(o, qs)
		}
	}
	// Procedures: editable, read-only and N/A, each with step attachments.
	// Editable means on a work order whose status allows procedure edits
	// too (api.ProcedureEditStates), so a demo can add a file to it.
	kinds := []struct {
		ok  func(o *order, p *api.Procedure) bool
		set func(p *api.Procedure)
	}{
		{func(o *order, p *api.Procedure) bool {
			return o.wo.StepAttachmentsEditable(*p)
		}, func(p *api.Procedure) {}},
		{func(o *order, p *api.Procedure) bool { return p.IsReadOnly }, func(p *api.Procedure) { p.IsReadOnly = true }},
		{func(o *order, p *api.Procedure) bool { return p.IsMarkedNa }, func(p *api.Procedure) { p.IsMarkedNa, p.AllowMarkNotApplicable = true, new(true) }},
	}
	used := map[int64]bool{}
	for _, k := range kinds {
		has := find(func(o *order) bool {
			for _, p := range o.wo.Procedures() {
				if k.ok(o, &p) && len(st.steps[p.Steps[0].Id])+len(st.steps[p.Steps[len(p.Steps)-1].Id]) > 0 {
					return true
				}
			}
			return false
		})
		if has != nil {
			continue
		}
		o := find(func(o *order) bool {
			return !used[o.wo.WorkOrderId] && o.wo.WorkDetails == nil && statusIn(o.wo.Status, api.StatusAccepted, api.StatusCheckedIn)
		})
		if o == nil {
			continue
		}
		used[o.wo.WorkOrderId] = true
		g.addProcedures(o, 0, now)
		p := &o.wo.WorkDetails.Procedures[0]
		p.IsReadOnly, p.IsMarkedNa = false, false
		k.set(p)
		g.addStepFile(o, p.Id, p.Steps[0].Id, now)
		o.wo.StampCurrency()
	}
	// Invoice statuses.
	for _, is := range []api.InvoiceStatus{api.InvoiceDraft, api.InvoiceSubmitted, api.InvoiceAuthorized, api.InvoicePaid, api.InvoiceDisputed} {
		if find(func(o *order) bool { return o.invoice != nil && o.invoice.Status == is && len(o.invoice.LineItems) > 0 }) != nil {
			continue
		}
		o := find(func(o *order) bool {
			return o.wo.Status.Completed() && modern(o) && o.invoice != nil && o.invoice.Status == api.InvoiceDraft && len(o.invoice.LineItems) > 0
		})
		if o == nil {
			continue
		}
		inv := o.invoice
		inv.Status = is
		switch is {
		case api.InvoiceAuthorized:
			inv.AuthNumber = st.nextDoc("AUTH")
		case api.InvoicePaid:
			inv.AuthNumber, inv.CheckNumber = st.nextDoc("AUTH"), st.nextDoc("CHK")
			paid := o.wo.LastUpdate
			inv.PaidDate = &paid
		case api.InvoiceDisputed:
			inv.Comment = "Trip charge billed twice; please correct and resubmit."
		}
	}
	g.ageInvoices(now)
	// Check-out needs completion details at some customers: a demo shows a
	// Request work order there (refused without them) and a PMRM one
	// (checked out into NeedsCompletionDetails), both on site now.
	asks := func(o *order) bool {
		return o.cust.RepairInfoRequired && len(o.cust.CustomFields) > 0 && !o.wo.IsPreBilled && modern(o)
	}
	kept := map[int64]bool{}
	for _, typ := range []string{"PMRM", "Request"} {
		o := find(func(o *order) bool { return asks(o) && o.wo.Status == api.StatusCheckedIn && o.wo.Type == typ })
		if o == nil {
			o = find(func(o *order) bool { return asks(o) && o.wo.Status == api.StatusCheckedIn && !kept[o.wo.WorkOrderId] })
		}
		if o == nil {
			// Start a visit, but leave the customer an accepted order too:
			// a demo checks in there as well.
			accepted := 0
			for _, x := range st.orders {
				if asks(x) && x.wo.Status == api.StatusAccepted {
					accepted++
				}
			}
			if accepted > 1 {
				o = find(func(o *order) bool { return asks(o) && o.wo.Status == api.StatusAccepted && !kept[o.wo.WorkOrderId] })
			}
		}
		if o != nil {
			o.wo.Status, o.wo.Type = api.StatusCheckedIn, typ
			kept[o.wo.WorkOrderId] = true
		}
	}
	// One submitted invoice above the NTE at a customer that accepts it and
	// disputes later: the scripted customer's dispute has something to do.
	if o := find(func(o *order) bool {
		return !o.cust.BlockOverNte && o.wo.Status.Completed() && modern(o) && o.invoice != nil &&
			o.invoice.Status == api.InvoiceDraft && len(o.invoice.LineItems) > 0 && o.wo.Nte.Quote == nil
	}); o != nil {
		o.invoice.Status = api.InvoiceSubmitted
		o.wo.Nte.Amount.Amount = o.invoice.TotalAmount.Amount.Div(decimal.NewFromInt(2)).Round(0)
	}
}

// invoiceAges are the ages, in days, ageInvoices gives the outstanding
// invoices of finished work, in turn (0: as generated): the generated
// world's work is at most 45 days old, and receivables are aged up to 90
// days and beyond.
var invoiceAges = []int{0, 45, 0, 75, 105, 0, 35, 140}

// ageInvoices moves some finished work orders with an outstanding invoice
// (submitted, authorized, disputed) back in time, whole: created, last
// changed, deadlines and the invoice's dates move together, so the world
// stays consistent and its receivables have every age. No dice: every
// seed's world otherwise stays as it was.
func (g *generator) ageInvoices(now time.Time) {
	st := g.st
	ids := make([]int64, 0, len(st.orders))
	for id, o := range st.orders {
		if o.invoice != nil && o.invoice.Status.Outstanding() && o.wo.Status.Completed() && !o.wo.Created.Before(api.Version41Date) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	moved := map[int64]bool{}
	for i, id := range ids {
		o := st.orders[id]
		target := invoiceAges[i%len(invoiceAges)]
		if target == 0 || o.invoice.InvoiceDate == nil {
			continue
		}
		days := target - int(now.Sub(*o.invoice.InvoiceDate).Hours()/24)
		if days <= 0 {
			continue
		}
		back := func(t *time.Time) {
			if t != nil {
				*t = t.AddDate(0, 0, -days)
			}
		}
		w := &o.wo
		back(&w.Created)
		back(&w.LastUpdate)
		if w.Sla != nil {
			for _, t := range []**time.Time{&w.Sla.AcknowledgeBy, &w.Sla.OnSiteBy, &w.Sla.DueDate} {
				if *t != nil {
					moved := (*t).AddDate(0, 0, -days)
					*t = &moved
				}
			}
		}
		inv := o.invoice
		for _, t := range []**time.Time{&inv.InvoiceDate, &inv.SubmissionDeadline, &inv.PaidDate} {
			if *t != nil {
				moved := (*t).AddDate(0, 0, -days)
				*t = &moved
			}
		}
		moved[id] = true
	}
	for i, e := range st.byUpdate { // the index holds each order's LastUpdate
		if moved[e.id] {
			st.byUpdate[i].t = st.orders[e.id].wo.LastUpdate.UnixNano()
		}
	}
	st.sortIndex()
}
