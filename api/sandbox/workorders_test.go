package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func TestSearchFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all, err := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 72 {
		t.Fatalf("search without filters: %d work orders, want 72", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].LastUpdate.Before(all[i-1].LastUpdate) {
			t.Fatal("search results are not in LastUpdate order")
		}
	}
	basic := all[0]
	if basic.WorkOrderNumber == "" || basic.Currency == "" || basic.Customer.Name == "" || basic.LastUpdate.IsZero() || basic.WorkDetails != nil {
		t.Fatalf("basic data: %+v", basic)
	}
	// LastUpdate range: exactly the orders inside it, ends inclusive.
	from, to := all[10].LastUpdate, all[20].LastUpdate
	got, err := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{LastUpdate: &api.DateRange{From: &from, To: &to}})
	if err != nil || len(got) != 11 {
		t.Fatalf("LastUpdate range: %d results, %v", len(got), err)
	}
	got, _ = e.client.SearchWorkOrders(e.ctx, api.SearchParameters{Statuses: []api.WorkOrderStatus{api.StatusNew}})
	for _, w := range got {
		if w.Status != api.StatusNew {
			t.Fatalf("status filter returned %s", w.Status)
		}
	}
	if len(got) == 0 {
		t.Fatal("no New work orders")
	}
	got, _ = e.client.SearchWorkOrders(e.ctx, api.SearchParameters{WorkOrderNumber: strings.ToLower(basic.WorkOrderNumber)})
	if len(got) != 1 || got[0].WorkOrderId != basic.WorkOrderId {
		t.Fatalf("number filter: %+v", got)
	}
	got, _ = e.client.SearchWorkOrders(e.ctx, api.SearchParameters{CustomerId: 4104})
	for _, w := range got {
		if w.Customer.Id != 4104 || w.Currency != "JPY" {
			t.Fatalf("customer filter returned %+v", w.Customer)
		}
	}
	old := api.Version41Date
	got, _ = e.client.SearchWorkOrders(e.ctx, api.SearchParameters{Created: &api.DateRange{To: &old}})
	if len(got) != 3 {
		t.Fatalf("created before 4.1: %d, want 3", len(got))
	}
	if _, err := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{Statuses: []api.WorkOrderStatus{"Done"}}); !api.HasCode(err, 2100) {
		t.Fatalf("unknown status: %v", err)
	}
}

func TestGetWorkOrdersBatchLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all, _ := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{})
	q := url.Values{}
	for _, w := range all[:51] {
		q.Add("ids", itoa(w.WorkOrderId))
	}
	status, b := e.raw(http.MethodGet, "/api/workOrder?"+q.Encode(), nil)
	if status != 400 || errBody(t, b).Code != 2100 {
		t.Fatalf("51 ids: %d %s", status, b)
	}
	// ids[N]= form, answered in index order; full records.
	q = url.Values{}
	q.Set("ids[1]", itoa(all[1].WorkOrderId))
	q.Set("ids[0]", itoa(all[0].WorkOrderId))
	status, b = e.raw(http.MethodGet, "/api/workOrder?"+q.Encode(), nil)
	var out struct{ WorkOrders []api.WorkOrder }
	if status != 200 || json.Unmarshal(b, &out) != nil || len(out.WorkOrders) != 2 || out.WorkOrders[0].WorkOrderId != all[0].WorkOrderId {
		t.Fatalf("ids[N]: %d %s", status, b)
	}
	ids := make([]int64, len(all))
	for i, w := range all {
		ids[i] = w.WorkOrderId
	}
	full, err := e.client.GetWorkOrders(e.ctx, ids)
	if err != nil || len(full) != len(all) {
		t.Fatalf("full read: %d, %v", len(full), err)
	}
	if full[0].Sla == nil || full[0].ServiceLocation == nil || full[0].Contact == nil {
		t.Fatalf("full record lacks details: %+v", full[0])
	}
}

func TestAcceptAndReject(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	newID := e.setup("Northwind Retail", api.StatusNew, nil)
	if err := e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: newID}); err != nil {
		t.Fatal(err)
	}
	if got := e.read(newID).Status; got != api.StatusAccepted {
		t.Fatalf("after accept: %s", got)
	}
	wantCode(t, e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: newID}), 3001)
	wantCode(t, e.client.Reject(e.ctx, &api.RejectRequest{WorkOrderId: newID, Comment: "no capacity"}), 3001)

	pre := e.setup("Northwind Retail", api.StatusNew, func(o *order) { o.wo.IsPreBilled = true })
	wantCode(t, e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: pre}), 3002)
	wantCode(t, e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: 42}), 3005)
	recalled := e.setup("Northwind Retail", api.StatusRecalled, nil)
	wantCode(t, e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: recalled}), 3005)

	rej := e.setup("Harbor Point Hotels", api.StatusNew, nil)
	// The reason is required and at most 3000 characters (raw: the client checks first).
	for _, comment := range []string{"", strings.Repeat("x", 3001)} {
		status, b := e.raw(http.MethodPut, "/api/workOrder/reject", map[string]any{"WorkOrderId": rej, "Comment": comment})
		if status != 400 || errBody(t, b).Code != 2100 {
			t.Fatalf("reject with %d-char reason: %d %s", len(comment), status, b)
		}
	}
	if err := e.client.Reject(e.ctx, &api.RejectRequest{WorkOrderId: rej, Comment: "We do not service pool heaters."}); err != nil {
		t.Fatal(err)
	}
	if got := e.read(rej).Status; got != api.StatusRejected {
		t.Fatalf("after reject: %s", got)
	}
	// Terminal: nothing else works.
	wantCode(t, e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: rej}), 3001)
	wantCode(t, e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: rej}), 3001)
	wantCode(t, e.client.SendMessage(e.ctx, &api.MessageRequest{WorkOrderId: rej, Text: "hello"}), 3001)
	d := rcv.wait(t, api.ActionRejected, rej)
	body := d.event.Body.(*api.RejectedEvent)
	if body.Comment != "We do not service pool heaters." || body.Status != api.StatusRejected || d.event.Header.Sender.Type != "CorrigoPro" {
		t.Fatalf("rejected notification: %s", d.body)
	}
}

