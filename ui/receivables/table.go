package receivables

import (
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
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

// Column is one column of the receivables table.
type Column struct {
	Title string
	Type  ColumnType
	Width float32
}

// Columns are the table's columns, in order.
var Columns = []Column{
	{"Work order", Text, 110},
	{"Customer", Text, 180},
	{"Status", Text, 110},
	{"Invoice", Text, 130},
	{"Amount", Money, 110},
	{"Currency", Text, 70},
	{"Submitted", Date, 100},
	{"Age (days)", Days, 80},
	{"Auth number", Text, 110},
	{"Check number", Text, 110},
	{"Paid", Date, 100},
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
	return []any{r.WorkOrderNumber, r.Customer.Name, statusWords(r.Status), r.InvoiceNumber, r.Amount,
		r.Amount.Currency, dateOrNil(r.Submitted), age, r.AuthNumber, r.CheckNumber, dateOrNil(r.PaidDate)}
}

func dateOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// statusWords names an invoice status for people.
func statusWords(s api.InvoiceStatus) string {
	switch s {
	case api.InvoicePendingVerification:
		return "Awaiting verification"
	case "":
		return "Unknown"
	}
	return string(s)
}

func (v *View) newTable() *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return len(v.rows), len(Columns) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
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
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		if id.Col >= 0 && id.Col < len(Columns) {
			l.SetText(Columns[id.Col].Title)
		}
	}
	for i, c := range Columns {
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

func statusImportance(s api.InvoiceStatus) widget.Importance {
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
