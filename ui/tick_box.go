package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tickBox is the list's check box for bulk actions. Unlike Fyne's Check it
// takes no keyboard focus, so Tab from the list does not walk every row's
// box: the keyboard ticks the highlighted row with Space (woTable). A tap
// ticks or unticks it and tells onChanged.
type tickBox struct {
	widget.BaseWidget
	Checked   bool
	onChanged func(bool)
	img       *canvas.Image
}

func newTickBox(changed func(bool)) *tickBox {
	t := &tickBox{onChanged: changed, img: canvas.NewImageFromResource(theme.CheckButtonIcon())}
	t.img.FillMode = canvas.ImageFillContain
	t.ExtendBaseWidget(t)
	return t
}

// SetChecked shows on without telling onChanged (a row drawn, not ticked).
func (t *tickBox) SetChecked(on bool) {
	if t.Checked != on {
		t.Checked = on
		t.Refresh()
	}
}

// Ticked reports whether the box is ticked (for the real-window driver).
func (t *tickBox) Ticked() bool { return t.Checked }

func (t *tickBox) Tapped(*fyne.PointEvent) {
	t.Checked = !t.Checked
	t.Refresh()
	if t.onChanged != nil {
		t.onChanged(t.Checked)
	}
}

func (t *tickBox) MinSize() fyne.Size {
	pad := t.Theme().Size(theme.SizeNameInnerPadding)
	return fyne.NewSquareSize(t.Theme().Size(theme.SizeNameInlineIcon) + 2*pad)
}

func (t *tickBox) CreateRenderer() fyne.WidgetRenderer { return &tickBoxRenderer{t} }

type tickBoxRenderer struct{ t *tickBox }

func (r *tickBoxRenderer) Layout(size fyne.Size) {
	icon := r.t.Theme().Size(theme.SizeNameInlineIcon)
	r.t.img.Resize(fyne.NewSquareSize(icon))
	r.t.img.Move(fyne.NewPos((size.Width-icon)/2, (size.Height-icon)/2))
}

func (r *tickBoxRenderer) MinSize() fyne.Size { return r.t.MinSize() }

func (r *tickBoxRenderer) Refresh() {
	if r.t.Checked {
		r.t.img.Resource = theme.NewPrimaryThemedResource(theme.CheckButtonCheckedIcon())
	} else {
		r.t.img.Resource = theme.CheckButtonIcon()
	}
	r.t.img.Refresh()
}

func (r *tickBoxRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.img} }
func (r *tickBoxRenderer) Destroy()                     {}
