package status

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// The first words say where the work orders come from, in a coordinator's
// words; the token and the receiver wait behind a click.
func TestTheBarSaysWhereTheWorkOrdersComeFrom(t *testing.T) {
	for _, tc := range []struct {
		name string
		conn Connection
		want string
	}{
		{"demo", Connection{Service: "http://127.0.0.1:9/", Demo: true}, "Demo: sample work orders from a made-up customer"},
		{"live", Connection{Service: "https://wois.customer.example/api/"}, "Live: work orders from wois.customer.example"},
		{"office", Connection{Service: "https://hub.office.example/", Office: true}, "Office · hub.office.example"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.conn)
			if got := f.says(); !strings.HasPrefix(got, tc.want+" | ") || strings.Contains(got, "Token") || strings.Contains(got, "Receiver") {
				t.Errorf("the bar says %q, want it to begin with %q and show no token or receiver", got, tc.want)
			}
		})
	}
}

// The outbox says all is sent, or how many actions wait and how many
// were refused, the refused in red.
func TestTheOutboxSaysWhatWaits(t *testing.T) {
	for _, tc := range []struct {
		pending, failed int
		want            string
		importance      widget.Importance
	}{
		{0, 0, "Outbox: all sent", widget.MediumImportance},
		{3, 0, "Outbox: 3 pending", widget.WarningImportance},
		{0, 1, "Outbox: 0 pending · 1 failed", widget.DangerImportance},
	} {
		f := demo(t)
		f.pending, f.failed = tc.pending, tc.failed
		f.bar.Refresh()
		if !strings.Contains(f.says(), " | "+tc.want+" | ") || f.bar.outbox.Importance != tc.importance {
			t.Errorf("with %d pending and %d failed the bar says %q (importance %v), want %q", tc.pending, tc.failed, f.says(), f.bar.outbox.Importance, tc.want)
		}
	}
}

// The last sync reads as its time, or as not yet, or as who is silent.
func TestTheSyncSaysWhenOrWhoIsSilent(t *testing.T) {
	f := demo(t)
	if !strings.HasSuffix(f.says(), "Not synced yet") {
		t.Errorf("before any sync the bar says %q", f.says())
	}
	f.lastSync = fixedNow.Add(-3 * time.Minute)
	f.bar.Refresh()
	if !strings.HasSuffix(f.says(), "Synced 08:57") {
		t.Errorf("after a sync at 08:57 the bar says %q", f.says())
	}
	f.pending = 2
	f.health.Silent = &storage.Silence{Who: storage.SilentService, Since: fixedNow.Add(-time.Minute)}
	f.bar.Refresh()
	if want := "Customer's service not answering since 08:59 · 2 actions waiting"; !strings.HasSuffix(f.says(), want) {
		t.Errorf("while the service is silent the bar says %q, want %q", f.says(), want)
	}
	if f.bar.Silent() == nil {
		t.Error("the bar does not say who is silent")
	}
}

// TestAFailedSyncSaysWhy: the status bar says why a sync failed, and calls
// it offline only when the service could not be reached: a refused secret
// is not a network problem, and the person must know which to fix.
func TestAFailedSyncSaysWhy(t *testing.T) {
	f := demo(t)
	s := f.bar
	s.SyncEnded(fmt.Errorf("sync: searching for changed work orders: %w", api.ErrCredentialsRejected))
	if s.sync.Text != "Sync failed" || !strings.Contains(s.note.Text, "refused the client id or secret") {
		t.Errorf("after a refused secret the status bar says %q / %q", s.sync.Text, s.note.Text)
	}
	offline := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	s.SyncEnded(fmt.Errorf("sync: searching: %w", offline))
	if s.sync.Text != "Offline: sync failed" || !strings.Contains(s.note.Text, "could not be reached") {
		t.Errorf("after an unreachable service the status bar says %q / %q", s.sync.Text, s.note.Text)
	}
	s.clearNote()
	s.SyncEnded(fmt.Errorf("sync: searching: %w", offline))
	if s.note.Text != "" {
		t.Errorf("the same failure again flashes %q; once per reason is enough", s.note.Text)
	}
	s.Alert(1, "Quote refused by the service")
	s.SyncEnded(fmt.Errorf("sync: searching for changed work orders: %w", api.ErrCredentialsRejected))
	if !strings.Contains(s.note.Text, "refused the client id or secret") {
		t.Errorf("a refusal's note hides why the sync failed: %q", s.note.Text)
	}
	s.SyncEnded(nil)
	if strings.Contains(s.sync.Text, "failed") || s.LastErr() != nil {
		t.Errorf("after a good sync the status bar still says %q", s.sync.Text)
	}
}

