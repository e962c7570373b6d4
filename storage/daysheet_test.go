package storage

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestVisitOverLeavesThePlan: a visit checked out (sent, or queued from
// a site without signal) or closed is not in the board's plan on the day
// it was planned for, which a back-dated visit done early left the
// technician looking busy on (A13); the technician's day sheet still
// lists it, so that a calendar hears it is off.
func TestVisitOverLeavesThePlan(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	kenji := api.Associate{Id: 41, Name: "Kenji Sato", Type: api.AssociateCruMember}
	specs := []woSpec{
		{id: 1, number: "PLANNED", status: api.StatusAccepted, sched: 26 * time.Hour},
		{id: 2, number: "DONE", status: api.StatusCheckedOut, sched: 27 * time.Hour},
		{id: 3, number: "VERIFIED", status: api.StatusVerified, sched: 28 * time.Hour},
		{id: 4, number: "RECALLED", status: api.StatusRecalled, sched: 29 * time.Hour},
		{id: 5, number: "QUEUEDOUT", status: api.StatusCheckedIn, sched: 30 * time.Hour},
		{id: 6, number: "SOMEONEELSE", status: api.StatusAccepted, sched: 31 * time.Hour},
	}
	var wos []api.WorkOrder
	for _, sp := range specs {
		wo := mkWO(sp)
		who := []api.Associate{kenji}
		if sp.id == 6 {
			who = []api.Associate{{Id: 42, Name: "Ana Ruiz", Type: api.AssociateCruMember}}
		}
		wo.SetAssigned(who)
		wos = append(wos, wo)
	}
	if err := s.PutWorkOrders(ctx, wos); err != nil {
		t.Fatal(err)
	}
	back := testNow.Add(-time.Hour)
	if _, err := s.CheckOut(ctx, 5, &back, "done early"); err != nil {
		t.Fatal(err)
	}
	from := testNow.Truncate(24 * time.Hour)
	wk, err := s.Week(ctx, from, from.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, v := range wk.Visits {
		planned = append(planned, v.Number)
	}
	if want := []string{"PLANNED", "SOMEONEELSE"}; !slices.Equal(planned, want) {
		t.Errorf("the board plans %v; want %v", planned, want)
	}

	sheet, err := s.TechnicianVisits(ctx, kenji.Id, from, from.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var statuses []api.WorkOrderStatus
	for _, v := range sheet {
		got = append(got, v.WorkOrder.WorkOrderNumber)
		statuses = append(statuses, v.WorkOrder.Status)
	}
	if want := []string{"PLANNED", "DONE", "VERIFIED", "RECALLED", "QUEUEDOUT"}; !slices.Equal(got, want) {
		t.Errorf("Kenji's sheet lists %v; want %v", got, want)
	}
	if len(statuses) == 5 && statuses[4] != api.StatusCheckedOut {
		t.Errorf("the queued check-out reads %s on the sheet, not CheckedOut", statuses[4])
	}
}

// TestTechnicianVisitsAsPlanned: a visit planned on the board and still
// queued is on the technician's sheet at its new time, with its note as
// edited; one moved to someone else is not.
func TestTechnicianVisitsAsPlanned(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	kenji := api.Associate{Id: 41, Name: "Kenji Sato", Type: api.AssociateCruMember}
	ana := api.Associate{Id: 42, Name: "Ana Ruiz", Type: api.AssociateCruMember}
	if err := s.PutAssociates(ctx, 0, []api.Associate{kenji, ana}); err != nil {
		t.Fatal(err)
	}
	a, b := mkWO(woSpec{id: 1, number: "MOVED", status: api.StatusAccepted}), mkWO(woSpec{id: 2, number: "TAKEN", status: api.StatusAccepted, sched: 30 * time.Hour})
	a.SetAssigned(nil)
	b.SetAssigned([]api.Associate{kenji})
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{a, b}); err != nil {
		t.Fatal(err)
	}
	at := testNow.Add(50 * time.Hour).Truncate(time.Hour)
	if _, err := s.PlanVisit(ctx, 1, kenji.Id, 0, at); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PlanVisit(ctx, 2, ana.Id, kenji.Id, testNow.Add(30*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetNote(ctx, 1, "Gate code 4471", ""); err != nil {
		t.Fatal(err)
	}
	from := testNow.Truncate(24 * time.Hour)
	sheet, err := s.TechnicianVisits(ctx, kenji.Id, from, from.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	if len(sheet) != 1 || sheet[0].WorkOrder.WorkOrderNumber != "MOVED" {
		t.Fatalf("Kenji's sheet: %+v", sheet)
	}
	if got := sheet[0].WorkOrder.ScheduledStart(); !got.Equal(at) {
		t.Errorf("MOVED starts %v on the sheet, planned %v", got, at)
	}
	if sheet[0].Note != "Gate code 4471" {
		t.Errorf("the note reads %q", sheet[0].Note)
	}
	if on, known := sheet[0].WorkOrder.AssignedTo(kenji.Id); !on || !known {
		t.Errorf("MOVED is not Kenji's on the sheet: %v", sheet[0].WorkOrder.Associates)
	}
}
