package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

func TestVisitTimesArePickedWithHourAndMinuteSelects(t *testing.T) {
	h := newHarness(t)
	// A moment between the pickers' 5-minute steps.
	now := fixedNow.Add(7 * time.Minute)
	setNow(t, now)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // allows back-dating
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)

	if n := len(v.schedTime.Hour.Options); n != 24 {
		t.Fatalf("the hour select offers %d hours", n)
	}
	if got := v.schedTime.Minute.Options; len(got) != 60 || got[7] != "07" {
		t.Fatalf("the minute select offers %s, not every minute", strings.Join(got, " "))
	}

	// Scheduled start: a date, an hour and a minute, in local time.
	scheduleTomorrowAt(h, v, "14", "45")

	// Back-dating starts from now, exactly, though it falls between steps.
	v.when.SetSelected(whenEarlier)
	if h, m, ok := v.backTime.Value(); v.backDate.Date == nil || !ok || h != 9 || m != 7 {
		t.Fatalf("back-dating starts at %v %02d:%02d, want today 09:07", v.backDate.Date, h, m)
	}
	// The future is refused, and the person is told why.
	v.backTime.Hour.SetSelected("10")
	test.Tap(v.checkIn)
	if !strings.Contains(h.overlayText(), "is in the future") {
		t.Fatalf("a check-in at 10:07 (it is 09:07) showed %q", h.overlayText())
	}
	h.dismissOverlays()
	// Half an hour ago is sent as the visit's time.
	v.backTime.Hour.SetSelected("08")
	v.backTime.Minute.SetSelected("35")
	test.Tap(v.checkIn)
	if txt := h.overlayText(); txt != "" {
		t.Fatalf("a check-in at 08:35 showed %q", txt)
	}
	rows, _ := h.store.OutboxRows(context.Background(), r.Id)
	var req api.VisitRequest
	if len(rows) == 0 || json.Unmarshal(rows[len(rows)-1].Request, &req) != nil {
		t.Fatalf("no check-in queued: %+v", rows)
	}
	want := time.Date(fixedNow.Year(), fixedNow.Month(), fixedNow.Day(), 8, 35, 0, 0, time.Local)
	if req.ActualActionDate == nil || !req.ActualActionDate.Equal(want) {
		t.Fatalf("the check-in carries ActualActionDate %v, want %v", req.ActualActionDate, want)
	}
}

// scheduleTomorrowAt sets the scheduled start to tomorrow at hour:minute on
// the visit tab, as a person picks it, sends it, and checks the tab shows it.
func scheduleTomorrowAt(h *harness, v *visitForm, hour, minute string) {
	h.t.Helper()
	tomorrow := fixedNow.Add(24 * time.Hour)
	v.schedDate.SetDate(&tomorrow)
	v.schedTime.Hour.SetSelected(hour)
	v.schedTime.Minute.SetSelected(minute)
	test.Tap(v.schedSave)
	h.send()
	if !strings.Contains(v.schedNow.Text, hour+":"+minute) {
		h.t.Fatalf("after scheduling %s:%s the visit tab says %q", hour, minute, v.schedNow.Text)
	}
}

// TestMovingTheStartKeepsTheAccessType: a new scheduled start goes out
// with the work order's access type (Call first, Appointment), not without
// one, which would drop it at the customer.
func TestMovingTheStartKeepsTheAccessType(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	r := h.rowWhere(func(r storage.Row) bool {
		wo, err := h.store.WorkOrder(ctx, r.Id)
		return err == nil && wo.Can(api.SetAppointment) == nil && wo.Schedule != nil && wo.Schedule.Pte != ""
	})
	wo, _ := h.store.WorkOrder(ctx, r.Id)
	h.open(r.Id)
	h.selectTab("Visit")
	v := visitOf(h)
	tomorrow := fixedNow.Add(24 * time.Hour)
	v.schedDate.SetDate(&tomorrow)
	v.schedTime.Hour.SetSelected("10")
	v.schedTime.Minute.SetSelected("30")
	test.Tap(v.schedSave)
	row := onlyRow(t, h, r.Id, outbox.KindAppointment, storage.OutboxPending)
	if d, ok := row.Draft(wo.Currency); !ok || d.Pte != wo.Schedule.Pte {
		t.Errorf("the new start goes out with access type %q, want the work order's %q", d.Pte, wo.Schedule.Pte)
	}
}
