package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// An accept through instance A by Ana reaches Bo's stream on instance B
// naming Ana; the replica and the audit show it on B too.
func TestAcceptThroughOneInstanceReachesAStreamOnAnother(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	bo, boCreds := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := b.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	events := openStream(t, b, boCreds, "")
	req := &api.AcceptRequest{WorkOrderId: id, Comment: "on our way"}
	if err := ana.Accept(ctx, req); err != nil {
		t.Fatal(err)
	}
	he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
	if he.Header.Action != "AcceptedByContractor" || he.PerformedBy.Name != "Ana Ruiz" || he.Header.MessageId != req.MessageId {
		t.Fatalf("event on B: %+v, want Accepted by Ana Ruiz with MessageId %s", he, req.MessageId)
	}
	wo, err := bo.GetWorkOrder(ctx, id)
	if err != nil || wo.Status != api.StatusAccepted {
		t.Fatalf("work order read through B after the accept: %+v, %v", wo, err)
	}
	audit := readAudit(t, b, boCreds, id)
	if len(audit) != 1 || audit[0].Person != "Ana Ruiz" || audit[0].Status != http.StatusOK ||
		audit[0].MessageId != req.MessageId || !strings.Contains(audit[0].Operation, "accept") {
		t.Fatalf("audit = %+v", audit)
	}
}

func readAudit(t *testing.T, in *instance, c Credentials, id int64) []auditEntry {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, in.srv.URL+"/api/hub/audit?workOrderId="+strconv.FormatInt(id, 10), nil)
	req.Header.Set("Authorization", "Bearer "+token(t, in, c))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Audit []auditEntry }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("audit: HTTP %d, %v", resp.StatusCode, err)
	}
	return out.Audit
}

// Two people accept one New work order at once through two instances:
// exactly one succeeds, the other gets the service's refusal unchanged.
func TestTwoPeopleAcceptOneWorkOrderAtOnce(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	bo, boCreds := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	before := o.writes.Load()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, c := range []*api.Client{ana, bo} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Accept(context.Background(), &api.AcceptRequest{WorkOrderId: id})
		}()
	}
	wg.Wait()
	ok, refused := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case api.IsWrongStatus(err):
			refused++
		default:
			t.Fatalf("unexpected answer: %v", err)
		}
	}
	if ok != 1 || refused != 1 {
		t.Fatalf("%d accepted, %d refused: %v", ok, refused, errs)
	}
	if n := o.writes.Load() - before; n != 2 {
		t.Fatalf("the two accepts reached the service %d times, want once each", n)
	}
	audit := readAudit(t, b, boCreds, id)
	if len(audit) != 2 || audit[0].Status != http.StatusOK || audit[1].Status != http.StatusBadRequest {
		t.Fatalf("audit = %+v", audit)
	}
	var refusal api.Error
	if err := json.Unmarshal(audit[1].Answer, &refusal); err != nil || refusal.Code != api.CodeWrongStatus {
		t.Fatalf("the audit keeps the service's answer: %s", audit[1].Answer)
	}
}

// A notification the service posts to instance A reaches a stream on
// instance B, and the work order it names is in the shared replica.
func TestNotificationToOneInstanceReachesAStreamOnAnother(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	bo, boCreds := o.person(b, "Bo Chen")
	events := openStream(t, b, boCreds, "")
	o.sb.SetNotifyURL(a.srv.URL + "/notify")
	id := newWorkOrder(t, o)
	he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
	if he.Header.Action != api.ActionNewWorkOrder || he.PerformedBy.Name != "" {
		t.Fatalf("event = %+v, want the service's NewWorkOrder", he)
	}
	waitFor(t, 10e9, "the dispatched work order in the replica", func() bool {
		wos, err := bo.GetWorkOrders(context.Background(), []int64{id})
		return err == nil && len(wos) == 1 && wos[0].Status == api.StatusNew
	})
}

