package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func line(typ api.LineItemType, desc, qty, rate string, item int64) api.LineItem {
	return api.LineItem{Type: typ, Description: desc, Quantity: dec(qty), Rate: api.Money{Amount: dec(rate)}, PriceListItemId: item}
}

func TestInvoiceSaveComputesTotals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusCheckedIn, func(o *order) { o.invoice = nil })
	pl, err := e.client.GetPriceList(e.ctx, id)
	if err != nil || pl.Currency != "USD" || len(pl.Items) == 0 || !pl.AllowProviderItems.True() {
		t.Fatalf("price list: %+v %v", pl, err)
	}
	save := func(inv api.Invoice) (*api.Invoice, error) {
		return e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: inv})
	}
	inv, err := save(api.Invoice{
		InvoiceNumber: "INV-1001",
		LineItems: []api.LineItem{
			line("", "", "1.5", "0", 410101),                              // labour from the list: rate and description filled in
			line(api.LineMaterial, "Copper fittings", "0.333", "4.35", 0), // 1.44855 → 1.45
			line(api.LineTax, "Sales tax", "1", "11.21", 0),
		},
		DiscountAmount: api.MustMoney("10.00", "USD"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"142.5", "1.45", "11.21"}
	for i, l := range inv.LineItems {
		if !l.Subtotal.Amount.Equal(dec(want[i])) || l.Id == 0 {
			t.Fatalf("line %d: %+v", i, l)
		}
	}
	if inv.LineItems[0].Description != "Technician labour, standard rate" || inv.LineItems[0].Type != api.LinePriceList {
		t.Fatalf("price-list line not completed: %+v", inv.LineItems[0])
	}
	if !inv.TotalAmount.Amount.Equal(dec("145.16")) || inv.TotalAmount.Currency != "USD" {
		t.Fatalf("total %s", inv.TotalAmount.Amount)
	}
	// Lines not sent back are deleted; unknown ids are 3043.
	keep := inv.LineItems[0]
	inv2, err := save(api.Invoice{InvoiceNumber: "INV-1001", LineItems: []api.LineItem{keep}})
	if err != nil || len(inv2.LineItems) != 1 || inv2.LineItems[0].Id != keep.Id || !inv2.TotalAmount.Amount.Equal(dec("142.5")) {
		t.Fatalf("replace: %+v %v", inv2, err)
	}
	bad := keep
	bad.Id = 123
	_, err = save(api.Invoice{LineItems: []api.LineItem{bad}})
	wantCode(t, err, 3043)
	// Read-only rate (trip charge) is enforced.
	_, err = save(api.Invoice{LineItems: []api.LineItem{line("", "Trip charge", "1", "99.00", 410104)}})
	wantCode(t, err, 2100)
	if !contains(err.Error(), "fixed by the price list") {
		t.Fatalf("read-only rate message: %v", err)
	}
	_, err = save(api.Invoice{LineItems: []api.LineItem{line(api.LineTax, "Tax", "1", "1", 0), line(api.LineTax, "Tax 2", "1", "1", 0)}})
	wantCode(t, err, 3042)
	_, err = save(api.Invoice{LineItems: []api.LineItem{line(api.LineMaterial, "Fitting", "1", "0.125", 0)}})
	wantCode(t, err, 2100)
	got, err := e.client.GetInvoice(e.ctx, id)
	if err != nil || len(got.LineItems) != 1 {
		t.Fatalf("refused saves changed the invoice: %+v %v", got, err)
	}
	if err := e.client.DeleteInvoice(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	if got, _ = e.client.GetInvoice(e.ctx, id); len(got.LineItems) != 0 || got.InvoiceNumber != "" || got.Status != api.InvoiceDraft {
		t.Fatalf("after delete: %+v", got)
	}
}

func TestInvoiceYenAndPriceListOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	jp := e.setup("Sakura Mart Japan", api.StatusCheckedIn, func(o *order) { o.invoice = nil })
	inv, err := e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: jp, Invoice: api.Invoice{
		LineItems: []api.LineItem{line("", "", "1.25", "0", 410401), line(api.LineOther, "Night access fee", "1", "3300", 0)}}})
	if err != nil {
		t.Fatal(err)
	}
	// 8500 × 1.25 = 10625 exactly; JPY has no minor units.
	if !inv.TotalAmount.Amount.Equal(dec("13925")) || inv.TotalAmount.Format() != "¥13,925" {
		t.Fatalf("yen total %s (%s)", inv.TotalAmount.Amount, inv.TotalAmount.Format())
	}
	_, err = e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: jp, Invoice: api.Invoice{
		LineItems: []api.LineItem{line(api.LineMaterial, "Tape", "1", "99.5", 0)}}})
	wantCode(t, err, 2100)

	uk := e.setup("Kensington Foods UK", api.StatusCheckedIn, func(o *order) { o.invoice = nil })
	_, err = e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: uk, Invoice: api.Invoice{
		LineItems: []api.LineItem{line(api.LineMaterial, "Sealant", "1", "4.20", 0)}}})
	wantCode(t, err, 2100)
	if !contains(err.Error(), "price-list lines only") {
		t.Fatalf("free line message: %v", err)
	}
}

func TestInvoiceSubmitRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	open := e.setup("Northwind Retail", api.StatusCheckedIn, nil)
	_, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: open})
	wantCode(t, err, 3051)

	id := e.setup("Northwind Retail", api.StatusCheckedOut, func(o *order) {
		o.invoice = nil
		o.wo.Nte = api.Nte{Amount: api.MustMoney("1000", "USD")}
	})
	_, err = e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, 3052)
	if !contains(err.Error(), "invoice number is missing") || !contains(err.Error(), "date is missing") {
		t.Fatalf("empty invoice message: %v", err)
	}
	day := fixedNow.Truncate(24 * time.Hour)
	save := func(lines ...api.LineItem) {
		t.Helper()
		if _, err := e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: api.Invoice{InvoiceNumber: "INV-77", InvoiceDate: &day, LineItems: lines}}); err != nil {
			t.Fatal(err)
		}
	}
	save(line(api.LineMaterial, "", "0", "10", 0))
	_, err = e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, 3052)
	if !contains(err.Error(), "no description") || !contains(err.Error(), "quantity 0") {
		t.Fatalf("line problems: %v", err)
	}
	save(line(api.LineLabor, "Diagnose and repair", "12", "95", 0)) // 1140 > NTE 1000
	_, err = e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, 3052)
	if !contains(err.Error(), "exceeds the NTE") {
		t.Fatalf("over-NTE message: %v", err)
	}
	save(line(api.LineLabor, "Diagnose and repair", "8", "95", 0))
	inv, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	if err != nil || inv.Status != api.InvoiceSubmitted {
		t.Fatalf("submit: %+v %v", inv, err)
	}
	rcv.wait(t, api.ActionInvoiceStatusChanged, id)
	_, err = e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, 3050)
	_, err = e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: api.Invoice{InvoiceNumber: "X"}})
	wantCode(t, err, 3036)
	wantCode(t, e.client.DeleteInvoice(e.ctx, id), 3036)

	// The customer authorizes, then pays.
	if err := e.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err == nil {
		t.Fatal("paid before authorized")
	}
	if err := e.sb.SetInvoiceStatus(id, api.InvoiceAuthorized, ""); err != nil {
		t.Fatal(err)
	}
	if err := e.sb.SetInvoiceStatus(id, api.InvoicePaid, ""); err != nil {
		t.Fatal(err)
	}
	waitCount(t, rcv, api.ActionInvoiceStatusChanged, 3)
	got, _ := e.client.GetInvoice(e.ctx, id)
	if got.Status != api.InvoicePaid || got.AuthNumber == "" || got.CheckNumber == "" || got.PaidDate == nil {
		t.Fatalf("paid invoice: %+v", got)
	}
	var paid *api.InvoiceStatusChangedEvent
	for _, d := range rcv.deliveries() {
		if b, ok := d.event.Body.(*api.InvoiceStatusChangedEvent); ok && b.Status == api.InvoicePaid {
			paid = b
		}
	}
	if paid == nil || paid.CheckNumber == "" || paid.PaidDate == nil || paid.Amount == nil || !paid.Amount.Amount.Equal(dec("760")) {
		t.Fatalf("paid notification: %+v", paid)
	}
}

