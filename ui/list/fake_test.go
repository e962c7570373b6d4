package list

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// The list is tested on a real replica (SQLite, synced from the sandbox's
// demo world, as the window's demo mode has it) and a fake of the window
// around it, which records what the list asked of it.

// fixedNow pins the sandbox world and the list's clock, so that "in 3 h"
// reads the same on every run.
var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return fixedNow }

func TestMain(m *testing.M) { viewtest.Main(m, fixedClock) }

// demoReplica is a replica of its own holding the demo world, its clock
// at fixedNow.
func demoReplica(tb testing.TB) *storage.Store { return viewtest.DemoReplica(tb, fixedClock) }

// syncedReplica is a replica synced from a sandbox of n work orders.
func syncedReplica(tb testing.TB, n int) *storage.Store {
	tb.Helper()
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: n})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	defer func() { srv.Close(); sb.Close() }()
	info := sb.InfoFor(srv.URL + "/")
	store, err := storage.Open(ctx, filepath.Join(tb.TempDir(), "replica.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	client, _ := api.NewClient(info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}))
	if err := storage.NewSyncer(store, client, storage.SyncOptions{}).SyncNow(ctx); err != nil {
		tb.Fatal(err)
	}
	return store
}

// fakeWindow is the window around the list (viewtest.Host, which keeps
// the errors shown): it runs background work at once unless background
// or do are set, and records what the list asked.
type fakeWindow struct {
	viewtest.Host
	background, do func(func())
	opened         []int64
	problems       []error // ListProblem, nil when reading works again
	accepted       [][]int64
	rejected       [][]int64
	assigned       [][]int64
	resorted       int
	shortcuts      []fyne.Shortcut
}

func (w *fakeWindow) Background(f func()) {
	if w.background != nil {
		w.background(f)
		return
	}
	f()
}
func (w *fakeWindow) Do(f func()) {
	if w.do != nil {
		w.do(f)
		return
	}
	f()
}
func (w *fakeWindow) OpenWorkOrder(id int64)          { w.opened = append(w.opened, id) }
func (w *fakeWindow) ListProblem(err error)           { w.problems = append(w.problems, err) }
func (w *fakeWindow) BulkAccept(ids []int64)          { w.accepted = append(w.accepted, ids) }
func (w *fakeWindow) BulkReject(ids []int64)          { w.rejected = append(w.rejected, ids) }
func (w *fakeWindow) BulkAssign(ids []int64)          { w.assigned = append(w.assigned, ids) }
func (w *fakeWindow) Resorted()                       { w.resorted++ }
func (w *fakeWindow) ShortcutLabel(key string) string { return "Ctrl+" + key }
func (w *fakeWindow) Shortcut(s fyne.Shortcut) bool {
	w.shortcuts = append(w.shortcuts, s)
	return false
}

// fakeColleagues marks the work orders in marks as a colleague's changes.
type fakeColleagues struct {
	marks map[int64]storage.ColleagueChange
}

func (c fakeColleagues) ColleagueMarks() func(context.Context) map[int64]storage.ColleagueChange {
	return func(context.Context) map[int64]storage.ColleagueChange {
		out := map[int64]storage.ColleagueChange{}
		for id, m := range c.marks {
			out[id] = m
		}
		return out
	}
}

func (c fakeColleagues) UnseenMarks(m map[int64]storage.ColleagueChange) map[int64]storage.ColleagueChange {
	return m
}

// fixture is the list of a replica in a window of its own, as wide as the
// list pane would be, read once as the window's first frame reads it.
type fixture struct {
	t     testing.TB
	store *storage.Store
	win   *fakeWindow
	v     *View
	w     fyne.Window
	app   fyne.App
}

func newFixture(t testing.TB, store *storage.Store, width float32) *fixture {
	t.Helper()
	return newFixtureIn(t, newApp(t), store, &fakeWindow{}, width)
}

// newApp is a test app in the window's sizes (ui's deskTheme: Fyne's
// default theme, its paddings tighter), which the list's columns are
// measured for.
func newApp(t testing.TB) fyne.App {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(deskSizes{theme.DefaultTheme()})
	return a
}

type deskSizes struct{ fyne.Theme }

func (t deskSizes) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNamePadding:
		return 4
	case theme.SizeNameInnerPadding:
		return 6
	}
	return t.Theme.Size(n)
}

// newFixtureIn is newFixture in app a (its preferences) with window fw;
// setup runs before the list is laid out and read.
func newFixtureIn(t testing.TB, a fyne.App, store *storage.Store, fw *fakeWindow, width float32, setup ...func(*View)) *fixture {
	t.Helper()
	v := New(store, a.Preferences(), fw)
	for _, s := range setup {
		s(v)
	}
	w := test.NewTempWindow(t, v.Content())
	w.SetPadded(false) // the list gets the window's width, as it gets its pane's
	w.Resize(fyne.NewSize(width, 800))
	v.Reload()
	return &fixture{t: t, store: store, win: fw, v: v, w: w, app: a}
}

// rows is every row the list shows, in its order.
func (f *fixture) rows() []storage.Row {
	out := make([]storage.Row, 0, f.v.total)
	for i := 0; i < f.v.total; i++ {
		if r, ok := f.v.rowAt(i); ok {
			out = append(out, r)
		}
	}
	return out
}

// rowOf is the row at which the list shows work order id (-1: none).
func (f *fixture) rowOf(id int64) int {
	for i := 0; i < f.v.total; i++ {
		if r, ok := f.v.rowAt(i); ok && r.Id == id {
			return i
		}
	}
	return -1
}

// cellAt draws the list's cell of row in table column col, at its width.
func (f *fixture) cellAt(row, col int) *Cell {
	c := newCell()
	c.Resize(fyne.NewSize(f.v.widths[f.v.columnAt(col)], c.MinSize().Height))
	f.v.updateCell(widget.TableCellID{Row: row, Col: col}, c)
	return c
}

// walk visits o and everything it shows, depth first.
var walk = viewtest.Walk

func tableCell(row, col int) widget.TableCellID { return widget.TableCellID{Row: row, Col: col} }