// A stream opened with Last-Event-ID gets what happened since, then goes on live.
func TestStreamResumesFromLastEventID(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	first := openStream(t, a, creds, "")
	ctx := context.Background()
	ids := []int64{newWorkOrder(t, o), newWorkOrder(t, o), newWorkOrder(t, o)}
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: ids[0]}); err != nil {
		t.Fatal(err)
	}
	_, seen := waitEvent(t, first, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == ids[0] })
	// Offline now: two more happen.
	for _, id := range ids[1:] {
		if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
			t.Fatal(err)
		}
	}
	resumed := openStream(t, a, creds, strconv.FormatInt(seen.Id, 10))
	prev := seen.Id
	for _, id := range ids[1:] {
		he, ev := waitEvent(t, resumed, func(HubEvent, sseEvent) bool { return true })
		if he.Header.WorkOrderId != id || ev.Id <= prev {
			t.Fatalf("resumed event %+v (id %d after %d), want work order %d", he, ev.Id, prev, id)
		}
		prev = ev.Id
	}
}

// The service cannot be reached: the desktop gets 503, which its outbox
// retries; a malformed write is refused with the service's error body and
// never forwarded.
func TestWritesWhenTheServiceIsDownOrTheRequestMalformed(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	before := o.writes.Load()
	tok := token(t, a, creds)
	for _, body := range []string{`{"WorkOrderId":`, `{"Comment":"no work order"}`, ``} {
		req, _ := http.NewRequest(http.MethodPut, a.srv.URL+"/api/workOrder/accept", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.Code != api.CodeInvalidModel {
			t.Errorf("body %q: HTTP %d %+v, want 400 code 2100", body, resp.StatusCode, e)
		}
	}
	if n := o.writes.Load() - before; n != 0 {
		t.Fatalf("%d malformed writes reached the service", n)
	}
	o.svc.Close()
	err := ana.Accept(context.Background(), &api.AcceptRequest{WorkOrderId: id})
	var e *api.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusServiceUnavailable || !api.IsTemporary(err) {
		t.Fatalf("accept with the service down: %v, want a temporary 503", err)
	}
	audit := readAudit(t, a, creds, id)
	if len(audit) != 1 || audit[0].Status != http.StatusServiceUnavailable || audit[0].Person != "Ana Ruiz" {
		t.Fatalf("audit of the attempt: %+v", audit)
	}
}

// An attachment goes through the hub to the service and can be listed and
// fetched through it.
func TestUploadThroughTheHub(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, _ := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	content := bytes.Repeat([]byte("roof photo "), 100000) // ~1 MB
	att, err := ana.UploadAttachment(ctx, id, api.Upload{Name: "roof.jpg", MimeType: "image/jpeg", Content: bytes.NewReader(content)})
	if err != nil {
		t.Fatal(err)
	}
	list, err := ana.ListAttachments(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range list {
		found = found || l.AttachmentId == att.AttachmentId && l.Size == int64(len(content))
	}
	if !found {
		t.Fatalf("attachments after the upload: %+v", list)
	}
	link, err := ana.AttachmentDownloadURL(ctx, id, att.AttachmentId)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := ana.Download(ctx, link, &got, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), content) {
		t.Fatalf("downloaded %d bytes, uploaded %d", got.Len(), len(content))
	}
}

func readSessions(t *testing.T, in *instance, c Credentials) []string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, in.srv.URL+"/api/hub/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+token(t, in, c))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Sessions []session }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("sessions: HTTP %d, %v", resp.StatusCode, err)
	}
	var names []string
	for _, s := range out.Sessions {
		names = append(names, s.Name)
	}
	return names
}

