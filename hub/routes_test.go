package hub

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/serve"
)

// worldOrders reads every work order of the generated world from the service.
func worldOrders(t *testing.T, o *office) []api.WorkOrder {
	t.Helper()
	ctx := context.Background()
	svc := o.direct()
	found, err := svc.SearchWorkOrders(ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	var out []api.WorkOrder
	for start := 0; start < len(found); start += api.MaxReadBatch {
		var ids []int64
		for _, w := range found[start:min(start+api.MaxReadBatch, len(found))] {
			ids = append(ids, w.WorkOrderId)
		}
		wos, err := svc.GetWorkOrders(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, wos...)
	}
	return out
}

// Every kind of write goes through the hub to the service once, with the
// service's answer back to the desktop, an event naming the person, an
// audit row, and the replica and stored reads following: reject, quote,
// check-out, invoice save and submit, step attachment add and remove.
func TestEachWriteRouteIsForwarded(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{WorkOrders: 300})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	world := worldOrders(t, o)
	used := map[int64]bool{}
	pick := func(what string, ok func(*api.WorkOrder) bool) *api.WorkOrder {
		t.Helper()
		for i := range world {
			if wo := &world[i]; !used[wo.WorkOrderId] && ok(wo) {
				used[wo.WorkOrderId] = true
				return wo
			}
		}
		t.Fatalf("no work order in the world to %s", what)
		return nil
	}
	quoteOf := func(wo *api.WorkOrder) api.Money {
		return api.Money{Amount: wo.Nte.Amount.Amount.Add(decimal.NewFromInt(1000)), Currency: wo.Currency}
	}
	rejected := newWorkOrder(t, o)
	quoted := pick("quote", func(wo *api.WorkOrder) bool {
		return wo.CheckQuote(quoteOf(wo), "the compressor needs replacing", nil, false) == nil
	})
	checkedOut := pick("check out", func(wo *api.WorkOrder) bool { return wo.Can(api.CheckOut) == nil })
	invoiced := pick("save and submit an invoice", func(wo *api.WorkOrder) bool {
		if wo.IsPreBilled || wo.Can(api.SaveInvoice) != nil || wo.Can(api.SubmitInvoice) != nil ||
			!wo.Nte.NoLimit() && !wo.Nte.Amount.Amount.GreaterThan(decimal.NewFromInt(100)) {
			return false
		}
		// The work order allows it; its invoice must too (a submitted one
		// is not edited again: 3036).
		inv, err := ana.GetInvoice(ctx, wo.WorkOrderId)
		return err == nil && inv.Status.Editable()
	})
	var step api.StepRef
	pick("change a step's attachments", func(wo *api.WorkOrder) bool {
		for _, p := range wo.Procedures() {
			for _, st := range p.Steps {
				ref := api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: st.Id}
				if wo.CanChangeStep(api.AddStepAttachment, ref) == nil {
					step = ref
					return true
				}
			}
		}
		return false
	})
	// The reads a desktop has open, stored before the writes change them.
	inv, err := ana.GetInvoice(ctx, invoiced.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ana.ListStepAttachments(ctx, step); err != nil {
		t.Fatal(err)
	}
	events := openStream(t, a, creds, "")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var added *api.StepAttachment
	rows := []struct {
		name   string
		id     int64
		path   string // the route, as the audit names it
		action string // the hub's event
		do     func() error
		then   func() error // what a desktop reads afterwards; nil = nothing more
	}{
		{"reject", rejected, "/api/workOrder/reject", "RejectedByContractor",
			func() error {
				return ana.Reject(ctx, &api.RejectRequest{WorkOrderId: rejected, Comment: "no capacity this week"})
			},
			func() error { return wantStatus(ctx, ana, rejected, api.StatusRejected) }},
		{"quote", quoted.WorkOrderId, "/api/workOrder/quoteSubmit", "QuoteSubmitted",
			func() error {
				return ana.SubmitQuote(ctx, &api.QuoteRequest{WorkOrderId: quoted.WorkOrderId, Amount: quoteOf(quoted), Comment: "the compressor needs replacing"})
			},
			func() error {
				wo, err := ana.GetWorkOrder(ctx, quoted.WorkOrderId)
				if err == nil && (wo.Nte.Quote == nil || wo.Nte.Quote.QuoteStatus != api.QuoteSubmitted) {
					return fmt.Errorf("the replica's quote after submitting: %+v", wo.Nte.Quote)
				}
				return err
			}},
		{"check out", checkedOut.WorkOrderId, "/api/workOrder/checkOut", "CheckedOutByContractor",
			func() error {
				done, err := completion(ctx, ana, checkedOut)
				if err != nil {
					return err
				}
				return ana.CheckOut(ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: checkedOut.WorkOrderId},
					RepairInfo: done.RepairInfo, CustomFields: done.CustomFields})
			},
			func() error {
				wo, err := ana.GetWorkOrder(ctx, checkedOut.WorkOrderId)
				if err == nil && wo.Status == checkedOut.Status {
					return fmt.Errorf("the replica still says %s after the check-out", wo.Status)
				}
				return err
			}},
		{"save the invoice", invoiced.WorkOrderId, "/api/invoice", "InvoiceSaved",
			func() error {
				_, err := ana.SaveInvoice(ctx, &api.SaveInvoiceRequest{WorkOrderId: invoiced.WorkOrderId, Invoice: api.Invoice{
					WorkOrderId: invoiced.WorkOrderId, InvoiceNumber: "HUB-7", InvoiceDate: &today,
					LineItems: []api.LineItem{{Description: "Travel", Type: api.LineTravel, Quantity: decimal.NewFromInt(1),
						Rate: api.Money{Amount: decimal.NewFromInt(30), Currency: invoiced.Currency}}}}})
				return err
			},
			func() error {
				got, err := ana.GetInvoice(ctx, invoiced.WorkOrderId)
				if err == nil && got.InvoiceNumber != "HUB-7" {
					return fmt.Errorf("the invoice read after saving it: number %q (was %q)", got.InvoiceNumber, inv.InvoiceNumber)
				}
				return err
			}},
		{"submit the invoice", invoiced.WorkOrderId, "/api/invoice/submit", "InvoiceSubmitted",
			func() error {
				_, err := ana.SubmitInvoice(ctx, &api.SubmitInvoiceRequest{WorkOrderId: invoiced.WorkOrderId})
				return err
			},
			func() error {
				got, err := ana.GetInvoice(ctx, invoiced.WorkOrderId)
				if err == nil && got.Status.Editable() {
					return fmt.Errorf("the invoice read after submitting it is %s", got.Status)
				}
				return err
			}},
		{"add a step attachment", step.WorkOrderId, "/api/procedure/step/attachments", "StepAttachmentAdded",
			func() (err error) {
				added, err = ana.UploadStepAttachment(ctx, step, api.Upload{Name: "gauge.jpg", MimeType: "image/jpeg",
					Content: bytes.NewReader([]byte("a photo of the gauge"))})
				return err
			},
			func() error { return wantStepAttachment(ctx, ana, step, added.AttachmentId, true) }},
		{"remove a step attachment", step.WorkOrderId, "/api/procedure/step/attachments", "StepAttachmentDeleted",
			func() error { return ana.DeleteStepAttachment(ctx, step, added.AttachmentId) },
			func() error { return wantStepAttachment(ctx, ana, step, added.AttachmentId, false) }},
	}
	for _, row := range rows {
		before := o.writes.Load()
		if err := row.do(); err != nil {
			t.Fatalf("%s through the hub: %v", row.name, err)
		}
		if n := o.writes.Load() - before; n != 1 {
			t.Fatalf("%s: %d writes reached the service, want 1", row.name, n)
		}
		he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool {
			return he.Header.WorkOrderId == row.id && he.Header.Action == row.action
		})
		if he.PerformedBy.Name != "Ana Ruiz" || he.Header.MessageId == "" {
			t.Fatalf("%s: event %+v", row.name, he)
		}
		audit := readAudit(t, a, creds, row.id)
		last := audit[len(audit)-1]
		_, path, _ := strings.Cut(last.Operation, " ")
		if last.Person != "Ana Ruiz" || last.Status != 200 || serve.Route(path) != serve.Route(row.path) || last.MessageId != he.Header.MessageId {
			t.Fatalf("%s: last audit row %+v, want %s by Ana Ruiz with the event's MessageId", row.name, last, row.path)
		}
		if row.then != nil {
			if err := row.then(); err != nil {
				t.Fatalf("%s, read back through the hub: %v", row.name, err)
			}
		}
	}
}