// A sync shows its progress, "Syncing…" where the last sync's time was,
// and hides it when it ends; a cancelled sync says no reason.
func TestProgressIsShownWhileASyncRunsAndThenHidden(t *testing.T) {
	f := demo(t)
	f.syncing = true
	f.bar.SyncStarted()
	if got := f.says(); !strings.Contains(got, "Syncing…") || !strings.HasSuffix(got, " | Syncing") || !f.bar.bar.Visible() {
		t.Errorf("while a sync starts the bar says %q (progress shown %v)", got, f.bar.bar.Visible())
	}
	f.bar.Progress("Syncing", 40, 100)
	if f.bar.bar.Value != 40 || f.bar.bar.Max != 100 {
		t.Errorf("40 of 100 shows as %v of %v", f.bar.bar.Value, f.bar.bar.Max)
	}
	f.syncing = false
	f.lastSync = fixedNow
	f.bar.SyncEnded(fmt.Errorf("sync: %w", context.Canceled))
	if got := f.says(); strings.Contains(got, "Syncing") || f.bar.bar.Visible() || f.bar.note.Text != "" {
		t.Errorf("after a cancelled sync the bar says %q (progress shown %v)", got, f.bar.bar.Visible())
	}
}

// Files waiting in the outbox run an upload bar, unless a sync owns it;
// a refused upload waits for nobody.
func TestUploadsShowWhileFilesWait(t *testing.T) {
	f := demo(t)
	f.unfinished = []storage.OutboxRow{{Id: 1, Upload: true, State: storage.OutboxPending}, {Id: 2, Upload: true, State: storage.OutboxFailed}, {Id: 3}}
	f.bar.Refresh()
	if !f.bar.uploading.Visible() || !strings.HasSuffix(f.says(), "Uploading 1 file(s)") {
		t.Errorf("with one file waiting the bar says %q (upload bar shown %v)", f.says(), f.bar.uploading.Visible())
	}
	f.unfinished = nil
	f.bar.Refresh()
	if f.bar.uploading.Visible() || strings.Contains(f.says(), "Uploading") {
		t.Errorf("with no file waiting the bar says %q (upload bar shown %v)", f.says(), f.bar.uploading.Visible())
	}
}

// A flashed note is replaced by the next, and goes after a few seconds.
func TestAFlashedNoteIsReplacedByTheNext(t *testing.T) {
	f := demo(t)
	f.bar.Flash("Saved")
	f.bar.Flash("Accept NWR1: queued, sending…")
	if got := f.says(); !strings.Contains(got, "Accept NWR1: queued, sending…") || strings.Contains(got, "Saved") {
		t.Errorf("after two notes the bar says %q", got)
	}
	f.bar.noteUntil = fixedNow.Add(-time.Second) // as if six seconds passed
	f.bar.Refresh()
	if got := f.says(); strings.Contains(got, "Accept") {
		t.Errorf("a note outlives its seconds: %q", got)
	}
}

// An action queued says "queued, sending…" until the outbox is empty, then "sent".
func TestAQueuedNoteSaysSentOnceTheOutboxIsEmpty(t *testing.T) {
	f := demo(t)
	f.pending = 1
	f.bar.Queued("Accept NWR1")
	if got := f.bar.note.Text; got != "Accept NWR1: queued, sending…" {
		t.Errorf("with the action waiting the note says %q", got)
	}
	f.pending = 0
	f.bar.Refresh()
	if got := f.says(); !strings.Contains(got, "Outbox: all sent") || f.bar.note.Text != "Accept NWR1: sent" {
		t.Errorf("once it went out the bar says %q", got)
	}
}

// TestARefusalIsNotCoveredByItsQueuedNote: the service can refuse an
// action before the window has put up its "queued, sending…" note; the
// red refusal stays, not a note saying it is still being sent, until the
// person has dealt with the refusal.
func TestARefusalIsNotCoveredByItsQueuedNote(t *testing.T) {
	f := demo(t)
	s := f.bar
	s.Alert(7, "SMJ73246: Quote was refused by the service. Sakura Mart Japan does not accept quotes.")
	s.Queued("Quote ¥9,999,999 for SMJ73246")
	if got := s.note.Text; !strings.Contains(got, "refused") || s.note.Importance != widget.DangerImportance {
		t.Errorf("after the refusal and then the queued note the status bar says %q", got)
	}
	s.Settled(map[int64]bool{7: true})
	if !strings.Contains(s.note.Text, "refused") {
		t.Errorf("a refusal still open is cleared: %q", s.note.Text)
	}
	s.Settled(map[int64]bool{})
	if s.note.Text != "" {
		t.Errorf("a refusal dealt with still shows: %q", s.note.Text)
	}
}

