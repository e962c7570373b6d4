package decision

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// Accept queues the acceptance of the work order shown, holding its
// Accept button meanwhile, and says so by its number.
func TestAcceptQueuesTheWorkOrderShown(t *testing.T) {
	f := newFake(t)
	f.shown = f.wo(1_000_000)
	f.d.Accept(f.shown)
	if got := f.queued(); len(got) != 1 || !slices.Equal(f.Said, []string{"Accept " + f.shown.WorkOrderNumber}) {
		t.Fatalf("queued %q, said %q", got, f.Said)
	}
	if len(f.controls) != 1 || !slices.Equal(f.controls[0], []fyne.Disableable{f.accept}) {
		t.Errorf("the acceptance held %v; want the Accept button", f.controls)
	}
}

// Reject… asks why: its button stays disabled until there is a reason,
// Enter does not reject, and only the button does: the rejection of the
// work order shown is queued replacing a refused one being corrected,
// said by its number, and its row unticked.
func TestRejectAsksWhyAndOnlyItsButtonRejects(t *testing.T) {
	f := newFake(t)
	f.shown = f.wo(1_000_000)
	f.d.ShowReject([]int64{f.shown.WorkOrderId})
	if says := viewtest.Texts(f.top()); !strings.Contains(says, "Reject this work order") || !strings.Contains(says, "is final") {
		t.Fatalf("the dialog says:\n%s", says)
	}
	if !f.button("Reject").Disabled() {
		t.Fatal("Reject is offered without a reason")
	}
	test.Type(f.reason(), "No technician free this week")
	if f.button("Reject").Disabled() {
		t.Fatal("Reject stays disabled with a reason typed")
	}
	dialogs.ConfirmTop(f.Win.Canvas())
	if f.top() == nil || len(f.queued()) != 0 {
		t.Fatalf("Enter rejected (dialog open %v, queued %q)", f.top() != nil, f.queued())
	}
	test.Tap(f.button("Reject"))
	if got := f.queued(); len(got) != 1 || !strings.Contains(got[0], "No technician free this week") {
		t.Fatalf("queued %q", got)
	}
	if !slices.Equal(f.Said, []string{"Reject " + f.shown.WorkOrderNumber}) || f.Replaced != 1 {
		t.Errorf("said %q, %d correction contexts read", f.Said, f.Replaced)
	}
	if len(f.controls) != 1 || !slices.Equal(f.controls[0], []fyne.Disableable{f.reject}) || len(f.unticked) != 1 {
		t.Errorf("held %v, unticked %v; want the Reject… button, the row", f.controls, f.unticked)
	}
}

// TestARefusedRejectionKeepsItsReason: when the rejection cannot be queued
// (here the work order was accepted meanwhile, as a stale tick in the list
// can leave it), the person gets the reason back in the dialog under the
// error, not an empty one to type again; giving up then runs what the
// caller asked for (a correction given up).
func TestARefusedRejectionKeepsItsReason(t *testing.T) {
	f := newFake(t)
	accepted := f.wo(1_000_001)
	cancelled := 0
	f.d.ShowRejectWith([]int64{accepted.WorkOrderId}, "", func() { cancelled++ })
	const typed = "We do not service rooftop units at this site"
	test.Type(f.reason(), typed)
	test.Tap(f.button("Reject"))
	if !strings.Contains(f.LastError(), "only a new work order can be rejected") {
		t.Errorf("the error says %q", f.LastError())
	}
	if got := f.reason().Text; got != typed {
		t.Errorf("the reason dialog holds %q, want what was typed", got)
	}
	dialogs.DismissTop(f.Win.Canvas())
	if cancelled != 1 || len(f.queued()) != 0 {
		t.Errorf("giving up ran the caller's %d times, queued %q", cancelled, f.queued())
	}
}

// Ticked rows are accepted or rejected in one action, held in the list
// while queued, unticked once queued, and their results shown.
func TestTickedRowsAreDecidedTogether(t *testing.T) {
	f := newFake(t)
	ids, others := []int64{1_000_000, 1_000_005}, []int64{1_000_010, 1_000_015}
	f.d.BulkAccept(ids)
	f.d.ShowReject(others)
	if says := viewtest.Texts(f.top()); !strings.Contains(says, "Reject these 2 work orders") {
		t.Fatalf("the dialog says:\n%s", says)
	}
	test.Type(f.reason(), "No technician free this week")
	test.Tap(f.button("Reject"))
	if !slices.Equal(f.results, []string{"Accept", "Reject"}) || f.rows[0].Kind != outbox.KindBulkAccept || f.rows[1].Kind != outbox.KindBulkReject {
		t.Fatalf("results shown %q for %v", f.results, f.rows)
	}
	for i, got := range [][][]int64{f.kept, f.unticked} {
		if len(got) != 2 || !slices.Equal(got[0], ids) || !slices.Equal(got[1], others) {
			t.Errorf("%d: %v; want those accepted, then those rejected", i, got)
		}
	}
	if len(f.controls) != 2 || !slices.Equal(f.controls[1], f.bulk) {
		t.Errorf("held %v; want the list's bulk buttons", f.controls)
	}
}
