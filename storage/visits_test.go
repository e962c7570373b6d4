package storage

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// fullCompletion answers everything wo's customer asks at check-out, as a
// person would with the form: its first repair code, the first allowed
// value of each choice and a name for free-text questions.
func fullCompletion(t testing.TB, s *Store, wo *api.WorkOrder) api.Completion {
	t.Helper()
	cs, err := s.CustomerSettings(context.Background(), wo.Customer.Id)
	if err != nil {
		t.Fatalf("settings of %s: %v", wo.Customer.Name, err)
	}
	var c api.Completion
	if len(cs.RepairCodes) > 0 {
		code := cs.RepairCodes[0]
		c.RepairInfo = &code
	}
	for _, d := range cs.CustomFields {
		v := "Elena Vasquez"
		if len(d.Values) > 0 {
			v = d.Values[0]
		}
		c.CustomFields = append(c.CustomFields, api.CustomField{Id: d.Id, Value: v})
	}
	return c
}

// sentVisit is the body of the last visit call to path the service saw.
func sentVisit(t *testing.T, svc *service, path string) (api.CheckOutRequest, string) {
	t.Helper()
	calls := svc.wire.calls(http.MethodPut, path)
	if len(calls) == 0 {
		t.Fatalf("no %s was sent", path)
	}
	var body api.CheckOutRequest
	if err := json.Unmarshal(calls[len(calls)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	return body, string(calls[len(calls)-1].Body)
}

// TestSyncKeepsCustomerSettings: a sync reads the settings of every
// customer it sees into the replica.
func TestSyncKeepsCustomerSettings(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	for _, c := range sandbox.Generate(7, 60, svc.sb.Clock().Now()).Customers() {
		cs, err := s.CustomerSettings(ctx, c.Customer.Id)
		if err != nil {
			t.Fatalf("%s: %v", c.Customer.Name, err)
		}
		if cs.AllowBackdating != api.FlagOf(c.AllowBackdating) || cs.RepairInfoRequired != api.FlagOf(c.RepairInfoRequired) || len(cs.CustomFields) != len(c.CustomFields) {
			t.Errorf("%s: stored %+v; the service has %+v", c.Customer.Name, cs, c)
		}
	}
	if _, err := s.CustomerSettings(ctx, 999); err == nil {
		t.Error("settings of an unknown customer")
	}
}

// TestQuietCustomersSettingsAreReadAgain: a customer whose work orders do
// not change still has its settings read again once they are older than
// SettingsMaxAge, so a rule it tightened reaches the replica.
func TestQuietCustomersSettingsAreReadAgain(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	customers := sandbox.Generate(7, 80, svc.sb.Clock().Now()).Customers()
	stale := func() (n int) {
		for _, c := range customers {
			cs, err := s.CustomerSettings(ctx, c.Customer.Id)
			if err != nil {
				t.Fatal(err)
			}
			if cs.AllowBackdating != api.FlagOf(c.AllowBackdating) {
				n++
			}
		}
		return n
	}
	// The replica's copy says the opposite of the service for everyone,
	// as if each customer had changed its rule since the last read.
	for _, c := range customers {
		cs, _ := s.CustomerSettings(ctx, c.Customer.Id)
		cs.AllowBackdating = api.FlagOf(!c.AllowBackdating)
		if err := s.PutCustomerSettings(ctx, cs); err != nil {
			t.Fatal(err)
		}
	}
	svc.sb.AdvanceClock(10 * time.Minute)
	if err := NewSyncer(s, svc.client, SyncOptions{}).SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if stale() == 0 {
		t.Fatal("every customer had a changed work order: the test cannot tell a quiet one")
	}
	svc.sb.AdvanceClock(SettingsMaxAge)
	if err := NewSyncer(s, svc.client, SyncOptions{}).SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if n := stale(); n > 0 {
		t.Errorf("%d customers still have settings older than %v after a sync", n, SettingsMaxAge)
	}
}

// TestRealTimeCheckInOmitsActualActionDate: a check-in sent as it happens
// carries no ActualActionDate on the wire, at a customer that allows
// back-dating and at one that does not.
func TestRealTimeCheckInOmitsActualActionDate(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	for _, customer := range []string{"Northwind Retail", "Harbor Point Hotels"} {
		wo := pick(t, s, func(wo *api.WorkOrder) bool {
			return wo.Status == api.StatusAccepted && wo.Customer.Name == customer
		})
		before := svc.sb.Clock().Now()
		row := mustRow(t)(s.CheckIn(ctx, wo.WorkOrderId, nil, ""))
		after := svc.sb.Clock().Now()
		svc.sb.AdvanceClock(30 * time.Second) // sent at once: well within LateDelivery
		sendAll(t, x)
		if r := rowState(t, s, row.Id); r.State != OutboxDone {
			t.Fatalf("%s: row = %s %q", customer, r.State, r.Error)
		}
		if _, raw := sentVisit(t, svc, "/api/workorder/checkin"); strings.Contains(raw, "ActualActionDate") {
			t.Errorf("%s: a real-time check-in went out with ActualActionDate: %s", customer, raw)
		}
		if at := rowState(t, s, row.Id).ActionDate; at.Before(before) || at.After(after) {
			t.Errorf("%s: the row shows %v; want the tap, between %v and %v", customer, at, before, after)
		}
	}
}

// TestOfflineCheckInAtStrictCustomerOmitsActualActionDate: queued offline
// and delivered two hours later at a customer that forbids back-dating, the
// check-in goes out without the date (the service records its arrival)
// rather than being refused.
func TestOfflineCheckInAtStrictCustomerOmitsActualActionDate(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && wo.Customer.Name == "Harbor Point Hotels"
	})
	svc.wire.setFault(func(*http.Request, []byte) faultKind { return dropBefore })
	row := mustRow(t)(s.CheckIn(ctx, wo.WorkOrderId, nil, ""))
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	sendAll(t, x)
	svc.sb.AdvanceClock(2 * time.Hour)
	svc.wire.setFault(nil)
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("row = %s %q", r.State, r.Error)
	}
	if _, raw := sentVisit(t, svc, "/api/workorder/checkin"); strings.Contains(raw, "ActualActionDate") {
		t.Errorf("a late check-in at a customer forbidding back-dating carries ActualActionDate: %s", raw)
	}
	if got := svc.remote(t, wo.WorkOrderId).Status; got != api.StatusCheckedIn {
		t.Errorf("service says %s", got)
	}
}