func wantStatus(ctx context.Context, c *api.Client, id int64, st api.WorkOrderStatus) error {
	wo, err := c.GetWorkOrder(ctx, id)
	if err == nil && wo.Status != st {
		return fmt.Errorf("work order %d is %s in the replica, want %s", id, wo.Status, st)
	}
	return err
}

func wantStepAttachment(ctx context.Context, c *api.Client, step api.StepRef, id string, there bool) error {
	list, err := c.ListStepAttachments(ctx, step)
	if err != nil {
		return err
	}
	found := false
	for _, a := range list {
		found = found || a.AttachmentId == id
	}
	if found != there {
		return fmt.Errorf("the step's attachments read through the hub: %d, attachment %s there: %v", len(list), id, found)
	}
	return nil
}

// completion is every detail the work order's customer asks for at
// check-out, from its settings read through the hub.
func completion(ctx context.Context, c *api.Client, wo *api.WorkOrder) (api.Completion, error) {
	cs, err := c.GetCustomerSettings(ctx, wo.Customer.Id)
	if err != nil {
		return api.Completion{}, err
	}
	var done api.Completion
	if len(cs.RepairCodes) > 0 {
		done.RepairInfo = &cs.RepairCodes[0]
	}
	for _, f := range cs.CustomFields {
		if !f.Asked() {
			continue
		}
		v := "yes"
		if len(f.Values) > 0 {
			v = f.Values[0]
		}
		done.CustomFields = append(done.CustomFields, api.CustomField{Id: f.Id, Value: v})
	}
	return done, nil
}
