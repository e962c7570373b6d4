package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// harness is the app as a person meets it in demo mode: the sandbox (the
// one sanctioned fake of the service), a real replica, outbox and sync, and
// the window on Fyne's test driver.
type harness struct {
	t      *testing.T
	mu     sync.Mutex
	queue  []func()      // work handed to the main goroutine, drained by flush
	handed chan struct{} // signalled when work is queued (see waitFor)
	sb     *sandbox.Sandbox
	eng    *storage.Engine
	info   sandbox.ConnectionInfo
	store  *storage.Store
	sender *storage.Sender
	desk   *Desk
	win    fyne.Window
	closed bool
}

// harnessOptions vary the harness for one test.
type harnessOptions struct {
	// service, when set, wraps the sandbox's handler: a test changes what
	// the service answers, e.g. a price list in another currency.
	service func(http.Handler) http.Handler
	// deps, when set, changes what the window is handed (office mode).
	deps func(*Deps)
	// firstSync syncs an empty replica instead of starting from a copy of
	// the synced template (see syncedTemplate).
	firstSync bool
	// dialect is the sandbox's (sandbox.DialectRenamed: where our guesses
	// of the service's field names are wrong); the template was synced in
	// the plain one, so another dialect syncs an empty replica.
	dialect sandbox.Dialect
}

// harnessHealth is what the status bar reports in the harness, as in the
// demo: a token valid for the hour and the loopback receiver (a fixed port,
// since httptest picks a new one each run).
func harnessHealth() Health {
	return Health{TokenValidUntil: fixedNow.Add(time.Hour), Receiver: "on 127.0.0.1:8090"}
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, harnessOptions{})
}

