package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Wrapped makes l wrap at word boundaries, and returns it.
func Wrapped(l *widget.Label) *widget.Label {
	l.Wrapping = fyne.TextWrapWord
	return l
}

// Heading is a section's title in bold.
func Heading(s string) fyne.CanvasObject {
	return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// WrappedHeading is a heading long enough to wrap on a narrow pane.
func WrappedHeading(s string) fyne.CanvasObject {
	l := widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Wrapping = fyne.TextWrapWord
	return l
}

// WidestOption is the option that takes the most width: a Select is as
// wide as its placeholder, so one set to this never cuts an option short.
func WidestOption(opts []string) string {
	widest, w := "", float32(0)
	for _, o := range opts {
		if ow := fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width; ow > w {
			widest, w = o, ow
		}
	}
	return widest
}
