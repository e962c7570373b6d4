package arrange

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A row of buttons wraps where the width runs out, asks only for its
// widest button's width, and says when its number of rows changed.
func TestAWrapRowWrapsAndSaysSo(t *testing.T) {
	test.NewTempApp(t)
	a, b, c := widget.NewButton("Check in", nil), widget.NewButton("Pause", nil), widget.NewButton("Check out", nil)
	row := NewWrapRow(a, b, c)
	told := 0
	row.Layout.(*WrapRow).OnRowsChanged = func() { told++ }

	widest := max(a.MinSize().Width, b.MinSize().Width, c.MinSize().Width)
	if w := row.MinSize().Width; w != widest {
		t.Errorf("the row asks for %.0f px, want its widest button's %.0f", w, widest)
	}
	row.Resize(fyne.NewSize(1000, 100))
	if a.Position().Y != c.Position().Y {
		t.Error("three buttons wrapped on a wide row")
	}
	row.Resize(fyne.NewSize(widest+1, 100))
	if c.Position().Y <= a.Position().Y {
		t.Error("the buttons did not wrap on a narrow row")
	}
	if h := row.MinSize().Height; h < 2*a.MinSize().Height {
		t.Errorf("a wrapped row asks for %.0f px of height", h)
	}
	if told == 0 {
		t.Error("the row did not say its rows changed")
	}
}

func TestShowIfAndSetEnabled(t *testing.T) {
	test.NewTempApp(t)
	r, l := canvas.NewRectangle(nil), widget.NewLabel("x")
	ShowIf(false, r, l)
	if r.Visible() || l.Visible() {
		t.Error("ShowIf(false) left them shown")
	}
	ShowIf(true, r, l)
	if !r.Visible() || !l.Visible() {
		t.Error("ShowIf(true) left them hidden")
	}
	b := widget.NewButton("Save", nil)
	SetEnabled(b, false)
	if !b.Disabled() {
		t.Error("SetEnabled(false) left it enabled")
	}
	SetEnabled(b, true)
	if b.Disabled() {
		t.Error("SetEnabled(true) left it disabled")
	}
}

// Labelled fields sit side by side where every field has its minimum
// beside the labels, and stack, each label above its field, where not;
// they never ask for more than the widest label or field.
func TestFieldsStackWhereTheWidthRunsOut(t *testing.T) {
	test.NewTempApp(t)
	num, date := widget.NewLabel("Invoice number"), widget.NewLabel("Invoice date")
	e1 := widget.NewEntry()
	wide := canvas.NewRectangle(nil) // a field that needs 180 px, as a whole date does
	wide.SetMinSize(fyne.NewSize(180, 36))
	box := NewFields(num, e1, date, wide)
	told := 0
	box.Layout.(*Fields).OnStackedChanged = func() { told++ }

	least := max(num.MinSize().Width, date.MinSize().Width, 180)
	if w := box.MinSize().Width; w != least {
		t.Errorf("the fields ask for %.0f px, want the widest label or field's %.0f", w, least)
	}
	box.Resize(fyne.NewSize(600, 200))
	if e1.Position().Y != num.Position().Y || e1.Position().X <= num.Position().X {
		t.Errorf("on a wide pane a field is not beside its label: label at %v, field at %v", num.Position(), e1.Position())
	}
	box.Resize(fyne.NewSize(least+1, 200))
	if e1.Position().Y <= num.Position().Y || e1.Position().X != 0 {
		t.Errorf("on a narrow pane a field is not under its label: label at %v, field at %v", num.Position(), e1.Position())
	}
	if e1.Size().Width != least+1 {
		t.Errorf("a stacked field is %.0f px wide, want the whole %.0f", e1.Size().Width, least+1)
	}
	if h := box.MinSize().Height; h < num.MinSize().Height+e1.MinSize().Height+date.MinSize().Height+36 {
		t.Errorf("stacked fields ask for %.0f px of height", h)
	}
	if told == 0 {
		t.Error("the fields did not say they stacked")
	}
}