func TestBulkAcceptAndReject(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.setup("Rheinland Offices", api.StatusNew, nil)
	b := e.setup("Rheinland Offices", api.StatusNew, nil)
	c := e.setup("Rheinland Offices", api.StatusCheckedIn, nil)
	res, err := e.client.BulkAccept(e.ctx, &api.BulkRequest{WorkOrderIds: []int64{a, c, 99}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || !res[0].Succeeded() || res[1].Code != 3001 || res[2].Code != 3005 || res[1].Message == "" {
		t.Fatalf("bulk accept: %+v", res)
	}
	res, err = e.client.BulkReject(e.ctx, &api.BulkRequest{WorkOrderIds: []int64{a, b}, Comment: "Outside our service area"})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Code != 3001 || !res[1].Succeeded() || e.read(b).Status != api.StatusRejected {
		t.Fatalf("bulk reject: %+v", res)
	}
	status, body := e.raw(http.MethodPut, "/api/bulk/reject", map[string]any{"WorkOrderIds": []int64{a}})
	if status != 400 || errBody(t, body).Code != 2100 {
		t.Fatalf("bulk reject without reason: %d %s", status, body)
	}
}

func TestVisits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { o.wo.Created = fixedNow.Add(-48 * time.Hour) }) // allows back-dating
	visit := func(f func(context.Context, *api.VisitRequest) error, at *time.Time) error {
		return f(e.ctx, &api.VisitRequest{WorkOrderId: id, ActualActionDate: at})
	}
	checkOut := func(ctx context.Context, r *api.VisitRequest) error {
		return e.client.CheckOut(ctx, &api.CheckOutRequest{VisitRequest: *r})
	}
	wantCode(t, visit(e.client.Pause, nil), 3001)
	wantCode(t, visit(checkOut, nil), 3001)
	future := fixedNow.Add(time.Hour)
	err := visit(e.client.CheckIn, &future)
	wantCode(t, err, 2100)
	if !contains(err.Error(), "cannot be in the future") {
		t.Fatalf("future date message: %v", err)
	}
	earlier := fixedNow.Add(-3 * time.Hour)
	if err := visit(e.client.CheckIn, &earlier); err != nil {
		t.Fatalf("back-dated check-in where allowed: %v", err)
	}
	if err := visit(e.client.Pause, nil); err != nil {
		t.Fatal(err)
	}
	if err := visit(e.client.CheckIn, nil); err != nil {
		t.Fatalf("check in from Paused: %v", err)
	}
	if err := visit(checkOut, nil); err != nil {
		t.Fatal(err)
	}
	if got := e.read(id).Status; got != api.StatusCheckedOut {
		t.Fatalf("after check-out: %s", got)
	}
	wantCode(t, visit(e.client.CheckIn, nil), 3001)
}

// TestRealTimeCheckInAtStrictCustomer: where the customer forbids
// back-dating, any ActualActionDate is refused, even the very moment of the
// request (a client that always sends one is caught); a real-time check-in
// without it is accepted.
func TestRealTimeCheckInAtStrictCustomer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	strict := e.setup("Harbor Point Hotels", api.StatusAccepted, nil) // no back-dating
	for _, at := range []time.Time{fixedNow.Add(-3 * time.Hour), fixedNow, fixedNow.Add(-30 * time.Second)} {
		err := e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: strict, ActualActionDate: &at})
		wantCode(t, err, 3000)
		if !contains(err.Error(), "does not allow back-dating") || !contains(err.Error(), "without ActualActionDate") {
			t.Fatalf("back-dating message: %v", err)
		}
	}
	if got := e.read(strict).Status; got != api.StatusAccepted {
		t.Fatalf("a refused check-in changed the status to %s", got)
	}
	if err := e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: strict}); err != nil {
		t.Fatalf("real-time check-in: %v", err)
	}
	if got := e.read(strict).Status; got != api.StatusCheckedIn {
		t.Fatalf("after a real-time check-in: %s", got)
	}
}

