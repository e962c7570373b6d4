package pending

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// button is the shown button labelled text in o (nil: none).
func button(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if b := viewtest.AsButton(c); b != nil && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}

// tap taps the shown button labelled text in o.
func tap(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	b := button(o, text)
	if b == nil {
		t.Fatalf("no %q button in:\n%s", text, viewtest.Texts(o))
	}
	test.Tap(b)
}

// The line says where each waiting action stands, the first three of
// them, and that they wait behind a refused one; with none it is hidden.
func TestTheQueuedLineSaysWhereEachWaits(t *testing.T) {
	f := newFake(t)
	at := fixedNow
	queued := []storage.OutboxRow{
		{Id: 1, Kind: outbox.KindCheckIn, State: storage.OutboxSending, Created: at},
		{Id: 2, Kind: outbox.KindPause, State: storage.OutboxPending, Created: at, Attempts: 1, Error: "no route to host"},
		{Id: 3, Kind: outbox.KindMessage, State: storage.OutboxPending, Created: at},
		{Id: 4, Kind: outbox.KindMessage, State: storage.OutboxPending, Created: at},
		{Id: 5, Kind: "fromANewerVersion", Summary: "Do something new", State: storage.OutboxPending, Created: at},
	}
	f.show(queued, nil)
	want := "Check-in sending… · Pause queued 09:00, waiting for the connection · Message queued 09:00 · 2 more waiting"
	if got := f.header.Queued(); got.Text != want || !got.Visible() {
		t.Errorf("the line reads %q (shown %v); want %q", got.Text, got.Visible(), want)
	}
	if f.header.Refused().Visible() {
		t.Error("refusals shown with none refused")
	}

	f.show(queued[4:], []storage.OutboxRow{refused(queued[0], "no", 0)})
	if got := f.header.Queued().Text; got != "Do something new queued 09:00 — waiting behind the refused action below" {
		t.Errorf("behind a refusal the line reads %q", got)
	}
	f.show(nil, nil)
	if f.header.Queued().Visible() || f.header.Refused().Visible() {
		t.Error("with nothing waiting the header still says something")
	}
}

// A refused action says so in the service's words (as a sentence), with
// what a colleague did first, and offers Retry, Edit and Discard: Edit
// opens its form, Retry ends its correction, sends it again and says so.
func TestARefusedActionOffersRetryEditAndDiscard(t *testing.T) {
	f := newFake(t)
	r := refused(f.queue(func(ctx context.Context, s *storage.Store) (*storage.OutboxRow, error) {
		return s.Reject(ctx, f.wo.WorkOrderId, "No capacity this week")
	}), "the work order is checked in.", 4001)
	f.colleague = "Already accepted by Ben Okafor at 10:02."
	f.show(nil, []storage.OutboxRow{r})
	says := viewtest.Texts(f.header.Refused())
	for _, want := range []string{
		r.Summary + " — refused by the service 09:00",
		"The work order is checked in. Already accepted by Ben Okafor at 10:02.",
		"Retry", "Edit", "Discard…",
	} {
		if !strings.Contains(says, want) {
			t.Errorf("the header says:\n%s\nwant %q", says, want)
		}
	}
	tap(t, f.header.Refused(), "Edit")
	if !slices.Equal(f.edited, []int64{r.Id}) {
		t.Errorf("Edit opened %v", f.edited)
	}

	// While it is corrected, Edit becomes Stop editing, and the header
	// says what happens next.
	f.correcting = r.Id
	f.show(nil, []storage.OutboxRow{r})
	if says := viewtest.Texts(f.header.Refused()); !strings.Contains(says, "Correct it here.") {
		t.Errorf("while correcting the header says:\n%s", says)
	}
	tap(t, f.header.Refused(), "Stop editing")
	if f.stopped != 1 {
		t.Errorf("Stop editing stopped %d corrections", f.stopped)
	}

	f.correcting = r.Id
	tap(t, f.header.Refused(), "Retry")
	if !slices.Equal(f.ended, []int64{r.Id}) || !slices.Equal(f.retried, []int64{r.Id}) || f.correcting != 0 {
		t.Errorf("Retry ended %v, retried %v (still correcting %d)", f.ended, f.retried, f.correcting)
	}
	if !slices.Equal(f.Said, []string{r.Summary + ": sent again"}) || len(f.changed) != 1 || !slices.Equal(f.changed[0], []int64{f.wo.WorkOrderId}) {
		t.Errorf("after Retry the window was told %q, shown again %v", f.Said, f.changed)
	}

	f.fail = errors.New("the replica is busy")
	tap(t, f.header.Refused(), "Retry")
	if f.LastError() != "the replica is busy" || len(f.changed) != 1 {
		t.Errorf("a failed Retry shows %q, shown again %v", f.LastError(), f.changed)
	}
}

