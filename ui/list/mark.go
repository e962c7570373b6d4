package list

import (
	"image/color"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A colleague's change marks a work order's number in office mode
// (Colleagues), with the colleague's initials.

// colleagueFill is a colleague's mark: apart from the status badges' and
// the row fills' colours.
var colleagueFill = color.NRGBA{R: 0x0e, G: 0x74, B: 0x90, A: 0xff}

// initials are what a colleague's mark shows: "Ana Ruiz" → "AR".
func initials(name string) string {
	f := strings.Fields(name)
	if len(f) == 0 {
		return ""
	}
	first := func(s string) string { return string(unicode.ToUpper([]rune(s)[0])) }
	if len(f) == 1 {
		return first(f[0])
	}
	return first(f[0]) + first(f[len(f)-1])
}

// personMark is a colleague's initials in a small round pill.
type personMark struct {
	widget.BaseWidget
	bg   *canvas.Rectangle
	text *canvas.Text
}

func newPersonMark() *personMark {
	m := &personMark{bg: canvas.NewRectangle(colleagueFill), text: canvas.NewText("", color.White)}
	m.text.TextStyle = fyne.TextStyle{Bold: true}
	m.text.TextSize = theme.CaptionTextSize()
	m.text.Alignment = fyne.TextAlignCenter
	m.ExtendBaseWidget(m)
	return m
}

// widestMark is the size of the widest mark: "WW" (an empty mark is a
// circle, narrower than most initials, and the number was cut for them).
func widestMark() fyne.Size {
	m := newPersonMark()
	m.text.Text = "WW"
	return m.MinSize()
}

func (m *personMark) set(text string) {
	if m.text.Text != text {
		m.text.Text = text
		m.Refresh()
	}
}

func (m *personMark) MinSize() fyne.Size {
	ts := m.text.MinSize()
	h := ts.Height + 4
	return fyne.NewSize(max(h, ts.Width+8), h)
}

func (m *personMark) CreateRenderer() fyne.WidgetRenderer { return &personMarkRenderer{m} }

type personMarkRenderer struct{ m *personMark }

// Layout centres the pill vertically in whatever height the cell gives.
func (r *personMarkRenderer) Layout(size fyne.Size) {
	ms := r.m.MinSize()
	pos := fyne.NewPos(0, (size.Height-ms.Height)/2)
	r.m.bg.CornerRadius = ms.Height / 2
	r.m.bg.Move(pos)
	r.m.bg.Resize(ms)
	r.m.text.Move(pos)
	r.m.text.Resize(ms)
}

func (r *personMarkRenderer) MinSize() fyne.Size { return r.m.MinSize() }
func (r *personMarkRenderer) Refresh() {
	r.m.bg.Refresh()
	r.m.text.Refresh()
	r.Layout(r.m.Size())
}
func (r *personMarkRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.m.bg, r.m.text}
}
func (r *personMarkRenderer) Destroy() {}
