package receivables

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
)

// Export… is there only when the opener exports, and hands it the rows as
// filtered; Narrowed says, for its dialog, which filters keep them.
func TestExportButtonAndNarrowed(t *testing.T) {
	v, w := open(t, world(), fyne.NewSize(1280, 800))
	if b := exportButton(w.Content()); b != nil {
		t.Error("an Export… button with no one to export")
	}
	if got := v.Narrowed(); got != "" {
		t.Errorf("unfiltered, Narrowed = %q", got)
	}

	var rows [][]any
	v = New(world(), Options{Now: func() time.Time { return now }, Background: func(g func()) { g() }, Do: func(g func()) { g() },
		Export: func() { _, rows = v.Table() }})
	w = test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1280, 800))
	v.Reload()
	v.customerSel.SetSelected(sakura.Name)
	v.statusSel.SetSelected(outstanding)
	v.ageSel.SetSelected(api.Age61to90.String())
	b := exportButton(w.Content())
	if b == nil {
		t.Fatal("no Export… button")
	}
	test.Tap(b)
	if len(rows) != 1 || rows[0][0] != "SMJ73104" {
		t.Errorf("Export… was handed %v", rows)
	}
	if got, want := v.Narrowed(), " (customer Sakura Mart Japan, status Outstanding, age 61–90 days)"; got != want {
		t.Errorf("Narrowed = %q, want %q", got, want)
	}
}

// ExportTable is the rows as filtered, each column typed as the view
// types it (an amount as money in its own currency, a date as a date,
// the age as a number, the rest as text as wide as the view shows it),
// and no totals row: a sum down the column would add yen to dollars.
func TestExportTableTypesEachColumn(t *testing.T) {
	v, _ := open(t, world(), fyne.NewSize(1280, 800))
	v.statusSel.SetSelected(outstanding)
	tb := v.ExportTable()
	cols, want := v.Table()
	if tb.Sheet != "Receivables" || len(tb.Columns) != len(cols) || tb.Len != len(want) || len(want) == 0 {
		t.Fatalf("sheet %q, %d columns, %d rows; the view has %d columns, %d rows", tb.Sheet, len(tb.Columns), tb.Len, len(cols), len(want))
	}
	kinds := map[string]export.Kind{"Work order": export.Text, "Amount": export.Money, "Currency": export.Text, "Submitted": export.Date, "Age (days)": export.Number, "Paid": export.Date}
	for i, c := range tb.Columns {
		if c.Title != cols[i].Title {
			t.Errorf("column %d is %q, the view's %q", i, c.Title, cols[i].Title)
		}
		if k, ok := kinds[c.Title]; ok && c.Kind != k {
			t.Errorf("column %q is of kind %v, want %v", c.Title, c.Kind, k)
		}
		if c.Kind == export.Text && c.Width < 10 {
			t.Errorf("column %q is %v characters wide", c.Title, c.Width)
		}
	}
	var got [][]any
	if err := tb.Rows(context.Background(), func(r []any) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the table yields %d rows, the view shows %d", len(got), len(want))
	}
	for i := range want {
		if got[i][0] != want[i][0] || got[i][4] != want[i][4] {
			t.Errorf("row %d is %v, the view's %v", i, got[i], want[i])
		}
	}
}

func exportButton(o fyne.CanvasObject) *widget.Button {
	var found *widget.Button
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch c := o.(type) {
		case *widget.Button:
			if c.Text == "Export…" {
				found = c
			}
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch)
			}
		}
	}
	walk(o)
	return found
}
