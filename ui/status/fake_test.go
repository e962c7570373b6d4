package status

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// fixedNow pins the clock, so what the bar writes is the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return fixedNow }) }

// fake is everything the status bar depends on: the replica (the outbox's
// counts and rows, the last sync, in memory) and the window (whether a
// sync runs, the sign-in banner, the ticker it was asked for).
type fake struct {
	viewtest.Host
	bar     *Bar
	content fyne.CanvasObject

	pending, failed int
	lastSync        time.Time
	unfinished      []storage.OutboxRow
	health          Health

	syncing bool
	banner  []bool        // the sign-in banner shown (true) or hidden, in order
	every   time.Duration // the period the bar asked to be refreshed at
	tick    func()
}

// newFake is the bar of conn at the bottom of a test window as wide as the
// app's, its first refresh done.
func newFake(t *testing.T, conn Connection) *fake {
	t.Helper()
	test.NewTempApp(t)
	f := &fake{health: Health{TokenValidUntil: fixedNow.Add(time.Hour), Receiver: "on 127.0.0.1:8090"}}
	if conn.Health == nil {
		conn.Health = func() Health { return f.health }
	}
	f.bar = New(conn, f, f)
	f.content = f.bar.Content()
	f.Win = test.NewTempWindow(t, f.content)
	f.Win.Resize(fyne.NewSize(1280, 60))
	f.bar.Refresh()
	return f
}

// demo is the bar of the built-in sandbox.
func demo(t *testing.T) *fake {
	return newFake(t, Connection{Service: "http://127.0.0.1:9/", Demo: true})
}

func (f *fake) OutboxSummary(context.Context) (int, int) { return f.pending, f.failed }
func (f *fake) LastSync(context.Context) time.Time       { return f.lastSync }
func (f *fake) UnfinishedOutbox(context.Context) ([]storage.OutboxRow, error) {
	return f.unfinished, nil
}

func (f *fake) Every(period time.Duration, g func()) { f.every, f.tick = period, g }
func (f *fake) Syncing() bool                        { return f.syncing }
func (f *fake) SignInRefused(on bool)                { f.banner = append(f.banner, on) }

// says is the bar as a person reads it: the texts of the labels it shows,
// in order, " | " between them.
func (f *fake) says() string {
	var out []string
	viewtest.Walk(f.content, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && l.Text != "" {
			out = append(out, l.Text)
		}
	})
	return strings.Join(out, " | ")
}

// drawn is the text o draws, as the renderer has it (cut with "…" where
// the room runs out).
func drawn(o fyne.CanvasObject) string {
	var out []string
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if t, ok := c.(*canvas.Text); ok && t.Text != "" {
			out = append(out, t.Text)
		}
	})
	return strings.Join(out, " ")
}
