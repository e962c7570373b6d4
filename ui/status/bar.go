package status

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Bar shows where the app is connected and what is waiting: Demo or
// Live, token validity, the receiver, the outbox, the last sync, and a
// progress bar while syncing or uploading.
type Bar struct {
	conn      Connection
	replica   Replica
	win       Window
	mode      *widget.Label
	token     *widget.Label
	receiver  *widget.Label
	outbox    *widget.Label
	sync      *widget.Label
	note      *widget.Label
	noteUntil time.Time
	problem   *widget.Label // a failed read of the list, until one succeeds
	alertRow  int64         // the refused action the note is about (0: none)
	row       *fyne.Container
	bar       *widget.ProgressBar
	uploading *widget.ProgressBarInfinite
	barLabel  *widget.Label
	lastErr   error
	lastErrAt time.Time // when lastErr was had
	// silent is who is not answering, as Health last said (nil: nobody).
	silent  *storage.Silence
	refused bool // the office hub refuses the sign-in (the banner shows)
}

// streamWords says where the office hub's event stream stands.
func streamWords(state string) string {
	switch state {
	case storage.StreamRefused:
		return "Hub refused sign-in"
	case storage.StreamOff, "":
		return "Not connected to the hub"
	}
	return "Events " + state
}

// Demo and Live say where the work orders come from in a coordinator's
// words; the sandbox's address, the token and the receiver are for the
// person who sets the connection up, behind a click (ShowDetails).
const (
	demoMode = "Demo: sample work orders from a made-up customer"
	liveMode = "Live: work orders from "
)

