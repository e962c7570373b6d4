package ui

import (
	"context"
	"errors"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"fyne.io/fyne/v2/dialog"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/board"
	"github.com/workorderdesk/workdesk/ui/daysheetview"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// The dispatch board opens in a window of its own (View › Dispatch board),
// as big as the person likes beside the list. It reads the replica through
// boardSource and queues through it: offline it plans the same, and what a
// colleague plans reaches it as the replica hears of it.

// boardWindow is the board's window, while open.
type boardWindow struct {
	win   fyne.Window
	board *board.Board
}

// boardSource is the board's Source and Planner over the replica.
type boardSource struct{ store *storage.Store }

func (s boardSource) Week(ctx context.Context, from, to time.Time) (*storage.Week, error) {
	return s.store.Week(ctx, from, to)
}

func (s boardSource) Plan(ctx context.Context, woID, associate, instead int64, start time.Time) error {
	_, err := s.store.PlanVisit(ctx, woID, associate, instead, start)
	return err
}

func (s boardSource) Refusal(ctx context.Context, rowID int64) (board.Refusal, error) {
	r, err := s.store.OutboxRow(ctx, rowID)
	if err != nil {
		return board.Refusal{}, err
	}
	if r.State != storage.OutboxFailed {
		return board.Refusal{}, errors.New("no longer refused")
	}
	held, err := s.store.HeldBehind(ctx, rowID)
	if err != nil {
		return board.Refusal{}, err
	}
	out := board.Refusal{What: r.Summary, Why: r.Error}
	for _, h := range held {
		out.Held = append(out.Held, h.Summary)
	}
	return out, nil
}

// Resolve discards the refused row; dropHeld discards what waits behind
// it first, so none of it goes out in between.
func (s boardSource) Resolve(ctx context.Context, rowID int64, dropHeld bool) error {
	if dropHeld {
		held, err := s.store.HeldBehind(ctx, rowID)
		if err != nil {
			return err
		}
		for _, h := range held {
			if err := s.store.Discard(ctx, h.Id); err != nil {
				return err
			}
		}
	}
	return s.store.Discard(ctx, rowID)
}

// showBoard opens the dispatch board, or brings it forward.
func (d *Desk) showBoard() {
	if d.boardWin != nil {
		d.boardWin.win.RequestFocus()
		return
	}
	w := dialogs.NewWindow(d.app, "Dispatch board — Work Order Desk")
	src := boardSource{d.store}
	b := board.New(src, src, board.Options{Window: w, StatusColor: palette.Status, Now: format.Now,
		Background: d.deps.Background, Do: d.do,
		DaySheet: func(tech int64, from time.Time, days int) { d.showDaySheet(w, tech, from, days) }})
	w.SetContent(b.Content())
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyP, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { b.PlanSelected() })
	closeOnCtrlW(w)
	w.Resize(d.sideWindowSize())
	bw := &boardWindow{win: w, board: b}
	d.boardWin = bw
	w.SetOnClosed(func() {
		if d.boardWin == bw {
			d.boardWin = nil
		}
	})
	b.Reload()
	w.Show()
	b.FocusWaiting()
}

// Board is the dispatch board's window, or nil when it is not open.
func (d *Desk) Board() (fyne.Window, *board.Board) {
	if d.boardWin == nil {
		return nil, nil
	}
	return d.boardWin.win, d.boardWin.board
}

// boardChanged reads the board again after the replica changed.
func (d *Desk) boardChanged() {
	if d.boardWin != nil {
		d.boardWin.board.Reload()
	}
}

// showDaySheet opens a technician's day sheet and calendar (tech 0: the
// first technician) over win: the board's window, or the main one (File ›
// Day sheet…).
func (d *Desk) showDaySheet(win fyne.Window, tech int64, from time.Time, days int) {
	opener := d.deps.OpenURL
	if opener == nil {
		opener = d.app.OpenURL
	}
	domain := ""
	if d.deps.Demo {
		domain = "demo" // the demo's work order numbers are not the service's
	}
	daysheetview.Show(daysheetview.StoreSource(d.store), daysheetview.Options{Window: win, Prefs: d.app.Preferences(),
		Now: format.Now, Background: d.deps.Background, Do: d.do, OpenURL: opener, Domain: domain,
		ShowFilePicker: func(fd *dialog.FileDialog) { dialogs.ShowFilePicker(fd, win) }}, tech, from, days)
}
