package ui

import (
	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/exporting"
	"github.com/workorderdesk/workdesk/ui/list"
)

// The exports (ui/exporting) are File › Export list… and the receivables
// window's Export…: the window hands each what its view shows now, and
// tells an export's errors in the view's own window.

// listExport is File › Export list…'s export: the list as it is
// searched, filtered and sorted now.
func listExport(d *Desk) exporting.Spec {
	q, n := d.list.Shown()
	return exporting.ListExport(d.win, d.store, listWords{}, q, n)
}

// receivablesExport is the export of what the receivables window shows now.
func receivablesExport(rw *receivablesWindow) exporting.Spec {
	return exporting.ReceivablesExport(rw.win, rw.view, rw.closed)
}

// listWords are the list's words for whom a work order is assigned to,
// which its export keeps.
type listWords struct{}

func (listWords) AssignedText(a storage.Assignees) string { return list.AssignedText(a) }
func (listWords) Partly(a storage.Assignees) string       { return list.Partly(a) }

func (h host) ShowErrorIn(w fyne.Window, err error) { h.d.showErrorIn(w, err) }
