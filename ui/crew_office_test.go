package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/visit"
)

// Where the service's record does not say who is assigned (the renamed
// dialect lists nobody on a work order, as a service that lists them
// nowhere would), the Visit tab's "Who goes" says it is not known until
// this office assigns someone; then it names them as assigned from this
// office, queued and once sent, and still says the record does not say.
// An answer for a work order the person has left is not drawn over the
// one they opened.
func TestWhoGoesNamesWhomTheOfficeAssignedWhereTheRecordDoesNotSay(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{dialect: sandbox.DialectRenamed})
	ctx := context.Background()
	silent := func(w *api.WorkOrder) bool {
		_, known := w.Assigned()
		return !known && w.Status == api.StatusAccepted && w.BranchId == 492042
	}
	wo := h.pick(silent)
	other := h.pick(func(w *api.WorkOrder) bool { return silent(w) && w.WorkOrderId != wo.WorkOrderId })

	// The renamed dialect lists the branch's people under another key:
	// their names as an earlier read (or the office hub) gave them.
	kenji := api.Associate{Id: 7101, Name: "Kenji Sato", Type: api.AssociateCruMember}
	miguel := api.Associate{Id: 7102, Name: "Miguel Alvarez", Type: api.AssociateCruMember}
	if err := h.store.PutAssociates(ctx, wo.BranchId, []api.Associate{kenji, miguel}); err != nil {
		t.Fatal(err)
	}

	h.open(wo.WorkOrderId)
	h.selectTab("Visit")
	tab := visitOf(h)
	// What the Visit tab shows, as drawn.
	says := func() string {
		h.flush()
		return strings.Join(texts(h.desk.detail.appTabs.Selected().Content), "\n")
	}
	if got := says(); !strings.Contains(got, "Not known") || strings.Contains(got, kenji.Name) {
		t.Fatalf("before anything was assigned the Visit tab says %q; want Not known", got)
	}

	test.Tap(tab.assign)
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("Assign… opened nothing")
	}
	test.Tap(checkIn(t, dlg, format.Associate(kenji)))
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush()
	fromOffice := func(when string) {
		t.Helper()
		got := says()
		for _, want := range []string{format.Associate(kenji), "assigned from this office", "record does not say"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s, the Visit tab says %q; want it to say %q", when, got, want)
			}
		}
		if strings.Contains(got, "Not known") || strings.Contains(got, miguel.Name) {
			t.Errorf("%s, the Visit tab says %q", when, got)
		}
	}
	fromOffice("queued")
	h.send()
	remote, err := h.eng.Client.GetWorkOrder(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	if _, known := remote.Assigned(); known {
		t.Fatal("the renamed dialect's record says who is assigned after the assignment")
	}
	h.open(other.WorkOrderId)
	h.open(wo.WorkOrderId)
	fromOffice("sent, opened again")

	// The person moves on while whom the office assigned to wo is still
	// being read: its answer comes after the other work order's and is
	// not drawn over it.
	row := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == other.WorkOrderId })
	inline := h.desk.deps.Background
	var held []func()
	h.desk.deps.Background = func(f func()) { held = append(held, f) }
	tabOf[*visit.Tab](h).Show(wo) // shown again, as after a change: its read waits
	mine := len(held)
	h.desk.list.Table().Select(widget.TableCellID{Row: row, Col: 1 /* Number */})
	h.desk.deps.Background = inline
	for _, f := range append(held[mine:], held[:mine]...) {
		f()
		h.flush()
	}
	if got := says(); !strings.Contains(got, "Not known") || strings.Contains(got, kenji.Name) {
		t.Errorf("after moving to %s while %s's answer was read, the Visit tab says %q; want Not known", other.WorkOrderNumber, wo.WorkOrderNumber, got)
	}
}
