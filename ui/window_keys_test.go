package ui

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestEveryWindowIsOpenedWithDialogKeys: a window opened any other way
// than dialogs.NewWindow would have dialogs that ignore Enter and Esc (the board's
// and receivables' did), so no code of the window's opens one itself.
func TestEveryWindowIsOpenedWithDialogKeys(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewWindow" && !isIdent(sel.X, "dialogs") {
					found = append(found, fset.Position(call.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.HasPrefix(found[0], filepath.Join("dialogs", "escape.go")+":") {
		t.Errorf("windows are opened at %v; only dialogs.NewWindow may open one", found)
	}
}

// TestEveryWindowsDialogsAnswerEnterAndEsc opens the main window, the
// dispatch board and receivables, and in each a question and a message:
// Esc answers no (the callback hears false) and closes, Enter answers
// yes, and closes a message.
func TestEveryWindowsDialogsAnswerEnterAndEsc(t *testing.T) {
	h := newHarness(t)
	h.menuItem("Dispatch board").Action()
	h.menuItem("Receivables").Action()
	h.flush()
	board, _ := h.desk.Board()
	recv, _ := h.desk.Receivables()
	t.Cleanup(func() { board.Close(); recv.Close() })
	for _, w := range []fyne.Window{h.win, board, recv} {
		if !slices.Contains(fyne.CurrentApp().Driver().AllWindows(), w) {
			t.Fatalf("window %q is not open", w.Title())
		}
		c := w.Canvas()
		for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
			var answers []bool
			dialog.NewConfirm("Plan this visit anyway?", "Late for its on-site deadline.", func(ok bool) { answers = append(answers, ok) }, w).Show()
			typeKey(c, key)
			if want := key == fyne.KeyReturn; c.Overlays().Top() != nil || !slices.Equal(answers, []bool{want}) {
				t.Errorf("%s: %s on a question: still open %v, answers %v (want %v)", w.Title(), key, c.Overlays().Top() != nil, answers, want)
			}
			dialogs.Info("Export receivables", "Saved 24 invoices to receivables.xlsx.", w)
			typeKey(c, key)
			if c.Overlays().Top() != nil {
				t.Errorf("%s: %s left a message open", w.Title(), key)
			}
		}
	}
}

// TestTheBoardsDialogsAnswerEnterAndEsc: the dispatch board's own
// dialogs (the refusal, the warning before planning anyway, Plan visit…
// with its time field holding the keyboard) close on Esc without planning,
// and Enter does what the dialog offers.
func TestTheBoardsDialogsAnswerEnterAndEsc(t *testing.T) {
	h := newHarness(t)
	h.menuItem("Dispatch board").Action()
	h.flush()
	win, b := h.desk.Board()
	t.Cleanup(win.Close)
	c := win.Canvas()
	ctx := context.Background()
	wk, err := h.store.Week(ctx, fixedNow.AddDate(0, 0, -7), fixedNow.AddDate(0, 0, 7))
	if err != nil {
		t.Fatal(err)
	}
	var wo storage.Visit
	var tech, stranger storage.Crew
	for _, v := range wk.Waiting {
		if (v.Status != api.StatusAccepted && v.Status != api.StatusNew) || v.BranchId == 0 {
			continue
		}
		wo, tech, stranger = v, storage.Crew{}, storage.Crew{}
		for _, cr := range wk.Crew {
			switch {
			case !cr.Technician():
			case slices.Contains(cr.Branches, wo.BranchId) && tech.Id == 0:
				tech = cr
			case !slices.Contains(cr.Branches, wo.BranchId) && stranger.Id == 0:
				stranger = cr
			}
		}
		if tech.Id != 0 && stranger.Id != 0 {
			break
		}
	}
	if wo.WorkOrderId == 0 || tech.Id == 0 || stranger.Id == 0 {
		t.Fatalf("the demo lacks an accepted work order waiting (%d), a technician of its branch (%d) and one of another (%d)", wo.WorkOrderId, tech.Id, stranger.Id)
	}
	queued := func() int {
		t.Helper()
		rows, err := h.store.UnfinishedOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range rows {
			if r.WorkOrderIds[0] == wo.WorkOrderId {
				n++
			}
		}
		return n
	}
	late := fixedNow.Add(30 * 24 * time.Hour).Truncate(time.Hour).Add(5 * time.Hour) // after its on-site deadline: asked first

	for _, c2 := range []struct {
		what, title string
		open        func()
		key         fyne.KeyName
		queues      bool
	}{
		{"a refusal, Esc", "This visit cannot be planned", func() { b.Drop(wo.WorkOrderId, 0, stranger.Id, late) }, fyne.KeyEscape, false},
		{"a refusal, Enter", "This visit cannot be planned", func() { b.Drop(wo.WorkOrderId, 0, stranger.Id, late) }, fyne.KeyReturn, false},
		{"plan anyway, Esc", "Plan this visit anyway?", func() { b.Drop(wo.WorkOrderId, 0, tech.Id, late) }, fyne.KeyEscape, false},
		{"Plan visit…, Esc in the time", "Plan visit: " + wo.Number, func() { b.Select(wo.WorkOrderId); b.PlanSelected() }, fyne.KeyEscape, false},
		{"plan anyway, Enter", "Plan this visit anyway?", func() { b.Drop(wo.WorkOrderId, 0, tech.Id, late) }, fyne.KeyReturn, true},
	} {
		before := queued()
		c2.open()
		h.flush()
		if got := strings.Join(texts(c.Overlays().Top()), " "); !strings.Contains(got, c2.title) {
			t.Fatalf("%s: the board shows %q, not %q", c2.what, got, c2.title)
		}
		typeKey(c, c2.key)
		h.flush()
		if c.Overlays().Top() != nil {
			t.Errorf("%s: the dialog is still open: %q", c2.what, texts(c.Overlays().Top()))
			c.Overlays().Top().Hide()
			c.Overlays().Remove(c.Overlays().Top())
		}
		if got := queued() > before; got != c2.queues {
			t.Errorf("%s: queued a plan %v, want %v", c2.what, got, c2.queues)
		}
	}
}

// isIdent reports whether e is the name name (a package's, here).
func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
