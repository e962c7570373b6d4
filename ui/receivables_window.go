package ui

import (
	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/receivables"
)

// The receivables view opens in a window of its own (View › Receivables),
// beside the list. It reads the replica (the store is its Source) and is
// read again as the replica changes: a notification that moves an
// invoice, or the invoices of finished work fetched after a sync.

// receivablesWindow is the view's window, while open.
type receivablesWindow struct {
	win    fyne.Window
	view   *receivables.View
	closed chan struct{} // closed with the window: ends its export
}

// showReceivables opens the receivables view, or brings it forward.
func (d *Desk) showReceivables() {
	if d.recvWin != nil {
		d.recvWin.win.RequestFocus()
		return
	}
	w := dialogs.NewWindow(d.app, "Receivables — Work Order Desk")
	rw := &receivablesWindow{win: w, closed: make(chan struct{})}
	rw.view = receivables.New(d.store, receivables.Options{Now: format.Now, Background: d.deps.Background, Do: d.do,
		Open: func(id int64) {
			d.list.Open(id)
			d.win.RequestFocus()
		},
		Export: func() { d.exports.Show(receivablesExport(rw)) }})
	v := rw.view
	w.SetContent(v.Content())
	closeOnCtrlW(w)
	w.Resize(d.sideWindowSize())
	d.recvWin = rw
	w.SetOnClosed(func() {
		close(rw.closed)
		if d.recvWin == rw {
			d.recvWin = nil
		}
	})
	v.Reload()
	w.Show()
}

// Receivables is the receivables window and view, or nil when not open.
func (d *Desk) Receivables() (fyne.Window, *receivables.View) {
	if d.recvWin == nil {
		return nil, nil
	}
	return d.recvWin.win, d.recvWin.view
}

// receivablesChanged reads the view again after the replica changed.
func (d *Desk) receivablesChanged() {
	if d.recvWin != nil {
		d.recvWin.view.Reload()
	}
}