// TestBackDateRefusedWhereTheCustomerForbidsIt: the refusal comes before
// anything is queued, naming the customer; the same back-date is queued
// and sent where it is allowed.
func TestBackDateRefusedWhereTheCustomerForbidsIt(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	earlier := svc.sb.Clock().Now().Add(-time.Hour)
	strict := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && wo.Customer.Name == "Harbor Point Hotels" && wo.Created.Before(earlier)
	})
	_, err := s.CheckIn(ctx, strict.WorkOrderId, &earlier, "")
	if err == nil || !strings.Contains(err.Error(), "Harbor Point Hotels does not allow back-dating") {
		t.Fatalf("back-dated check-in at a strict customer: %v", err)
	}
	if rows, _ := s.OutboxRows(ctx, strict.WorkOrderId); len(rows) != 0 {
		t.Fatalf("the refusal queued %d rows", len(rows))
	}
	ok := pick(t, s, func(wo *api.WorkOrder) bool {
		return wo.Status == api.StatusAccepted && wo.Customer.Name == "Northwind Retail" && wo.Created.Before(earlier)
	})
	row := mustRow(t)(s.CheckIn(ctx, ok.WorkOrderId, &earlier, ""))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("row = %s %q", r.State, r.Error)
	}
	if body, _ := sentVisit(t, svc, "/api/workorder/checkin"); body.ActualActionDate == nil || !body.ActualActionDate.Equal(earlier) {
		t.Errorf("the back-dated check-in carried %v; want %v", body.ActualActionDate, earlier)
	}
}

