package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// fitText is a one-line hint shown whole or not at all: where the list is
// too narrow for it, "Tick rows to accept or re…" helps nobody.
type fitText struct {
	widget.BaseWidget
	label *widget.Label
}

func newFitText(text string) *fitText {
	f := &fitText{label: widget.NewLabel(text)}
	f.ExtendBaseWidget(f)
	return f
}

func (f *fitText) CreateRenderer() fyne.WidgetRenderer { return &fitTextRenderer{f} }

type fitTextRenderer struct{ f *fitText }

func (r *fitTextRenderer) Layout(s fyne.Size) {
	l := r.f.label
	whole := l.MinSize().Width
	l.Move(fyne.NewPos(s.Width-whole, 0)) // against the trailing edge, beside the buttons it explains
	l.Resize(fyne.NewSize(whole, s.Height))
	if fits := whole <= s.Width; fits != l.Visible() {
		showIf(fits, l)
	}
}

// MinSize asks for no width: the hint gives way to everything beside it.
func (r *fitTextRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.f.label.MinSize().Height)
}

func (r *fitTextRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.label} }
func (r *fitTextRenderer) Refresh()                     { r.f.label.Refresh(); r.Layout(r.f.Size()) }
func (r *fitTextRenderer) Destroy()                     {}
