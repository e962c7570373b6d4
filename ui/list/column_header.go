package list

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// columnHeader is a list column's header: a button with the column's title
// and, on the column the list is sorted by, an arrow drawn just after the
// title. The arrow is an icon, not a character: "▲" and "▼" are in none of
// the fonts Fyne bundles, and a system without a font that has them
// (Windows under Wine, at least) draws a box instead.
type columnHeader struct {
	widget.BaseWidget
	button *widget.Button
	arrow  *canvas.Image
}

// The arrow is Material's arrow_drop_up or arrow_drop_down at twice the
// text size, as large as a "▲" beside the title. Its triangle spans
// arrowInkStart to arrowInkEnd across its square box and starts a padding
// after the title; the box's blank sides may overlap the title's end and
// lie past the column's edge, where they draw nothing.
const arrowInkStart, arrowInkEnd = 7.0 / 24, 17.0 / 24

func arrowSize() float32 { return 2 * theme.TextSize() }

func newColumnHeader() *columnHeader {
	h := &columnHeader{button: widget.NewButton("", nil), arrow: canvas.NewImageFromResource(nil)}
	h.button.Importance = widget.LowImportance
	h.button.Alignment = widget.ButtonAlignLeading
	h.arrow.FillMode = canvas.ImageFillContain
	h.arrow.Hide()
	h.ExtendBaseWidget(h)
	return h
}

// set shows title and, when sorted, the arrow for the direction (nil: none).
func (h *columnHeader) set(title string, arrow fyne.Resource) {
	if h.button.Text == title && h.arrow.Resource == arrow && h.arrow.Visible() == (arrow != nil) {
		return
	}
	h.button.Text = title
	h.arrow.Resource = arrow
	h.arrow.Hidden = arrow == nil
	h.Refresh()
}

// sortArrow is the arrow of a column the list is sorted by.
func sortArrow(desc bool) fyne.Resource {
	if desc {
		return theme.MenuDropDownIcon()
	}
	return theme.MenuDropUpIcon()
}

func (h *columnHeader) CreateRenderer() fyne.WidgetRenderer { return headerRenderer{h} }

// headerRenderer gives the button the whole cell and puts the arrow right
// after the title, which the button draws in bold inside its padding and
// inset.
type headerRenderer struct{ h *columnHeader }

func (r headerRenderer) Layout(size fyne.Size) {
	r.h.button.Move(fyne.NewPos(0, 0))
	r.h.button.Resize(size)
	s := arrowSize()
	r.h.arrow.Resize(fyne.NewSquareSize(s))
	r.h.arrow.Move(fyne.NewPos(titleEnd(r.h.button.Text)+theme.Padding()-s*arrowInkStart, (size.Height-s)/2))
}

func (r headerRenderer) MinSize() fyne.Size { return r.h.button.MinSize() }

func (r headerRenderer) Refresh() {
	r.Layout(r.h.Size())
	r.h.button.Refresh()
	r.h.arrow.Refresh()
}

func (r headerRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.h.button, r.h.arrow}
}

func (r headerRenderer) Destroy() {}

// titleEnd is where a header's title ends, from the header's left edge:
// the button draws it in bold after its inner padding.
func titleEnd(title string) float32 {
	return theme.InnerPadding() + fyne.MeasureText(title, theme.TextSize(), fyne.TextStyle{Bold: true}).Width
}

// headerWidth is what a column's header needs: its title, the sort arrow's
// triangle after it when sorted, and the inner padding again. Only the
// sorted column makes room for the arrow: the others' width goes to the
// list's columns (Window.Resorted lays the panes out again).
func headerWidth(title string, sorted bool) float32 {
	if title == "" {
		return 0
	}
	w := titleEnd(title) + theme.InnerPadding()
	if sorted {
		w += theme.Padding() + arrowSize()*(arrowInkEnd-arrowInkStart)
	}
	return float32(int(w + 1))
}
