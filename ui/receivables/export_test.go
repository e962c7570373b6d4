package receivables

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
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