// TestCheckOutEnforcesCustomerRequirements: storage refuses a Request
// check-out without what the customer requires, naming it, and sends the
// completed one with RepairInfo and CustomFields; a PMRM check-out without
// them waits in NeedsCompletionDetails until CompleteWorkDetails.
func TestCheckOutEnforcesCustomerRequirements(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	req := pick(t, s, func(wo *api.WorkOrder) bool {
		return status(api.StatusCheckedIn)(wo) && wo.Customer.Name == "Harbor Point Hotels" && wo.Type == api.WorkOrderTypeRequest
	})
	_, err := s.CheckOut(ctx, req.WorkOrderId, nil, "")
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "a repair code") || !strings.Contains(err.Error(), `"Guest room out of order"`) {
		t.Fatalf("bare check-out of a Request order at Harbor Point: %v", err)
	}
	if rows, _ := s.OutboxRows(ctx, req.WorkOrderId); len(rows) != 0 {
		t.Fatalf("the refusal queued %d rows", len(rows))
	}
	done := fullCompletion(t, s, req)
	row := mustRow(t)(s.CheckOutWith(ctx, req.WorkOrderId, nil, "", done))
	sendAll(t, x)
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("row = %s %q", r.State, r.Error)
	}
	body, _ := sentVisit(t, svc, "/api/workorder/checkout")
	if body.RepairInfo == nil || body.RepairInfo.CodeId != done.RepairInfo.CodeId || len(body.CustomFields) != len(done.CustomFields) {
		t.Errorf("check-out sent %+v; want the completion %+v", body, done)
	}

	// PMRM: checked out without details, then completed.
	pm := pick(t, s, func(wo *api.WorkOrder) bool {
		return status(api.StatusCheckedIn)(wo) && wo.Customer.Name == "Harbor Point Hotels" && wo.Type == api.WorkOrderTypePMRM
	})
	mustRow(t)(s.CheckOut(ctx, pm.WorkOrderId, nil, ""))
	// Offline, the replica already expects the details to be asked for.
	details := mustRow(t)(s.CompleteWorkDetails(ctx, pm.WorkOrderId, "filters changed", fullCompletion(t, s, pm)))
	if _, err := s.CompleteWorkDetails(ctx, req.WorkOrderId, "", done); !errors.Is(err, ErrInvalid) {
		t.Fatalf("details for a checked-out work order: %v", err)
	}
	sendAll(t, x)
	if r := rowState(t, s, details.Id); r.State != OutboxDone {
		t.Fatalf("details row = %s %q", r.State, r.Error)
	}
	if got := svc.remote(t, pm.WorkOrderId).Status; got != api.StatusCheckedOut {
		t.Errorf("after the details the service says %s", got)
	}
}

// TestUnknownInvoiceStatusLeavesTheServiceToJudge: an invoice in a status
// the client does not know is not locked locally; the change is queued,
// and when the service refuses it (3036) the person reads what that means.
func TestUnknownInvoiceStatusLeavesTheServiceToJudge(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	ctx := context.Background()
	y := NewSyncer(s, svc.client, SyncOptions{})
	var wo *api.WorkOrder
	var inv *api.Invoice
	pick(t, s, func(w *api.WorkOrder) bool {
		if !w.Status.Completed() || !w.InvoiceVisible() {
			return false
		}
		remote, err := svc.client.GetInvoice(ctx, w.WorkOrderId)
		if err != nil || remote.Status != api.InvoiceSubmitted {
			return false
		}
		wo, inv = w, remote
		return true
	})
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	// The replica holds the invoice in a status this version has no name for.
	inv.Status = "Returned"
	if err := putInvoice(ctx, s.w, wo.WorkOrderId, inv, s.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	inv.InvoiceNumber = "INV-RETURNED-1"
	row, err := s.SaveInvoice(ctx, wo.WorkOrderId, *inv)
	if err != nil {
		t.Fatalf("an invoice in an unknown status was locked locally: %v", err)
	}
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	got := rowState(t, s, row.Id)
	if got.State != OutboxFailed || got.ErrorCode != api.CodeInvoiceNotEditable {
		t.Fatalf("row = %s (code %d) %q; want the service's 3036", got.State, got.ErrorCode, got.Error)
	}
	if !strings.Contains(got.Error, "will not take changes to this invoice in its current status") {
		t.Errorf("the refusal is not explained: %q", got.Error)
	}
}