// New is the status bar of the connection conn, reading replica, in win.
func New(conn Connection, replica Replica, win Window) *Bar {
	s := &Bar{conn: conn, replica: replica, win: win}
	mode := liveMode + hostOf(conn.Service)
	if conn.Demo {
		mode = demoMode
	} else if conn.Office {
		mode = OfficeMode(conn.Service, "")
	}
	s.mode = widget.NewLabelWithStyle(mode, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	s.token = widget.NewLabel("")
	s.receiver = widget.NewLabel("")
	s.outbox = widget.NewLabel("")
	s.sync = widget.NewLabel("")
	s.note = widget.NewLabel("")
	s.note.TextStyle.Italic = true
	s.note.Truncation = fyne.TextTruncateEllipsis
	s.problem = widget.NewLabel("")
	s.problem.Importance = widget.DangerImportance
	s.problem.Truncation = fyne.TextTruncateEllipsis
	s.problem.Hide()
	s.bar = widget.NewProgressBar()
	s.bar.Hide()
	s.uploading = widget.NewProgressBarInfinite()
	s.uploading.Stop()
	s.uploading.Hide()
	s.barLabel = widget.NewLabel("")
	s.barLabel.Hide()
	return s
}

// Content is the bar as the window lays it out at its bottom; call it once.
func (s *Bar) Content() fyne.CanvasObject {
	sep := func() fyne.CanvasObject { return widget.NewSeparator() }
	// The token renews itself and says nothing to a coordinator (the
	// hub's, in office mode, is not even theirs); the receiver is a port.
	// Both are in the connection details, a click on the mode away. The
	// room goes to the passing note ("Accept …: queued, sending…"). In
	// office mode the receiver's place says whether colleagues' updates
	// arrive.
	s.token.Hide()
	receiverSep := sep()
	if !s.conn.Office {
		s.receiver.Hide()
		receiverSep.Hide()
	}
	facts := container.NewHBox(newTapArea(container.NewHBox(widget.NewIcon(theme.ComputerIcon()), s.mode), s.ShowDetails), receiverSep, s.receiver, sep(), s.outbox, sep(), s.sync)
	barBox := container.NewGridWrap(fyne.NewSize(180, s.bar.MinSize().Height), container.NewStack(s.bar, s.uploading))
	s.row = container.New(&statusRow{facts: facts, progress: []fyne.CanvasObject{s.barLabel, s.bar, s.uploading}},
		container.NewHScroll(facts), s.note, container.NewHBox(s.barLabel, barBox))
	return container.NewVBox(widget.NewSeparator(), s.problem, s.row)
}

// Queued tells the person their action is safe in the outbox; the bar
// then shows whether it went out.
func (s *Bar) Queued(what string) {
	// The note first, then the refresh: the outbox may have sent the action
	// before this runs, and the refresh then says "sent" at once instead of
	// "sending…" until the next one.
	s.Flash(what + queuedSuffix)
	s.Refresh()
}

// LastErr is the last sync's error (nil: it went through, or the service
// has answered since a network failure).
func (s *Bar) LastErr() error { return s.lastErr }

// Silent is who is not answering, as the last refresh heard (nil: nobody).
func (s *Bar) Silent() *storage.Silence { return s.silent }

// relayout gives the facts the width their texts now need: the row asks
// the window for little, so a longer text is not laid out by itself.
func (s *Bar) relayout() {
	if s.row != nil {
		s.row.Refresh()
	}
}

// statusRow lays out the status bar's row: the connection facts at their
// natural width on the left, the progress on the right, and the passing
// note in between, cut short with "…" when room runs out. It asks the
// window for little width, so on a small screen the facts (a horizontal
// Scroll) scroll instead of widening the window.
//
// The progress part takes room only while something in it shows: its bar
// sits in a fixed-width cell that reports its width even with the bar
// hidden, which used to cut the note short with 200 px still free.
type statusRow struct {
	facts    fyne.CanvasObject
	progress []fyne.CanvasObject // the label and bars of the right part
}

// rightWidth is the width the progress part needs now: none while it shows nothing.
func (l *statusRow) rightWidth(right fyne.CanvasObject) float32 {
	for _, p := range l.progress {
		if p.Visible() {
			return right.MinSize().Width
		}
	}
	return 0
}

func (l *statusRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(l.rightWidth(objs[2])+160, h)
}

func (l *statusRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	scroll, note, right := objs[0], objs[1], objs[2]
	rw := l.rightWidth(right)
	right.Move(fyne.NewPos(size.Width-rw, 0))
	right.Resize(fyne.NewSize(rw, size.Height))
	fw := max(0, min(l.facts.MinSize().Width, size.Width-rw-pad))
	scroll.Move(fyne.NewPos(0, 0))
	scroll.Resize(fyne.NewSize(fw, size.Height))
	note.Move(fyne.NewPos(fw+pad, 0))
	note.Resize(fyne.NewSize(max(0, size.Width-rw-fw-2*pad), size.Height))
}

// Start refreshes the time-dependent parts every few seconds.
func (s *Bar) Start() {
	s.win.Every(5*time.Second, s.Refresh)
}

// Refresh reads the connection, the outbox and the last sync again.
func (s *Bar) Refresh() {
	ctx := context.Background()
	if s.note.Text != "" && format.Now().After(s.noteUntil) {
		s.clearNote()
	}
	var heard time.Time
	s.silent = nil
	if s.conn.Health != nil {
		h := s.conn.Health()
		s.silent, heard = h.Silent, h.Heard
		if h.TokenValidUntil.IsZero() {
			s.token.SetText("No token yet")
		} else if h.TokenValidUntil.Before(format.Now()) {
			s.token.SetText("Token expired")
		} else {
			s.token.SetText("Token until " + format.Clock(h.TokenValidUntil))
		}
		s.receiver.SetText("Receiver " + h.Receiver)
		if s.conn.Office {
			s.receiver.SetText(streamWords(h.Stream))
			s.receiver.Importance = widget.MediumImportance
			if h.Stream == storage.StreamRefused {
				s.receiver.Importance = widget.DangerImportance
			}
			s.receiver.Refresh()
			if refused := h.Stream == storage.StreamRefused; refused != s.refused {
				s.refused = refused
				s.win.SignInRefused(refused)
			}
			s.mode.SetText(OfficeMode(s.conn.Service, h.Person))
		}
	}
	pending, failed := s.replica.OutboxSummary(ctx)
	switch {
	case failed > 0:
		s.outbox.SetText(fmt.Sprintf("Outbox: %d pending · %d failed", pending, failed))
		s.outbox.Importance = widget.DangerImportance
	case pending > 0:
		s.outbox.SetText(fmt.Sprintf("Outbox: %d pending", pending))
		s.outbox.Importance = widget.WarningImportance
	default:
		s.outbox.SetText("Outbox: all sent")
		s.outbox.Importance = widget.MediumImportance
		if what, ok := strings.CutSuffix(s.note.Text, queuedSuffix); ok && s.alertRow == 0 {
			s.note.SetText(what + sentSuffix)
		}
	}
	s.outbox.Refresh()
	s.showUploads(ctx)
	last := s.replica.LastSync(ctx)
	if s.lastErr != nil && api.IsTemporary(s.lastErr) && staleFailure(s.lastErrAt, heard) {
		s.lastErr = nil // answered since: the sync that follows says the rest
	}
	switch {
	case s.silent != nil:
		// Said even while a sync waits: it is what the sync waits for.
		s.sync.SetText(silenceText(*s.silent, s.conn.Office, pending))
		s.sync.Importance = widget.WarningImportance
	case s.win.Syncing():
		s.sync.SetText("Syncing…")
		s.sync.Importance = widget.MediumImportance
	case s.lastErr != nil && api.IsTemporary(s.lastErr):
		s.sync.SetText("Offline: sync failed")
		s.sync.Importance = widget.WarningImportance
	case s.lastErr != nil:
		s.sync.SetText("Sync failed")
		s.sync.Importance = widget.DangerImportance
	case last.IsZero():
		s.sync.SetText("Not synced yet")
	default:
		s.sync.SetText("Synced " + format.Clock(last))
		s.sync.Importance = widget.MediumImportance
	}
	s.sync.Refresh()
	s.relayout()
}

// SyncStarted says a sync is under way and shows its progress.
func (s *Bar) SyncStarted() {
	if s.silent == nil {
		s.sync.SetText("Syncing…")
	}
	s.Progress("Syncing", 0, 0)
	s.relayout()
}

// SyncEnded hides the sync's progress and says how it went (err nil: well).
func (s *Bar) SyncEnded(err error) {
	same := err != nil && s.lastErr != nil && format.Error(err) == format.Error(s.lastErr)
	s.lastErr, s.lastErrAt = err, time.Now()
	s.HideProgress()
	s.Refresh()
	if err != nil && !same && !errors.Is(err, context.Canceled) {
		// Why, in the service's or plain words, beside "Sync failed":
		// "Offline" alone would hide a refused secret or a service that
		// answers wrongly. Said once per reason, not on every retry while
		// the network is down, and over a refusal's note: the refusal stays
		// in its work order's header, while this reason is said nowhere else.
		s.say(format.Sentence(format.Error(err)))
	}
}

// Progress shows done of total on the bar; total 0 means not known yet.
func (s *Bar) Progress(what string, done, total int) {
	s.barLabel.SetText(what)
	if !s.bar.Visible() || !s.barLabel.Visible() {
		s.barLabel.Show()
		s.bar.Show()
		s.relayout() // the progress part takes its room again
	}
	if total <= 0 {
		s.bar.SetValue(0)
		return
	}
	s.bar.Max = float64(total)
	s.bar.SetValue(float64(done))
}

// HideProgress hides the progress bar and what it is about.
func (s *Bar) HideProgress() {
	s.bar.Hide()
	s.barLabel.Hide()
	s.relayout() // the note gets the progress part's room
}

// ListProblem shows that rows of the work order list could not be read
// (nil: they can be again). The list calls it once per failure, not per cell.
func (s *Bar) ListProblem(err error) {
	if err == nil {
		s.problem.SetText("")
		s.problem.Hide()
		return
	}
	s.problem.SetText("Could not read the work order list: " + err.Error())
	s.problem.Show()
}

// Flash shows a short confirmation until a refresh a few seconds later.
func (s *Bar) Flash(msg string) {
	if s.alertRow != 0 && format.Now().Before(s.noteUntil) {
		// A refusal still being shown outranks a passing note; the
		// service can refuse an action before its "queued" note is up.
		return
	}
	s.say(msg)
}

// say shows msg for a few seconds, over whatever note is up.
func (s *Bar) say(msg string) {
	s.alertRow = 0
	s.note.Importance = widget.MediumImportance
	s.note.SetText(msg)
	s.noteUntil = format.Now().Add(6 * time.Second)
	s.relayout()
}

// Alert shows the refusal of outbox row rowID in red, long enough to be
// read: it replaces a "queued, sending…" that is no longer true.
func (s *Bar) Alert(rowID int64, msg string) {
	s.alertRow = rowID
	s.note.Importance = widget.DangerImportance
	s.note.SetText(msg)
	s.noteUntil = format.Now().Add(30 * time.Second)
	s.relayout()
}

// Settled clears the note about a refusal the person has dealt with
// (retried, corrected or discarded); refused holds the refusals still open.
func (s *Bar) Settled(refused map[int64]bool) {
	if s.alertRow != 0 && !refused[s.alertRow] {
		s.clearNote()
	}
}

func (s *Bar) clearNote() {
	s.alertRow = 0
	s.note.Importance = widget.MediumImportance
	s.note.SetText("")
}

// showUploads runs an indeterminate bar while files wait in the outbox or go
// out (the sender streams them; their size is not reported back).
func (s *Bar) showUploads(ctx context.Context) {
	if s.win.Syncing() {
		return // the sync owns the bar
	}
	n := 0
	if rows, err := s.replica.UnfinishedOutbox(ctx); err == nil {
		for _, r := range rows {
			if r.Upload && r.State != storage.OutboxFailed {
				n++
			}
		}
	}
	if n == 0 {
		s.uploading.Stop()
		s.uploading.Hide()
		if s.barLabel.Text != "Syncing" {
			s.barLabel.Hide()
		}
		return
	}
	s.barLabel.SetText(fmt.Sprintf("Uploading %d file(s)", n))
	s.barLabel.Show()
	s.uploading.Show()
	s.uploading.Start()
}
