package hub

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// Ana assigns a technician on her desktop (hub instance A); Bo's desktop,
// on instance B, hears it on its event stream: the event names Ana and
// whom she assigned, Bo's replica shows the technician on the work order,
// his event log reads "Ana Ruiz" and the technician's name, and the hub's
// audit has the write. Then she takes them off again, and Bo hears that.
func TestColleagueAssignmentReachesAnotherDesktop(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	_, anaCreds := o.person(a, "Ana Ruiz")
	_, boCreds := o.person(b, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana := openOfficeDesktop(t, a.srv.URL, filepath.Join(t.TempDir(), "ana.db"), anaCreds, nil)
	bo := openOfficeDesktop(t, b.srv.URL, filepath.Join(t.TempDir(), "bo.db"), boCreds, nil)
	syncDesktop(t, ana)
	syncDesktop(t, bo)
	waitStream(t, bo, storage.StreamConnected)
	boHears := heard(bo)

	wo, err := ana.Store.WorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	crew, known, err := ana.Store.Associates(ctx, wo.BranchId)
	if err != nil || !known || len(crew) == 0 {
		t.Fatalf("Ana's replica lists branch %d's associates as %v (known %v): %v; the hub should pass GET /api/associates on", wo.BranchId, crew, known, err)
	}
	tech := crew[0]
	if _, err := ana.Store.Assign(ctx, []int64{id}, []int64{tech.Id}); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	ev := waitHeard(t, boHears, id, "AssociatesAssigned", 10*time.Second)
	if by := storage.EventPerformer(ev); by != "Ana Ruiz" {
		t.Fatalf("the event names %q, want Ana Ruiz", by)
	}
	got, err := bo.Store.WorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := got.AssignedTo(tech.Id); !on {
		t.Errorf("Bo's replica does not show %s on the work order", tech.Name)
	}
	last := lastEvent(t, bo, id)
	if last.PerformedBy != "Ana Ruiz" || last.Whom != tech.Name || last.Header.Action != "AssociatesAssigned" {
		t.Errorf("Bo's event log ends with %s by %q of %q; want AssociatesAssigned by Ana Ruiz of %s", last.Header.Action, last.PerformedBy, last.Whom, tech.Name)
	}
	audit := readAudit(t, b, boCreds, id)
	if len(audit) != 1 || audit[0].Person != "Ana Ruiz" || audit[0].Status != http.StatusOK || !strings.Contains(audit[0].Operation, "/api/bulk/assign") {
		t.Errorf("the audit: %+v", audit)
	}

	if _, err := ana.Store.Unassign(ctx, []int64{id}, []int64{tech.Id}); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Sender.SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	waitHeard(t, boHears, id, "AssociatesUnassigned", 10*time.Second)
	if last := lastEvent(t, bo, id); last.Whom != tech.Name || last.PerformedBy != "Ana Ruiz" {
		t.Errorf("the unassignment reads %q by %q", last.Whom, last.PerformedBy)
	}
	if got, _ := bo.Store.WorkOrder(ctx, id); got != nil {
		if on, _ := got.AssignedTo(tech.Id); on {
			t.Errorf("Bo's replica still shows %s on the work order", tech.Name)
		}
	}
}

func lastEvent(t *testing.T, eng *storage.Engine, id int64) storage.EventRecord {
	t.Helper()
	evs, err := eng.Store.Events(context.Background(), id)
	if err != nil || len(evs) == 0 {
		t.Fatalf("events of %d: %v (%d)", id, err, len(evs))
	}
	return evs[len(evs)-1]
}
