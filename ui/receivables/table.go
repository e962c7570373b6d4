package receivables

import (
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// ColumnType says what a column's values are, for whoever writes them out
// (an export keeps dates as dates and money as numbers).
type ColumnType int

const (
	Text  ColumnType = iota // string
	Money                   // api.Money
	Date                    // time.Time, or nil when there is none
	Days                    // int, or nil when unknown
)

// Column is one column of the receivables table. Width is its
// comfortable width on screen, Min the narrowest it is shrunk to in a
// narrow window (ColumnWidths); Short is its title where Title does not
// fit.
type Column struct {
	Title      string
	Type       ColumnType
	Width, Min float32
	Short      string
}

// Columns are the table's columns, in order. Their Mins and the padding
// between them fit a window 1024 px wide (1016 inside its padding).
var Columns = []Column{
	{Title: "Work order", Type: Text, Width: 96, Min: 88},
	{Title: "Customer", Type: Text, Width: 170, Min: 96},
	{Title: "Status", Type: Text, Width: 150, Min: 98},
	{Title: "Invoice", Type: Text, Width: 120, Min: 110},
	{Title: "Amount", Type: Money, Width: 100, Min: 84},
	{Title: "Currency", Type: Text, Width: 76, Min: 72},
	{Title: "Submitted", Type: Date, Width: 100, Min: 90},
	{Title: "Age (days)", Type: Days, Width: 86, Min: 56, Short: "Days"},
	{Title: "Auth number", Type: Text, Width: 110, Min: 98, Short: "Auth no."},
	{Title: "Check number", Type: Text, Width: 116, Min: 90, Short: "Check no."},
	{Title: "Paid", Type: Date, Width: 100, Min: 90},
}

// Table is the rows as filtered, as typed values under Columns: what the
// person sees, for an export.
func (v *View) Table() ([]Column, [][]any) {
	out := make([][]any, len(v.rows))
	for i, r := range v.rows {
		out[i] = v.values(r)
	}
	return Columns, out
}

func (v *View) values(r api.Receivable) []any {
	var age any
	if d, ok := r.Age(v.at); ok {
		age = d
	}
	return []any{r.WorkOrderNumber, r.Customer.Name, r.Status.StatusWords(), r.InvoiceNumber, r.Amount,
		r.Amount.Currency, dateOrNil(r.SubmittedOn()), age, r.AuthNumber, r.CheckNumber, dateOrNil(r.PaidDate)}
}

func dateOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

func (v *View) newTable() *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return len(v.rows), len(Columns) },
		func() fyne.CanvasObject { return container.New(cellLayout{}, widget.NewLabel("")) },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*fyne.Container).Objects[0].(*widget.Label)
			if id.Row >= len(v.rows) {
				l.SetText("")
				return
			}
			r := v.rows[id.Row]
			vals := v.values(r)
			l.Alignment = fyne.TextAlignLeading
			l.Importance = widget.MediumImportance
			l.Truncation = fyne.TextTruncateEllipsis
			switch Columns[id.Col].Type {
			case Money:
				l.Alignment = fyne.TextAlignTrailing
			case Days:
				l.Alignment = fyne.TextAlignTrailing
			}
			if id.Col == 2 {
				l.Importance = statusImportance(r.Status)
			}
			l.SetText(cellText(vals[id.Col]))
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject {
		return container.New(cellLayout{bold: true}, widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*fyne.Container).Objects[0].(*widget.Label)
		if id.Col >= 0 && id.Col < len(Columns) {
			l.SetText(v.header(id.Col))
		}
	}
	for i, c := range Columns {
		v.widths[i] = c.Width
		t.SetColumnWidth(i, c.Width)
	}
	t.OnSelected = func(id widget.TableCellID) {
		if v.opts.Open != nil && id.Row >= 0 && id.Row < len(v.rows) {
			v.opts.Open(v.rows[id.Row].WorkOrderId)
		}
		t.UnselectAll()
	}
	return t
}

// header is column col's title, or its short one where the title does
// not fit the column's width now.
func (v *View) header(col int) string {
	c := Columns[col]
	if c.Short == "" {
		return c.Title
	}
	pad := compactTheme{}.Size(theme.SizeNameInnerPadding) * 2
	if fyne.MeasureText(c.Title, theme.TextSize(), fyne.TextStyle{Bold: true}).Width+pad > v.widths[col] {
		return c.Short
	}
	return c.Title
}

// setWidth gives column col its width on screen (fitColumns).
func (v *View) setWidth(col int, w float32) {
	v.widths[col] = w
	v.table.SetColumnWidth(col, w)
}

func statusImportance(s api.InvoiceStatus) widget.Importance {
	if !s.Known() {
		return widget.WarningImportance // not known to be billed nor paid: look
	}
	switch s {
	case api.InvoiceDisputed:
		return widget.DangerImportance
	case api.InvoicePaid:
		return widget.SuccessImportance
	case api.InvoiceSubmitted, api.InvoiceAuthorized:
		return widget.MediumImportance
	}
	return widget.LowImportance
}

// cellText writes a typed value as the table shows it: dates in the local
// time zone, money with its currency's minor units.
func cellText(x any) string {
	switch x := x.(type) {
	case nil:
		return "—"
	case string:
		if x == "" {
			return "—"
		}
		return x
	case api.Money:
		return x.Format()
	case time.Time:
		return x.Local().Format("2 Jan 2006")
	case int:
		return strconv.Itoa(x)
	}
	return fmt.Sprint(x)
}
