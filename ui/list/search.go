package list

import (
	"context"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
)

// SearchEntry is the list's search box: Enter opens the first match and the
// Down key moves into the list, so a person can find and open a work order
// without the mouse; Esc clears the search and the list shows everything.
type SearchEntry struct {
	widget.Entry
	onEnter func()
	onDown  func()
	onFocus func()
	// window runs the window's shortcut s, if it is one (Window.Shortcut).
	window func(s fyne.Shortcut) bool
}

func (e *SearchEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.onFocus != nil {
		e.onFocus()
	}
}

func newSearchEntry() *SearchEntry {
	e := &SearchEntry{}
	e.ExtendBaseWidget(e)
	return e
}

func (e *SearchEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.onEnter != nil {
			e.onEnter()
			return
		}
	case fyne.KeyDown:
		if e.onDown != nil {
			e.onDown()
			return
		}
	case fyne.KeyEscape:
		if e.Text != "" {
			e.SetText("") // OnChanged runs the query again
		}
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut passes the window's shortcuts on (a detail tab, an
// action) while the search box has the keyboard.
func (e *SearchEntry) TypedShortcut(s fyne.Shortcut) {
	if e.window == nil || !e.window(s) {
		e.Entry.TypedShortcut(s)
	}
}

// lister reads the list's length and first page for a query, and shows
// only the answer to the newest: run reads off the main goroutine (each
// keystroke in the search box), now on it (a filter, a sort, a reload,
// which then show at once, as before). A query overtaken by a newer one is
// cancelled, and its answer, if any, dropped. When Background runs work at
// once (tests), run's answer is shown before it returns.
type lister struct {
	store      Replica
	background func(func())
	do         func(func())
	gen        atomic.Uint64
	// Main goroutine only: the newest query's cancel, and the newest run
	// whose answer is on screen (shown == gen: the list is up to date).
	cancel context.CancelFunc
	shown  uint64
}

// listAnswer is what the table needs to show a query: its length and first page.
type listAnswer struct {
	total    int
	first    []storage.Row
	assigned map[int64]storage.Assignees // who the first page's (and the held) work orders are assigned to
	held     map[int64]storage.Row       // the rows of q.Held
	err      error
}

// warmSearchAfter is when, after the window opens, the in-memory search
// index is built: built at once, it delayed the first frame by a third on
// two cores (740 ms instead of 500 at 50,000 work orders).
const warmSearchAfter = 2 * time.Second

func newLister(store Replica, background, do func(func())) *lister {
	l := &lister{store: store, background: background, do: do}
	// Built while the person reads the list, or as they go to the search
	// box (warm), so that the first keystroke finds it ready.
	time.AfterFunc(warmSearchAfter, l.warm)
	return l
}

// warm builds the in-memory search index in the background, if not yet.
func (l *lister) warm() { l.store.WarmSearch() }

// run reads q's length and its first pageSize rows in the background and
// calls show with them on the main goroutine, unless a newer query started
// meanwhile.
func (l *lister) run(q storage.ListQuery, show func(listAnswer)) { l.runTimed(q, nil, show) }

// runTimed is run, adding what the read took to cost when not nil.
func (l *lister) runTimed(q storage.ListQuery, cost *atomic.Int64, show func(listAnswer)) {
	gen, ctx := l.next()
	ready := make(chan listAnswer, 1)
	deliver := func() {
		select {
		case a := <-ready:
			if gen == l.gen.Load() {
				l.shown = gen
				show(a)
			}
		default: // already shown, or not ready yet
		}
	}
	l.background(func() {
		if gen != l.gen.Load() {
			return // overtaken before it began
		}
		start := time.Now()
		a := l.fetch(ctx, q)
		if cost != nil {
			cost.Add(int64(time.Since(start)))
		}
		ready <- a
		l.do(deliver)
	})
	deliver()
}

// now reads q's length and first page on the calling (main) goroutine and
// shows them at once; a query still running in the background is dropped.
func (l *lister) now(q storage.ListQuery, show func(listAnswer)) {
	gen, ctx := l.next()
	a := l.fetch(ctx, q)
	l.shown = gen
	show(a)
}

// upToDate reports whether the newest query's answer is the one shown
// (main goroutine only).
func (l *lister) upToDate() bool { return l.shown == l.gen.Load() }

// next starts a query: newer than any before, whose context is cancelled
// when the next starts.
func (l *lister) next() (uint64, context.Context) {
	if l.cancel != nil {
		l.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	return l.gen.Add(1), ctx
}

func (l *lister) fetch(ctx context.Context, q storage.ListQuery) listAnswer {
	q.Limit, q.Offset = pageSize, 0
	rows, n, err := l.store.ListAndCount(ctx, q)
	a := listAnswer{total: n, first: rows, err: err}
	if err == nil {
		a.held, a.err = l.store.RowsOf(ctx, q.Held)
	}
	if a.err == nil {
		a.assigned, a.err = l.store.AssigneesOf(ctx, append(RowIDs(rows), q.Held...))
	}
	return a
}