// Sessions lists the people holding a stream on any instance; disabling a
// person ends their open stream at once, wherever it is.
func TestSecuritySessionsAndADisabledPersonsStream(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, anaCreds := o.person(a, "Ana Ruiz")
	_, boCreds := o.person(b, "Bo Chen")
	anaStream := openStream(t, a, anaCreds, "")
	openStream(t, b, boCreds, "")
	if got := strings.Join(readSessions(t, b, boCreds), ","); got != "Ana Ruiz,Bo Chen" {
		t.Fatalf("sessions = %q", got)
	}
	if _, err := o.db.DisablePerson(context.Background(), anaCreds.ClientId); err != nil {
		t.Fatal(err)
	}
	select {
	case _, open := <-anaStream:
		if open {
			t.Fatal("an event reached a disabled person's stream")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the disabled person's stream stayed open")
	}
	waitFor(t, 10*time.Second, "Ana leaving the sessions", func() bool {
		return strings.Join(readSessions(t, b, boCreds), ",") == "Bo Chen"
	})
}

// A day's work on one work order through the hub: each write reaches the
// service, the replica follows, and each becomes an event naming the person
// and an audit row, in order.
func TestEachWriteBecomesAnEventAndAnAuditRow(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	id := newWorkOrder(t, o)
	events := openStream(t, a, creds, "")
	ctx := context.Background()
	steps := []struct {
		action string
		do     func() error
	}{
		{"AcceptedByContractor", func() error { return ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}) }},
		{"AppointmentSet", func() error {
			return ana.UpdateAppointment(ctx, &api.AppointmentRequest{WorkOrderId: id, ScheduledStart: time.Now().Add(24 * time.Hour)})
		}},
		{"CheckedInByContractor", func() error { return ana.CheckIn(ctx, &api.VisitRequest{WorkOrderId: id}) }},
		{"MessageSentByContractor", func() error { return ana.SendMessage(ctx, &api.MessageRequest{WorkOrderId: id, Text: "on site"}) }},
		{"PausedByContractor", func() error { return ana.Pause(ctx, &api.VisitRequest{WorkOrderId: id, Comment: "parts"}) }},
	}
	for _, s := range steps {
		before := o.writes.Load()
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.action, err)
		}
		if n := o.writes.Load() - before; n != 1 {
			t.Fatalf("%s reached the service %d times, want once", s.action, n)
		}
		he, _ := waitEvent(t, events, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
		if he.Header.Action != s.action || he.PerformedBy.Name != "Ana Ruiz" {
			t.Fatalf("event %+v, want %s by Ana Ruiz", he, s.action)
		}
	}
	wo, err := ana.GetWorkOrder(ctx, id)
	if err != nil || wo.Status != api.StatusPaused {
		t.Fatalf("the replica after the day's work: %+v, %v", wo, err)
	}
	audit := readAudit(t, a, creds, id)
	if len(audit) != len(steps) {
		t.Fatalf("%d audit rows for %d writes", len(audit), len(steps))
	}
	for i, row := range audit {
		if row.Person != "Ana Ruiz" || row.Status != http.StatusOK || row.MessageId == "" {
			t.Fatalf("audit row %d (%s): %+v", i, steps[i].action, row)
		}
	}
}

// A bulk accept becomes an event for each work order it accepted (none for
// the one the service refused) and an audit row on each work order named.
func TestBulkAcceptThroughTheHub(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	taken, fresh1, fresh2 := newWorkOrder(t, o), newWorkOrder(t, o), newWorkOrder(t, o)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: taken}); err != nil {
		t.Fatal(err)
	}
	events := openStream(t, a, creds, "")
	before := o.writes.Load()
	results, err := ana.BulkAccept(ctx, &api.BulkRequest{WorkOrderIds: []int64{fresh1, taken, fresh2}})
	if err != nil {
		t.Fatal(err)
	}
	if n := o.writes.Load() - before; n != 1 {
		t.Fatalf("the bulk accept reached the service %d times, want once", n)
	}
	okIds := map[int64]bool{}
	for _, r := range results {
		if r.Succeeded() {
			okIds[r.WorkOrderId] = true
		}
	}
	if !okIds[fresh1] || !okIds[fresh2] || okIds[taken] {
		t.Fatalf("bulk results %+v", results)
	}
	for range 2 {
		he, _ := waitEvent(t, events, func(HubEvent, sseEvent) bool { return true })
		if !okIds[he.Header.WorkOrderId] || he.Header.Action != "AcceptedByContractor" || he.PerformedBy.Name != "Ana Ruiz" {
			t.Fatalf("event %+v", he)
		}
		delete(okIds, he.Header.WorkOrderId)
	}
	for _, id := range []int64{fresh1, taken, fresh2} {
		if n := len(readAudit(t, a, creds, id)); id != taken && n != 1 || id == taken && n != 2 {
			t.Fatalf("work order %d has %d audit rows", id, n)
		}
	}
	for _, id := range []int64{fresh1, fresh2} {
		if wo, err := ana.GetWorkOrder(ctx, id); err != nil || wo.Status != api.StatusAccepted {
			t.Fatalf("work order %d in the replica: %+v, %v", id, wo, err)
		}
	}
}

