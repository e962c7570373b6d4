package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// WrapRow lays its objects out left to right at their minimum sizes,
// wrapping to another row where the width runs out. Its minimum width is
// its widest object, never the width it was last given (Fyne's RowWrap
// layout keeps that one, so a pane made narrower could not shrink it), and
// its minimum height the rows its last width needed.
//
// That height is known only once laid out, after the containers above have
// sized themselves by the old one: OnRowsChanged, when set, is asked to lay them
// out again whenever the number of rows changes, so a title that stopped
// wrapping does not leave the lines under it where two rows would end
// (they were drawn over the tabs below).
type WrapRow struct {
	rows          int
	OnRowsChanged func()
}

func NewWrapRow(objs ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: &WrapRow{}, Objects: objs}
}

func (l *WrapRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objs {
		if o.Visible() {
			m := o.MinSize()
			w, h = max(w, m.Width), max(h, m.Height)
		}
	}
	rows := max(1, l.rows)
	return fyne.NewSize(w, float32(rows)*h+float32(rows-1)*theme.Padding())
}

func (l *WrapRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	var h float32
	for _, o := range objs {
		if o.Visible() {
			h = max(h, o.MinSize().Height)
		}
	}
	x, y, rows := float32(0), float32(0), 1
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if x > 0 && x+m.Width > size.Width {
			x, y, rows = 0, y+h+pad, rows+1
		}
		o.Move(fyne.NewPos(x, y+(h-m.Height)/2))
		o.Resize(fyne.NewSize(m.Width, m.Height))
		x += m.Width + pad
	}
	changed := rows != max(1, l.rows) // MinSize assumed max(1, l.rows)
	l.rows = rows
	if changed && l.OnRowsChanged != nil {
		fyne.Do(l.OnRowsChanged) // after this layout, not inside it
	}
}