// TestClockSkewToleratedWhereBackdatingAllowed: a date a few seconds ahead
// of the service's clock is an honest "now" from a fast clock.
func TestClockSkewToleratedWhereBackdatingAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, nil)
	ahead := fixedNow.Add(30 * time.Second)
	if err := e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: id, ActualActionDate: &ahead}); err != nil {
		t.Fatal(err)
	}
}

func TestAppointmentNotifies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	id := e.setup("Rheinland Offices", api.StatusAccepted, nil)
	start := fixedNow.Add(26 * time.Hour)
	if err := e.client.UpdateAppointment(e.ctx, &api.AppointmentRequest{WorkOrderId: id, ScheduledStart: start, Pte: "CallFirst"}); err != nil {
		t.Fatal(err)
	}
	if w := e.read(id); !w.ScheduledStart().Equal(start) {
		t.Fatalf("ScheduledStart %v", w.Schedule)
	}
	d := rcv.wait(t, api.ActionAppointmentInfoChanged, id)
	if a := d.event.Body.(*api.AppointmentInfoChangedEvent).Appointment; !a.ScheduledStart.Equal(start) || a.Pte != "CallFirst" {
		t.Fatalf("appointment notification %s", d.body)
	}
	done := e.setup("Rheinland Offices", api.StatusVerified, nil)
	wantCode(t, e.client.UpdateAppointment(e.ctx, &api.AppointmentRequest{WorkOrderId: done, ScheduledStart: start}), 3001)
}

func TestMutationsBumpLastUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusNew, nil)
	before := e.read(id).LastUpdate
	e.sb.AdvanceClock(time.Minute)
	if err := e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	after := e.read(id).LastUpdate
	if !after.Equal(e.sb.Clock().Now()) || !after.After(before) {
		t.Fatalf("LastUpdate %v → %v, clock %v", before, after, e.sb.Clock().Now())
	}
	// The sync loop's "changed since" search finds exactly it.
	got, _ := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{LastUpdate: &api.DateRange{From: &after}})
	if len(got) != 1 || got[0].WorkOrderId != id {
		t.Fatalf("changed since: %+v", got)
	}
	e.sb.AdvanceClock(time.Minute)
	if err := e.client.SendMessage(e.ctx, &api.MessageRequest{WorkOrderId: id, Text: "On our way"}); err != nil {
		t.Fatal(err)
	}
	if !e.read(id).LastUpdate.After(after) {
		t.Fatal("a message did not bump LastUpdate")
	}
}

func TestIdempotentMessageId(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusNew, nil)
	accept := &api.AcceptRequest{WorkOrderId: id, Envelope: api.Envelope{MessageId: "outbox-1"}}
	if err := e.client.Accept(e.ctx, accept); err != nil {
		t.Fatal(err)
	}
	// The same action again (a retry after a lost answer) is answered, not refused.
	if err := e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: id, Envelope: api.Envelope{MessageId: "outbox-1"}}); err != nil {
		t.Fatalf("retry with the same MessageId: %v", err)
	}
	msg := func(mid string) {
		if err := e.client.SendMessage(e.ctx, &api.MessageRequest{WorkOrderId: id, Text: "Arriving at 10", Envelope: api.Envelope{MessageId: mid}}); err != nil {
			t.Fatal(err)
		}
	}
	msg("outbox-2")
	msg("outbox-2")
	msgs, _ := e.client.ListMessages(e.ctx, id)
	n := 0
	for _, m := range msgs {
		if m.Text == "Arriving at 10" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("message applied %d times", n)
	}
	msg("outbox-3")
	if msgs, _ = e.client.ListMessages(e.ctx, id); len(msgs) == 0 || msgs[len(msgs)-1].Sender == nil {
		t.Fatal("messages lack a sender")
	}
	// MessageId is echoed.
	status, b := e.raw(http.MethodPost, "/api/messages", map[string]any{"WorkOrderId": id, "Text": "x", "MessageId": "echo-me"})
	if status != 200 || !strings.Contains(string(b), `"MessageId":"echo-me"`) {
		t.Fatalf("echo: %d %s", status, b)
	}
}

// TestActualActionDateBeforeCreationRefused: even where back-dating is
// allowed, a visit cannot be dated before the work order existed.
func TestActualActionDateBeforeCreationRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := fixedNow.Add(-6 * time.Hour)
	id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { // allows back-dating
		o.wo.Created = created
	})
	tooEarly := created.Add(-time.Minute)
	err := e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: id, ActualActionDate: &tooEarly})
	wantCode(t, err, 2100)
	if !contains(err.Error(), "before the work order was created") {
		t.Fatalf("refusal does not say why: %v", err)
	}
	if got := e.read(id).Status; got != api.StatusAccepted {
		t.Fatalf("a refused check-in changed the status to %s", got)
	}
	justAfter := created.Add(time.Minute)
	if err := e.client.CheckIn(e.ctx, &api.VisitRequest{WorkOrderId: id, ActualActionDate: &justAfter}); err != nil {
		t.Fatalf("check-in dated a minute after creation: %v", err)
	}
	if got := e.read(id).Status; got != api.StatusCheckedIn {
		t.Fatalf("after check-in: %s", got)
	}
}