func newHarnessWith(t *testing.T, opts harnessOptions) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	ctx := context.Background()

	sb := demoSandboxIn(t, opts.dialect)
	if opts.dialect != sandbox.DialectPlain {
		opts.firstSync = true
	}
	handler := sb.Handler()
	if opts.service != nil {
		handler = opts.service(handler)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	info := sb.InfoFor(srv.URL + "/")

	path := filepath.Join(t.TempDir(), "replica.db")
	if !opts.firstSync {
		copyTemplate(t, path)
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{
		Connection: api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret},
		Now:        fixedClock,
		ManualSend: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if opts.firstSync {
		if err := eng.SyncNow(ctx, nil); err != nil {
			t.Fatalf("first sync: %v", err)
		}
	}
	h := &harness{t: t, sb: sb, eng: eng, info: info, store: eng.Store, sender: eng.Sender, handed: make(chan struct{}, 1)}

	// The receiver, as in demo mode: signed notifications from the sandbox
	// are verified and applied to the replica.
	v, err := api.NewVerifier(info.CertPEM, api.WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	rcv := httptest.NewServer(eng.Receiver(v, api.ReceiverOptions{}))
	t.Cleanup(rcv.Close)
	sb.SetNotifyURL(rcv.URL)

	deps := Deps{Store: eng.Store, Online: eng, Demo: true, Service: info.BaseURL,
		Background: func(f func()) { f() }, Do: h.enqueue, Customer: sb, Health: harnessHealth}
	if opts.deps != nil {
		opts.deps(&deps)
	}
	h.desk = New(a, deps)
	eng.OnEvent(h.desk.EventReceived)
	h.win = h.desk.Window()
	h.win.Resize(fyne.NewSize(1280, 800))
	h.win.Show()
	t.Cleanup(func() {
		if !h.closed {
			h.win.Close()
		}
	})
	return h
}

// close closes the window as its close button does (Fyne's test driver
// cannot close a window twice).
func (h *harness) close() {
	h.closed = true
	h.win.Close()
}

// send delivers everything queued in the outbox, as the background sender
// would, and lets the window catch up.
func (h *harness) send() {
	h.t.Helper()
	if _, err := h.sender.SendReady(context.Background()); err != nil {
		h.t.Fatalf("sending the outbox: %v", err)
	}
	h.flush()
}

func (h *harness) enqueue(f func()) {
	h.mu.Lock()
	h.queue = append(h.queue, f)
	h.mu.Unlock()
	select {
	case h.handed <- struct{}{}:
	default: // a signal is already waiting
	}
}

// flush runs, on the test goroutine, what other goroutines handed the
// window (fyne.Do in the app).
func (h *harness) flush() {
	for {
		h.mu.Lock()
		q := h.queue
		h.queue = nil
		h.mu.Unlock()
		if len(q) == 0 {
			return
		}
		for _, f := range q {
			f()
		}
	}
}

// waitLimit bounds every wait of the harness: long, so that a busy machine
// makes a test slower, never wrong; a wait that ends ends as soon as its
// condition holds.
const waitLimit = 30 * time.Second

// waitFor flushes until ok holds (notifications travel over HTTP on their
// own goroutines), failing the test after waitLimit. It wakes as soon as
// work is handed to the window, and every 20 ms for what changes without
// that (the replica, written in the background).
func (h *harness) waitFor(what string, ok func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(waitLimit)
	poll := time.NewTimer(0)
	defer poll.Stop()
	for {
		h.flush()
		if ok() {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		poll.Reset(20 * time.Millisecond)
		select {
		case <-h.handed:
		case <-poll.C:
		}
	}
}

// menuItem finds a main-menu item by its label.
func (h *harness) menuItem(label string) *fyne.MenuItem {
	h.t.Helper()
	for _, m := range h.win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	h.t.Fatalf("no menu item %q", label)
	return nil
}

// rows is every row of the list, in the order the table shows them.
func (h *harness) rows() []storage.Row {
	// The list's query runs in the background (a goroutine in
	// newBackgroundHarness): wait for the answer to the newest one.
	h.waitFor("the list to show its newest query", h.desk.list.UpToDate)
	out := make([]storage.Row, 0, h.desk.list.Len())
	for i := 0; i < h.desk.list.Len(); i++ {
		if r, ok := h.desk.list.Row(i); ok {
			out = append(out, r)
		}
	}
	return out
}

// create has the service make the work order spec describes (a fixture:
// see sandbox.WorkOrderSpec) and brings it into the replica as the next
// sync does; it returns the work order's row in the list.
func (h *harness) create(spec sandbox.WorkOrderSpec) storage.Row {
	h.t.Helper()
	wo, err := h.sb.CreateWorkOrder(spec)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.eng.SyncNow(context.Background(), nil); err != nil {
		h.t.Fatalf("syncing %s: %v", wo.WorkOrderNumber, err)
	}
	for _, r := range h.rows() {
		if r.Id == wo.WorkOrderId {
			return r
		}
	}
	h.t.Fatalf("%s is not in the list after a sync", wo.WorkOrderNumber)
	return storage.Row{}
}

// rowWhere returns the first listed work order satisfying ok.
func (h *harness) rowWhere(ok func(storage.Row) bool) storage.Row {
	h.t.Helper()
	for _, r := range h.rows() {
		if ok(r) {
			return r
		}
	}
	h.t.Fatal("no work order in the demo world matches")
	return storage.Row{}
}

// rowsWhere returns the first n listed work orders satisfying ok, which sees
// rows in list order and stops being asked once n match (so it may depend
// on earlier picks); fewer than n fails the test.
func (h *harness) rowsWhere(n int, ok func(storage.Row) bool) []storage.Row {
	h.t.Helper()
	var out []storage.Row
	for _, r := range h.rows() {
		if len(out) == n {
			break
		}
		if ok(r) {
			out = append(out, r)
		}
	}
	if len(out) < n {
		h.t.Fatalf("the demo world has %d matching work orders, the test needs %d", len(out), n)
	}
	return out
}

// open selects a work order in the table the way a click on its row does.
func (h *harness) open(id int64) {
	h.t.Helper()
	row := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
	if row < 0 {
		h.t.Fatalf("work order %d is not in the list", id)
	}
	h.desk.list.Table().Select(widget.TableCellID{Row: row, Col: 1} /* Number */)
	h.flush()
}

// selectTab switches the detail view to the tab titled name.
func (h *harness) selectTab(name string) {
	for _, it := range h.desk.detail.appTabs.Items {
		if it.Text == name {
			h.desk.detail.appTabs.Select(it)
			return
		}
	}
	h.t.Fatalf("no tab %q", name)
}

// overlayTexts is the topmost dialog's texts, as drawn (not lower-cased).
func (h *harness) overlayTexts() []string {
	top := h.win.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	return texts(top)
}

// overlayText is all the text in the topmost dialog, "" when none is open.
func (h *harness) overlayText() string {
	// Fyne capitalises error dialogs; compare in lower case.
	return strings.ToLower(strings.Join(h.overlayTexts(), "\n"))
}

// dismissOverlays closes every dialog.
func (h *harness) dismissOverlays() {
	for h.win.Canvas().Overlays().Top() != nil {
		h.win.Canvas().Overlays().Remove(h.win.Canvas().Overlays().Top())
	}
}

// buttonIn finds a button by its text under o (a dialog or the window).
func buttonIn(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	walk(o, func(c fyne.CanvasObject) {
		if b := viewtest.AsButton(c); b != nil && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

// settle lays the window out again, as the desktop driver does frame by
// frame: a word-wrapped label knows its height only once it has its width,
// and Fyne's test canvas (unlike the desktop one) never re-lays out a parent
// whose child's minimum size changed, so pictures would show text on text.
// Resizing the window lays out everything under it.
func (h *harness) settle() {
	size := h.win.Canvas().Size()
	for pass := 0; pass < 2; pass++ {
		h.win.Resize(size.AddWidthHeight(1, 1))
		h.win.Resize(size)
	}
}

// walk visits every object under o, through containers and widget renderers.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			walk(ch, visit)
		}
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(c).Objects() {
			walk(ch, visit)
		}
	}
}

func texts(o fyne.CanvasObject) []string {
	var out []string
	walk(o, func(c fyne.CanvasObject) {
		if l, ok := c.(*widget.Label); ok {
			out = append(out, l.Text)
		} else if b := viewtest.AsButton(c); b != nil {
			out = append(out, b.Text)
		}
	})
	return out
}