func TestOverNteAcceptedThenDisputed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Harbor Point Hotels", api.StatusCheckedOut, func(o *order) {
		o.invoice = nil
		o.wo.Nte = api.Nte{Amount: api.MustMoney("100", "USD")}
	})
	day := fixedNow.Truncate(24 * time.Hour)
	if _, err := e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: api.Invoice{
		InvoiceNumber: "HP-1", InvoiceDate: &day, LineItems: []api.LineItem{line(api.LineLabor, "Pool heater repair", "3", "110", 0)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id}); err != nil {
		t.Fatalf("a customer that does not block over-NTE invoices refused: %v", err)
	}
	// The scripted customer gets to it within a bounded number of ticks.
	for i := 0; i < 2000; i++ {
		if _, err := e.sb.CustomerTick(); err != nil {
			t.Fatal(err)
		}
		if inv, _ := e.client.GetInvoice(e.ctx, id); inv.Status != api.InvoiceSubmitted {
			if inv.Status != api.InvoiceDisputed || !contains(inv.Comment, "exceeds the approved NTE") {
				t.Fatalf("over-NTE invoice became %s (%q)", inv.Status, inv.Comment)
			}
			return
		}
	}
	t.Fatal("the scripted customer never decided the invoice")
}

func TestPreV41InvisibleToInvoicing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var id int64
	e.sb.mu.RLock()
	for _, o := range e.sb.st.orders {
		if o.wo.Created.Before(api.Version41Date) && o.wo.Status == api.StatusCheckedIn {
			id = o.wo.WorkOrderId
		}
	}
	e.sb.mu.RUnlock()
	if id == 0 {
		t.Fatal("no pre-4.1 work order in progress")
	}
	_, err := e.client.GetInvoice(e.ctx, id)
	wantCode(t, err, 3005)
	_, err = e.client.GetPriceList(e.ctx, id)
	wantCode(t, err, 3005)
	if _, err := e.client.ListInvoiceAttachments(e.ctx, id); !api.HasCode(err, 3005) {
		t.Fatalf("invoice attachments: %v", err)
	}
	// Other operations still see it.
	if _, err := e.client.GetWorkOrder(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := e.client.CheckOut(e.ctx, e.completeCheckOut(id)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.GetInvoice(e.ctx, id); err != nil {
		t.Fatalf("completed pre-4.1 order still invisible: %v", err)
	}
}

func TestInvoiceEndpointsAnswerRawShapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Rheinland Offices", api.StatusCheckedIn, nil)
	status, b := e.raw(http.MethodGet, "/api/invoice?workOrderId="+itoa(id)+"&messageId=abc", nil)
	if status != 200 || !contains(string(b), `"Invoice":{`) || !contains(string(b), `"MessageId":"abc"`) {
		t.Fatalf("GET invoice: %d %s", status, b)
	}
	status, b = e.raw(http.MethodGet, "/api/invoice/pricelist?workOrderId="+itoa(id), nil)
	if status != 200 || !contains(string(b), `"PriceList":{`) || !contains(string(b), `"Currency":"EUR"`) {
		t.Fatalf("GET pricelist: %d %s", status, b)
	}
}

// TestNteZeroIsNoLimitEvenWhereOverNteIsBlocked: Northwind Retail blocks
// invoices above the NTE, but an NTE of 0 means no limit, so an invoice of
// any total is accepted once the customer sets the NTE to 0.
func TestNteZeroIsNoLimitEvenWhereOverNteIsBlocked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusCheckedOut, func(o *order) {
		if !o.cust.BlockOverNte {
			t.Fatal("Northwind Retail is expected to block over-NTE invoices")
		}
		o.invoice = nil
		o.wo.Nte = api.Nte{Amount: api.MustMoney("250", "USD")}
	})
	day := fixedNow.Truncate(24 * time.Hour)
	if _, err := e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: api.Invoice{
		InvoiceNumber: "NWR-0", InvoiceDate: &day,
		LineItems: []api.LineItem{line(api.LineMaterial, "Rooftop unit, complete", "3", "48750.00", 0)}}}); err != nil {
		t.Fatal(err)
	}
	// With a limit the customer's policy applies...
	_, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, 3052)
	// ...with NTE 0 there is no limit to exceed.
	if err := e.sb.SetNte(id, decimal.Zero); err != nil {
		t.Fatal(err)
	}
	inv, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	if err != nil {
		t.Fatalf("NTE 0 (no limit) at a blocking customer: %v", err)
	}
	if inv.Status != api.InvoiceSubmitted || !inv.TotalAmount.Amount.Equal(dec("146250")) {
		t.Fatalf("submitted invoice %s, total %s", inv.Status, inv.TotalAmount.Amount)
	}
}
