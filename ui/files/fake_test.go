package files

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) { viewtest.Main(m, func() time.Time { return now.get() }) }

// now is the window's clock in these tests: fixedNow unless a test moves it.
var now = &clock{at: fixedNow}

type clock struct {
	mu sync.Mutex
	at time.Time
}

func (c *clock) get() time.Time         { c.mu.Lock(); defer c.mu.Unlock(); return c.at }
func (c *clock) set(t time.Time)        { c.mu.Lock(); c.at = t; c.mu.Unlock() }
func setNow(t *testing.T, at time.Time) { now.set(at); t.Cleanup(func() { now.set(fixedNow) }) }

// fake is the panel's Host and Outbox: a window on Fyne's test driver,
// writes run in order on a goroutine of their own (held while hold is
// open), work handed back to the main goroutine queued until flush, and a
// record of what the person was told.
type fake struct {
	viewtest.Host
	t *testing.T

	mu      sync.Mutex
	later   []func()
	hold    chan struct{} // while open, writes wait
	lastW   chan struct{}
	rows    []storage.OutboxRow
	opened  []string // links handed to the browser
	openErr error
	body    string // what Download writes
	closed  chan struct{}
	offline bool
}

func newFake(t *testing.T) *fake {
	test.NewTempApp(t)
	f := &fake{t: t, closed: make(chan struct{}), body: "%PDF-1.4 receipt"}
	f.Win = test.NewTempWindow(t, widget.NewLabel(""))
	f.Win.Resize(fyne.NewSize(800, 600))
	return f
}

func (f *fake) Closed() <-chan struct{} { return f.closed }
func (f *fake) Connected() bool         { return !f.offline }
func (f *fake) Background(g func())     { g() } // inline, as the window's tests run it
func (f *fake) Do(g func()) {
	f.mu.Lock()
	f.later = append(f.later, g)
	f.mu.Unlock()
}

// Write runs work after every earlier write, on a goroutine (waiting while
// hold is open), and hands done back through Do.
func (f *fake) Write(work func(context.Context) error, done func(error)) {
	prev, next := f.lastW, make(chan struct{})
	f.lastW = next
	hold := f.hold
	go func() {
		defer close(next)
		if prev != nil {
			<-prev
		}
		if hold != nil {
			<-hold
		}
		err := work(context.Background())
		f.Do(func() { done(err) })
	}()
}

func (f *fake) OpenURL(link api.DownloadURL) error {
	if f.openErr != nil {
		return f.openErr
	}
	f.opened = append(f.opened, link.URL)
	return nil
}

func (f *fake) Download(_ context.Context, _ api.DownloadURL, w io.Writer, progress func(done, total int64)) error {
	n, err := io.WriteString(w, f.body)
	progress(int64(n), int64(n))
	return err
}

func (f *fake) OutboxRows(_ context.Context, woID int64) ([]storage.OutboxRow, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []storage.OutboxRow
	for _, r := range f.rows {
		if len(r.WorkOrderIds) > 0 && r.WorkOrderIds[0] == woID {
			out = append(out, r)
		}
	}
	return out, nil
}

// flush runs what was handed back to the main goroutine.
func (f *fake) flush() {
	for {
		f.mu.Lock()
		q := f.later
		f.later = nil
		f.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, g := range q {
			g()
		}
	}
}

// waitFor flushes until ok holds, failing after a generous deadline.
func (f *fake) waitFor(what string, ok func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		f.flush()
		if ok() {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// links hands out links valid for 15 minutes from the clock, counting them.
type links struct {
	n       int
	refuse  error
	nameFor string
}

func (l *links) fetch(context.Context) (api.DownloadURL, error) {
	l.n++
	if l.refuse != nil {
		return api.DownloadURL{}, l.refuse
	}
	return api.DownloadURL{URL: "https://files.example/" + l.nameFor + "?sig=" + strings.Repeat("x", l.n), ExpiresAt: format.Now().Add(15 * time.Minute)}, nil
}

var errNoSuchFile = &api.Error{StatusCode: 404, Code: 4004, Message: "The attachment does not exist."}

// texts is all the text of labels and buttons under o.
func texts(o fyne.CanvasObject) string { return viewtest.Texts(o) }

// button finds a visible button by its text under o.
func button(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	found := viewtest.Button(o, text)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}