// A list that cannot be read says so in red above the row, until it can.
func TestAListProblemShowsUntilTheListReadsAgain(t *testing.T) {
	f := demo(t)
	f.bar.ListProblem(errors.New("database is closed"))
	if got := f.says(); !strings.HasPrefix(got, "Could not read the work order list: database is closed | ") {
		t.Errorf("after a failed read the bar says %q", got)
	}
	f.bar.ListProblem(nil)
	if got := f.says(); strings.Contains(got, "Could not read") {
		t.Errorf("after a good read the bar says %q", got)
	}
}

// In office mode the receiver's place says whether colleagues' updates
// arrive, and a refused sign-in raises the window's banner once.
func TestOfficeSaysTheHubsStreamAndARefusal(t *testing.T) {
	f := newFake(t, Connection{Service: "https://hub.office.example/", Office: true})
	f.health = Health{Stream: "connected", Person: "Bo Chen"}
	f.bar.Refresh()
	if got := f.says(); !strings.HasPrefix(got, "Office · hub.office.example · Bo Chen | Events connected | ") {
		t.Errorf("connected to the hub the bar says %q", got)
	}
	f.health.Stream = storage.StreamRefused
	f.bar.Refresh()
	f.bar.Refresh()
	if got := f.says(); !strings.Contains(got, "Hub refused sign-in") || len(f.banner) != 1 || !f.banner[0] {
		t.Errorf("refused by the hub the bar says %q, the banner went %v", got, f.banner)
	}
	f.health.Stream = "connected"
	f.bar.Refresh()
	if len(f.banner) != 2 || f.banner[1] {
		t.Errorf("signed in again, the banner went %v", f.banner)
	}
}

// Start asks the window to refresh the bar every five seconds.
func TestTheBarRefreshesItselfEveryFewSeconds(t *testing.T) {
	f := demo(t)
	f.bar.Start()
	f.pending = 4
	f.tick()
	if f.every != 5*time.Second || !strings.Contains(f.says(), "Outbox: 4 pending") {
		t.Errorf("every %v the bar refreshes; after a tick it says %q", f.every, f.says())
	}
}

// TestTheStatusNoteIsShownWholeWhenItFits: the passing note ("…: queued,
// sending…") gets all the width the connection facts leave, so a note that
// fits is drawn whole; a note too long is cut with "…" and never runs into
// the facts or the progress bar.
func TestTheStatusNoteIsShownWholeWhenItFits(t *testing.T) {
	f := demo(t)
	s := f.bar
	facts := s.row.Objects[0]
	pad := theme.Padding()
	free := s.row.Size().Width - facts.Size().Width - 2*pad
	const note = "Quote $1,710.00 for NWR73267: queued, sending…"
	need := fyne.MeasureText(note, theme.TextSize(), fyne.TextStyle{Italic: true}).Width + 2*theme.InnerPadding()
	if need > free {
		t.Fatalf("the test note needs %.0f px but only %.0f px are free beside the facts: choose a shorter one", need, free)
	}
	s.Flash(note)
	if got := drawn(s.note); got != note {
		t.Errorf("with %.0f px free for a note of %.0f px the status bar draws %q, want %q", free, need, got, note)
	}

	// While the sync's progress shows, the note makes room for it.
	s.SyncStarted()
	right := s.row.Objects[2]
	if end := s.note.Position().X + s.note.Size().Width; end > right.Position().X {
		t.Errorf("the note ends at %.0f px, over the progress starting at %.0f px", end, right.Position().X)
	}
	s.SyncEnded(nil)

	long := "Quote for NWR73267: queued, sending… " + strings.Repeat("and a very long explanation ", 10)
	s.Flash(long)
	got := drawn(s.note)
	if !strings.HasSuffix(got, "…") || len(got) >= len(long) {
		t.Errorf("a note longer than the room is drawn as %q, want it cut with …", got)
	}
	if s.note.Position().X < facts.Position().X+facts.Size().Width {
		t.Error("the note is drawn over the connection facts")
	}
}
