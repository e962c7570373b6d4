package exporting

import (
	"fmt"

	"fyne.io/fyne/v2"
)

// ReceivablesExport is the receivables window's Export…, shown over its
// window win: view's rows as filtered, to CSV or Excel, as File › Export
// list… does for the list. closed is closed with the window, which ends
// the export.
func ReceivablesExport(win fyne.Window, view Receivables, closed <-chan struct{}) Spec {
	t := view.ExportTable()
	s := Spec{win: win, title: "Export receivables", noun: "invoices", one: "invoice", file: "receivables", closed: closed,
		empty: "The view shows no invoices: there is nothing to export. Choose other filters first.",
		table: t}
	s.what = fmt.Sprintf("Exports the %s the view shows now%s, in its order.", s.rows(t.Len), view.Narrowed())
	return s
}