// A bulk write names at most 100 work orders, each by a positive id: one
// that names more, or a bad id, is refused with the service's error body
// before anything is locked or forwarded (each work order named takes a
// lock in PostgreSQL, and a body of 400,000 ids ran it out of memory).
func TestSecurityABulkWriteOverTheLimitIsRefusedBeforeAnythingIsLocked(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ana Ruiz")
	tok := token(t, a, creds)
	many := make([]int64, 101)
	for i := range many {
		many[i] = int64(i + 1)
	}
	before := o.writes.Load()
	for _, ids := range [][]int64{many, {3, 0}, {4, -5}} {
		body, _ := json.Marshal(api.BulkRequest{WorkOrderIds: ids})
		req, _ := http.NewRequest(http.MethodPut, a.srv.URL+"/api/bulk/accept", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || e.Code != api.CodeInvalidModel || len(e.ValidationErrors) == 0 ||
			e.ValidationErrors[0].Property != "WorkOrderIds" {
			t.Errorf("a bulk accept of %d ids (%d...): HTTP %d %+v, want 400 code 2100 about WorkOrderIds", len(ids), ids[0], resp.StatusCode, e)
		}
	}
	if n := o.writes.Load() - before; n != 0 {
		t.Fatalf("%d refused bulk writes reached the service", n)
	}
}

// A bulk write the service answers per item, one item or many, is judged
// per item: a refused item (an accept of a work order already accepted)
// makes no event, its audit row says refused, and the write, a definite
// answer, is never sent again: the desktop's retry with its MessageId is
// answered from the record.
func TestHubABulkWriteIsJudgedPerItem(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	taken, fresh := newWorkOrder(t, o), newWorkOrder(t, o)
	if err := ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: taken}); err != nil {
		t.Fatal(err)
	}
	events := openStream(t, a, creds, "")
	for _, ids := range [][]int64{{taken}, {taken, fresh}} {
		before := o.writes.Load()
		req := &api.BulkRequest{WorkOrderIds: ids}
		for try := range 3 {
			results, err := ana.BulkAccept(ctx, req)
			if err != nil {
				t.Fatalf("bulk accept of %v, try %d: %v; want the per-item answer", ids, try+1, err)
			}
			for _, r := range results {
				if r.WorkOrderId == taken && r.Succeeded() || r.WorkOrderId == fresh && !r.Succeeded() {
					t.Fatalf("bulk accept of %v: results %+v", ids, results)
				}
			}
		}
		if n := o.writes.Load() - before; n != 1 {
			t.Fatalf("the bulk accept of %v reached the service %d times over three tries, want once", ids, n)
		}
	}
	he, _ := waitEvent(t, events, func(HubEvent, sseEvent) bool { return true })
	if he.Header.WorkOrderId != fresh || he.Header.Action != "AcceptedByContractor" {
		t.Fatalf("the first event after the bulk accepts is %+v; want only the fresh work order's acceptance (the refused item makes none)", he.Header)
	}
	audit := readAudit(t, a, creds, taken)
	refused := 0
	for _, e := range audit {
		if strings.Contains(e.Operation, "bulk") && e.Status != http.StatusOK {
			refused++
		}
	}
	if refused != 2 {
		t.Fatalf("the taken work order's audit %+v; want two rows of the bulk accepts saying refused", audit)
	}
}
