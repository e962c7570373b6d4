package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Check-out from Paused is refused before anything is queued, as the
// sandbox refuses it (service-facts §13 leaves it unknown): check in first.
func TestCheckOutWhilePausedIsRefused(t *testing.T) {
	t.Parallel()
	svc := newService(t, 70)
	s := syncedStore(t, svc)
	ctx := context.Background()
	// A customer that asks nothing at check-out: only the status decides.
	a := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && wo.Customer.Name == "Northwind Retail"
	})
	mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	mustRow(t)(s.Pause(ctx, a.WorkOrderId, nil, "end of day"))
	row, err := s.CheckOut(ctx, a.WorkOrderId, nil, "")
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "paused: check in again, then check out") || row != nil {
		t.Fatalf("check-out while paused: row %v, err %v; want a refusal saying to check in again", row, err)
	}
	mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, "next morning"))
	mustRow(t)(s.CheckOut(ctx, a.WorkOrderId, nil, "done"))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if got := svc.remote(t, a.WorkOrderId).Status; got != api.StatusCheckedOut {
		t.Errorf("after check in, pause, check in, check out the service says %s", got)
	}
}

// Store.SubmitInvoice applies the service's submit checks (service-facts
// §4.6) to the invoice as it will stand when sent, for every caller, not
// only the window: an invoice whose queued save drops its number is refused.
func TestSubmitInvoiceNeedsANumber(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, func(wo *api.WorkOrder) bool {
		if wo.Status != api.StatusCheckedOut || !wo.InvoiceVisible() {
			return false
		}
		if err := NewSyncer(s, svc.client, SyncOptions{}).Refresh(ctx, wo.WorkOrderId); err != nil {
			t.Fatal(err)
		}
		inv, err := s.Invoice(ctx, wo.WorkOrderId)
		return err == nil && inv.Status.Editable() && len(inv.LineItems) > 0
	})
	inv, err := s.Invoice(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	inv.InvoiceNumber = ""
	mustRow(t)(s.SaveInvoice(ctx, wo.WorkOrderId, *inv))
	row, err := s.SubmitInvoice(ctx, wo.WorkOrderId, false)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "enter the invoice number") || row != nil {
		t.Fatalf("submitting an invoice without a number: row %v, err %v; want a refusal", row, err)
	}
	inv.InvoiceNumber = "INV-77"
	mustRow(t)(s.SaveInvoice(ctx, wo.WorkOrderId, *inv))
	mustRow(t)(s.SubmitInvoice(ctx, wo.WorkOrderId, false))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	got, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if got.InvoiceNumber != "INV-77" || got.Status.Editable() {
		t.Errorf("after saving a number and submitting, the service has %q in status %s", got.InvoiceNumber, got.Status)
	}
}

// A row tells the window what it needs (group, resulting status, the
// person's words, the step, whether a file waits) without its request
// being decoded outside storage.
func TestOutboxRowSaysWhatTheWindowNeeds(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	n := pick(t, s, status(api.StatusNew))
	rej := mustRow(t)(s.Reject(ctx, n.WorkOrderId, "no capacity this week"))
	if rej.Group != outbox.GroupWorkOrder || rej.Status != api.StatusRejected || rej.Comment != "no capacity this week" || rej.Visit() || rej.Upload {
		t.Errorf("reject row: group %s status %s comment %q visit %v upload %v", rej.Group, rej.Status, rej.Comment, rej.Visit(), rej.Upload)
	}
	a := pick(t, s, status(api.StatusAccepted))
	in := mustRow(t)(s.CheckIn(ctx, a.WorkOrderId, nil, ""))
	if !in.Visit() || in.Status != api.StatusCheckedIn || in.ActionDate.IsZero() {
		t.Errorf("check-in row: visit %v status %s at %v", in.Visit(), in.Status, in.ActionDate)
	}
	msg := mustRow(t)(s.SendMessage(ctx, a.WorkOrderId, "gate code 4711", ""))
	if msg.Group != outbox.GroupMessage || msg.Comment != "gate code 4711" {
		t.Errorf("message row: group %s comment %q", msg.Group, msg.Comment)
	}
	var ref api.StepRef
	pick(t, s, func(wo *api.WorkOrder) bool {
		for _, p := range wo.Procedures() {
			if wo.Status.Known() && wo.CanChangeProcedure(p) == nil && len(p.Steps) > 0 {
				ref = api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[0].Id}
				return true
			}
		}
		return false
	})
	step := mustRow(t)(s.AddStepAttachment(ctx, ref, tempFile(t, "gauge.jpg", "\xff\xd8")))
	if step.Group != outbox.GroupStep || step.Step == nil || *step.Step != ref || !step.Upload {
		t.Errorf("step row: group %s step %v upload %v", step.Group, step.Step, step.Upload)
	}
}

// A status the service may add later locks nothing: the action is queued
// and the service judges it.
func TestUnknownStatusQueuesAndTheServiceJudges(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	acts := []struct {
		name string
		do   func(id int64) (*OutboxRow, error)
	}{
		{"check in", func(id int64) (*OutboxRow, error) { return s.CheckIn(ctx, id, nil, "") }},
		{"message", func(id int64) (*OutboxRow, error) { return s.SendMessage(ctx, id, "parts arrive Tuesday", "") }},
		{"schedule", func(id int64) (*OutboxRow, error) { return s.SetAppointment(ctx, id, testNow.Add(48*time.Hour), "") }},
		{"reject", func(id int64) (*OutboxRow, error) { return s.Reject(ctx, id, "no capacity") }},
	}
	for i, a := range acts {
		id := int64(41 + i)
		put(t, s, woSpec{id: id, number: fmt.Sprintf("NWR%d", id), status: "AwaitingParts", nte: "500"})
		if _, err := a.do(id); err != nil {
			t.Errorf("%s on a work order in an unknown status: %v", a.name, err)
		}
	}
}