// An action whose answer was lost is not called refused: the header says
// it may have been sent and offers Send again and Discard, never Edit.
func TestAnActionThatMayHaveBeenSentIsAsked(t *testing.T) {
	f := newFake(t)
	r := refused(f.queue(func(ctx context.Context, s *storage.Store) (*storage.OutboxRow, error) {
		return s.Reject(ctx, f.wo.WorkOrderId, "No capacity this week")
	}), "the answer was lost", -1)
	if !r.MayHaveBeenSent() {
		t.Fatal("the row is not one that may have been sent")
	}
	f.show(nil, []storage.OutboxRow{r})
	says := viewtest.Texts(f.header.Refused())
	for _, want := range []string{
		r.Summary + " — may have been sent 09:00",
		"May have been sent: the answer was lost. If it arrived, discard it; if not, send it again.",
		"Send again", "Discard…",
	} {
		if !strings.Contains(says, want) {
			t.Errorf("the header says:\n%s\nwant %q", says, want)
		}
	}
	if button(f.header.Refused(), "Edit") != nil || strings.Contains(says, "refused") {
		t.Errorf("the header offers Edit or calls it refused:\n%s", says)
	}
}

// Discard asks first; only its Discard discards (Cancel, as Esc answers
// it, does not), and the work order is shown again without the action.
func TestDiscardAsksFirst(t *testing.T) {
	f := newFake(t)
	r := refused(f.queue(func(ctx context.Context, s *storage.Store) (*storage.OutboxRow, error) {
		return s.Reject(ctx, f.wo.WorkOrderId, "No capacity this week")
	}), "the work order is checked in.", 4001)
	f.show(nil, []storage.OutboxRow{r})
	for _, answer := range []string{"Cancel", "Discard"} {
		tap(t, f.header.Refused(), "Discard…")
		dlg := f.Win.Canvas().Overlays().Top()
		if dlg == nil || !strings.Contains(viewtest.Texts(dlg), "It will not be sent to the service.") {
			t.Fatalf("Discard… asks nothing")
		}
		if answer == "Cancel" {
			dialogs.DismissTop(f.Win.Canvas())
			continue
		}
		tap(t, dlg, answer)
	}
	if !slices.Equal(f.discarded, []int64{r.Id}) || len(f.changed) != 1 || !slices.Equal(f.changed[0], []int64{f.wo.WorkOrderId}) {
		t.Errorf("discarded %v, shown again %v; want the action once, after Discard", f.discarded, f.changed)
	}
}

// An edit of the note stopped because the note changed meanwhile is a
// question, not a refusal: Keep mine sends it over theirs and says so,
// Merge by hand opens the editor, Take theirs gives it up without asking.
func TestAStoppedEditAsksWhichStays(t *testing.T) {
	f := newFake(t)
	r := refused(f.queue(func(ctx context.Context, s *storage.Store) (*storage.OutboxRow, error) {
		return s.SetNote(ctx, f.wo.WorkOrderId, "Ladder in the van.", "")
	}), "the note changed since you began", -28)
	q := r.Asked()
	if q == nil {
		t.Fatal("the row is not a stopped one")
	}
	f.show(nil, []storage.OutboxRow{r})
	says := viewtest.Texts(f.header.Refused())
	for _, want := range []string{r.Summary + " — " + q.Title, "The note changed since you began.", q.Keep, q.Merge, q.Take} {
		if !strings.Contains(says, want) {
			t.Errorf("the header says:\n%s\nwant %q", says, want)
		}
	}
	tap(t, f.header.Refused(), q.Merge)
	tap(t, f.header.Refused(), q.Keep)
	if !slices.Equal(f.edited, []int64{r.Id}) || !slices.Equal(f.kept, []int64{r.Id}) || !slices.Equal(f.Said, []string{r.Kind.Noun() + ": " + q.QueuedWords}) {
		t.Errorf("Merge opened %v; Keep mine kept %v and said %q", f.edited, f.kept, f.Said)
	}
	tap(t, f.header.Refused(), q.Take)
	if f.Win.Canvas().Overlays().Top() != nil || !slices.Equal(f.discarded, []int64{r.Id}) || !slices.Equal(f.ended, []int64{r.Id}) {
		t.Errorf("Take theirs asked first (%v), discarded %v, ended %v", f.Win.Canvas().Overlays().Top() != nil, f.discarded, f.ended)
	}
}
