package xwidget

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TickBox is a check box for ticking a row of a list (for bulk actions).
// Unlike Fyne's Check it takes no keyboard focus, so Tab from the list does
// not walk every row's box: the list ticks its highlighted row with Space
// itself. A tap ticks or unticks it and tells onChanged.
type TickBox struct {
	widget.BaseWidget
	Checked   bool
	onChanged func(bool)
	img       *canvas.Image
}

// NewTickBox makes an unticked box that tells changed of each tap.
func NewTickBox(changed func(bool)) *TickBox {
	t := &TickBox{onChanged: changed, img: canvas.NewImageFromResource(theme.CheckButtonIcon())}
	t.img.FillMode = canvas.ImageFillContain
	t.ExtendBaseWidget(t)
	return t
}

// SetChecked shows on without telling onChanged (a row drawn, not ticked).
func (t *TickBox) SetChecked(on bool) {
	if t.Checked != on {
		t.Checked = on
		t.Refresh()
	}
}

// Ticked reports whether the box is ticked (for the real-window driver).
func (t *TickBox) Ticked() bool { return t.Checked }

func (t *TickBox) Tapped(*fyne.PointEvent) {
	t.Checked = !t.Checked
	t.Refresh()
	if t.onChanged != nil {
		t.onChanged(t.Checked)
	}
}

func (t *TickBox) MinSize() fyne.Size {
	pad := t.Theme().Size(theme.SizeNameInnerPadding)
	return fyne.NewSquareSize(t.Theme().Size(theme.SizeNameInlineIcon) + 2*pad)
}

func (t *TickBox) CreateRenderer() fyne.WidgetRenderer { return &tickBoxRenderer{t} }

type tickBoxRenderer struct{ t *TickBox }

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
