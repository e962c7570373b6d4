package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// FitText is a one-line hint shown whole or not at all: where the list is
// too narrow for it, "Tick rows to accept or re…" helps nobody.
type FitText struct {
	widget.BaseWidget
	Label *widget.Label
}

// NewFitText is text as a FitText.
func NewFitText(text string) *FitText {
	f := &FitText{Label: widget.NewLabel(text)}
	f.ExtendBaseWidget(f)
	return f
}

func (f *FitText) CreateRenderer() fyne.WidgetRenderer { return &fitTextRenderer{f} }

type fitTextRenderer struct{ f *FitText }

func (r *fitTextRenderer) Layout(s fyne.Size) {
	l := r.f.Label
	whole := l.MinSize().Width
	l.Move(fyne.NewPos(s.Width-whole, 0)) // against the trailing edge, beside the buttons it explains
	l.Resize(fyne.NewSize(whole, s.Height))
	if fits := whole <= s.Width; fits != l.Visible() {
		ShowIf(fits, l)
	}
}

// MinSize asks for no width: the hint gives way to everything beside it.
func (r *fitTextRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.f.Label.MinSize().Height)
}

func (r *fitTextRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.Label} }
func (r *fitTextRenderer) Refresh()                     { r.f.Label.Refresh(); r.Layout(r.f.Size()) }
func (r *fitTextRenderer) Destroy()                     {}
