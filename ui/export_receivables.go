package ui

import (
	"fmt"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/ui/receivables"
)

// receivablesTable is the receivables view's rows as it filters them now,
// as a table to export. Each amount keeps its own currency's format in
// Excel (an invoice list mixes currencies) and its currency beside it; no
// total is written, since a sum down the column would add yen to dollars.
func receivablesTable(v *receivables.View) export.Table {
	cols, rows := v.Table()
	out := make([]export.Column, len(cols))
	for i, c := range cols {
		out[i] = export.Column{Title: c.Title, Kind: exportKind(c.Type)}
		if c.Type == receivables.Text {
			out[i].Width = max(10, float64(c.Width)/8) // the view's pixels, in characters
		}
	}
	return export.FromRows("Receivables", out, rows)
}

func exportKind(t receivables.ColumnType) export.Kind {
	switch t {
	case receivables.Money:
		return export.Money
	case receivables.Date:
		return export.Date
	case receivables.Days:
		return export.Number
	}
	return export.Text
}

// showExportReceivables is the receivables window's Export…: its rows as
// filtered, to CSV or Excel, as File › Export list… does for the list.
func (d *Desk) showExportReceivables(rw *receivablesWindow) { d.showExport(receivablesExport(rw)) }

// receivablesExport is the export of what the receivables window shows now.
func receivablesExport(rw *receivablesWindow) exportSpec {
	t := receivablesTable(rw.view)
	s := exportSpec{win: rw.win, title: "Export receivables", noun: "invoices", one: "invoice", file: "receivables", closed: rw.closed,
		empty: "The view shows no invoices: there is nothing to export. Choose other filters first.",
		table: t}
	s.what = fmt.Sprintf("Exports the %s the view shows now%s, in its order.", s.rows(t.Len), rw.view.Narrowed())
	return s
}
