package ui

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// View › Dispatch board over the demo: a work order planned on it is
// queued as an assignment then an appointment (not sent: as offline), the
// board shows it at once where it was planned, queued; sent, the service
// has both and the board shows it no longer queued.
func TestDispatchBoardPlansThroughTheOutbox(t *testing.T) {
	h := newHarness(t)
	h.menuItem("Dispatch board").Action()
	h.flush()
	win, b := h.desk.Board()
	if win == nil || b == nil {
		t.Fatal("View › Dispatch board opened no board")
	}
	ctx := context.Background()
	wk, err := h.store.Week(ctx, fixedNow.AddDate(0, 0, -7), fixedNow.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	var wo storage.Visit
	for _, v := range wk.Waiting {
		if v.Status == api.StatusAccepted || v.Status == api.StatusNew {
			wo = v
			break
		}
	}
	if wo.WorkOrderId == 0 {
		t.Fatal("nothing waits for a visit in the demo")
	}
	var tech storage.Crew
	for _, c := range wk.Crew {
		if c.Technician() && slices.Contains(c.Branches, wo.BranchId) {
			tech = c
			break
		}
	}
	when := fixedNow.Add(48 * time.Hour).Truncate(time.Hour).Add(5 * time.Hour) // a free slot two days on, 14:00
	b.Drop(wo.WorkOrderId, 0, tech.Id, when)
	h.flush()
	if top := win.Canvas().Overlays().Top(); top != nil {
		tapIn(t, top, "Plan anyway") // the demo's deadlines: late is asked about
		h.flush()
	}
	rows, err := h.store.UnfinishedOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []outbox.Kind
	for _, r := range rows {
		if r.WorkOrderIds[0] == wo.WorkOrderId {
			kinds = append(kinds, r.Kind)
		}
	}
	if !slices.Equal(kinds, []outbox.Kind{outbox.KindAssign, outbox.KindAppointment}) {
		t.Fatalf("queued %v; want the assignment, then the appointment", kinds)
	}
	visit := func() storage.Visit {
		t.Helper()
		wk, err := h.store.Week(ctx, when.Truncate(24*time.Hour), when.Truncate(24*time.Hour).AddDate(0, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range wk.Visits {
			if v.WorkOrderId == wo.WorkOrderId {
				return v
			}
		}
		t.Fatalf("%s is not on the board's day", wo.Number)
		return storage.Visit{}
	}
	if v := visit(); !v.Queued || !v.Start.Equal(when) || len(v.Assigned) != 1 || v.Assigned[0].Id != tech.Id {
		t.Errorf("the board's visit before sending: %+v", v)
	}
	h.send()
	h.flush()
	remote, err := h.eng.Client.GetWorkOrder(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if on, _ := remote.AssignedTo(tech.Id); !on || !remote.ScheduledStart().Equal(when) {
		t.Errorf("the service: %s assigned %v, start %v", tech.Name, on, remote.ScheduledStart())
	}
	if v := visit(); v.Queued {
		t.Errorf("sent, the visit still reads queued: %+v", v)
	}
	win.Close()
	if w, _ := h.desk.Board(); w != nil {
		t.Error("the board's window is still known after it closed")
	}
}

// tapIn taps the button labelled text inside o.
func tapIn(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	test.Tap(buttonIn(t, o, text))
}

// What the replica hears (a colleague's plan, through the office hub's
// event, or a sync) shows on the open board at once: it is read again on
// every change, from the replica.
func TestAColleaguesPlanAppearsOnTheBoard(t *testing.T) {
	h := newHarness(t)
	h.menuItem("Dispatch board").Action()
	h.flush()
	_, b := h.desk.Board()
	ctx := context.Background()
	wk, err := h.store.Week(ctx, fixedNow.AddDate(0, 0, -7), fixedNow.AddDate(0, 0, 7))
	if err != nil || len(wk.Waiting) == 0 || len(wk.Crew) == 0 {
		t.Fatalf("the demo's week: %v", err)
	}
	wo, err := h.store.WorkOrder(ctx, wk.Waiting[0].WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	start := fixedNow.Truncate(time.Hour).Add(3 * time.Hour)
	wo.Schedule = &api.Schedule{ScheduledStart: &start, Pte: "Appointment"}
	wo.SetAssigned([]api.Associate{wk.Crew[0].Associate})
	if err := h.store.PutWorkOrders(ctx, []api.WorkOrder{*wo}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	if !b.Shows(wo.WorkOrderId, wk.Crew[0].Id) {
		t.Errorf("%s, planned for %s by a colleague, is not on the board", wo.WorkOrderNumber, wk.Crew[0].Name)
	}
}

// TestDaySheetFromTheFileMenu: File › Day sheet… opens the day sheet on
// the main window for today, the first technician chosen; Open PDF hands
// the viewer their sheet, read from the replica.
func TestDaySheetFromTheFileMenu(t *testing.T) {
	var opened []*url.URL
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(u *url.URL) error { opened = append(opened, u); return nil }
	}})
	h.win.SetMainMenu(h.desk.mainMenu())
	crew, err := h.store.AllAssociates(t.Context())
	if err != nil || len(crew) == 0 {
		t.Fatalf("the replica knows no technicians (%v)", err)
	}
	h.menuItem("Day sheet…").Action()
	h.flush()
	got := h.overlayText()
	for _, want := range []string{"day sheet and calendar", strings.ToLower(crew[0].Name + ", " + format.Now().Format("Mon 2 Jan 2006"))} {
		if !strings.Contains(got, want) {
			t.Errorf("the dialog lacks %q: %q", want, got)
		}
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Open PDF"))
	h.flush()
	if len(opened) != 1 {
		t.Fatalf("the viewer was handed %v", opened)
	}
	t.Cleanup(func() { os.Remove(opened[0].Path) })
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	out, err := exec.Command("pdftotext", opened[0].Path, "-").Output()
	if err != nil || !strings.Contains(string(out), crew[0].Name) {
		t.Errorf("the sheet (%v) reads:\n%s", err, out)
	}
}
