package receivables

import "github.com/workorderdesk/workdesk/export"

// ExportTable is the view's rows as it filters them now, as a table to
// export. Each amount keeps its own currency's format in Excel (an
// invoice list mixes currencies) and its currency beside it; no total is
// written, since a sum down the column would add yen to dollars.
func (v *View) ExportTable() export.Table {
	cols, rows := v.Table()
	out := make([]export.Column, len(cols))
	for i, c := range cols {
		out[i] = export.Column{Title: c.Title, Kind: exportKind(c.Type)}
		if c.Type == Text {
			out[i].Width = max(10, float64(c.Width)/8) // the view's pixels, in characters
		}
	}
	return export.FromRows("Receivables", out, rows)
}

func exportKind(t ColumnType) export.Kind {
	switch t {
	case Money:
		return export.Money
	case Date:
		return export.Date
	case Days:
		return export.Number
	}
	return export.Text
}
