package storage

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// stripAllowNA answers GET /api/workOrder without AllowMarkNotApplicable,
// as a service whose work order does not carry it (the docs name GET
// /api/procedure as its source).
func stripAllowNA(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.EqualFold(r.URL.Path, "/api/workOrder") {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := bytes.ReplaceAll(rec.Body.Bytes(), []byte(`"AllowMarkNotApplicable":true,`), nil)
		body = bytes.ReplaceAll(body, []byte(`"AllowMarkNotApplicable":false,`), nil)
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}

// A procedure notification, and the Procedures tab as it opens, read GET
// /api/procedure: the replica then holds what it says of each procedure,
// AllowMarkNotApplicable included, though the work order's own record
// leaves it out. Unchanged, nobody is told; a list under another key
// changes nothing.
func TestProceduresAreReadFromTheirOwnCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := newService(t, 160)
	svc.wire.wrapNext(stripAllowNA)
	s := syncedStore(t, svc)
	wo := pick(t, s, func(w *api.WorkOrder) bool { return w.ProceduresEditable() && len(w.Procedures()) > 0 })
	for _, p := range wo.Procedures() {
		if p.AllowMarkNotApplicable != nil {
			t.Fatalf("the record carries AllowMarkNotApplicable for %q", p.Name)
		}
	}
	known := func() int {
		t.Helper()
		got, err := s.WorkOrder(ctx, wo.WorkOrderId)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range got.Procedures() {
			if p.AllowMarkNotApplicable != nil {
				n++
			}
		}
		return n
	}

	y := NewSyncer(s, svc.client, SyncOptions{})
	rr, err := y.Reread(ctx, wo.WorkOrderId, api.Touches(api.ActionProcedureMarked))
	if err != nil || rr.Procedures == nil {
		t.Fatalf("the re-read after ProcedureMarked: %+v, %v; want GET /api/procedure's list", rr, err)
	}
	ev := api.Event{Header: api.EventHeader{WorkOrderId: wo.WorkOrderId, Action: api.ActionProcedureMarked, ActionDate: svc.sb.Now(), MessageId: "m-proc"},
		Body: &api.ProcedureMarkedEvent{ProcedureId: wo.Procedures()[0].Id, IsMarkedNa: true}}
	if _, err := s.ApplyNotification(ctx, ev, rr); err != nil {
		t.Fatal(err)
	}
	if n := known(); n != len(wo.Procedures()) {
		t.Errorf("after the notification %d of %d procedures say whether they may be marked N/A", n, len(wo.Procedures()))
	}

	// The tab: the record read again (without the flags), then the tab opens.
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	if n := known(); n != 0 {
		t.Fatalf("the re-read record left %d flags", n)
	}
	told := make(chan []int64, 4)
	s.Subscribe(func(ids []int64) { told <- ids })
	svc.wire.reset()
	if err := y.RefreshProcedures(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	if n := len(svc.wire.calls(http.MethodGet, "/api/procedure")); n != 1 {
		t.Errorf("the tab read GET /api/procedure %d times; want once", n)
	}
	if n := known(); n != len(wo.Procedures()) {
		t.Errorf("after the tab opened %d of %d procedures say whether they may be marked N/A", n, len(wo.Procedures()))
	}
	select {
	case ids := <-told:
		if len(ids) != 1 || ids[0] != wo.WorkOrderId {
			t.Errorf("told of %v", ids)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the window was not told the procedures changed")
	}
	if err := y.RefreshProcedures(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	select {
	case ids := <-told:
		t.Errorf("told of %v though nothing changed", ids)
	default:
	}

	// The list under another key: an error, and the replica keeps its own.
	svc.wire.wrapNext(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.EqualFold(r.URL.Path, "/api/procedure") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			w.WriteHeader(rec.Code)
			w.Write(bytes.Replace(rec.Body.Bytes(), []byte(`"Procedures"`), []byte(`"Items"`), 1))
		})
	})
	if err := y.RefreshProcedures(ctx, wo.WorkOrderId); err == nil || !strings.Contains(err.Error(), "Items") {
		t.Errorf("a list under another key: %v; want an error naming it", err)
	}
	if got, _ := s.WorkOrder(ctx, wo.WorkOrderId); len(got.Procedures()) != len(wo.Procedures()) {
		t.Errorf("the replica has %d procedures after an unreadable list; want the %d it had", len(got.Procedures()), len(wo.Procedures()))
	}
}
