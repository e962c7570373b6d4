package list

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestACellShowsWhatFitsAndAnEllipsisForTheRest: a list cell shows a text
// that fits whole and cuts one that does not with an ellipsis, also when
// its column was narrowed under the same text (the table updates every
// cell after a resize). Only what does not fit truncates (see setText).
func TestACellShowsWhatFitsAndAnEllipsisForTheRest(t *testing.T) {
	test.NewTempApp(t)
	c := newCell()
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(800, 60))
	shown := func() string {
		var out []string
		walk(c, func(o fyne.CanvasObject) {
			if t, ok := o.(*canvas.Text); ok && o.Visible() && t.Text != "" {
				out = append(out, t.Text)
			}
		})
		return strings.Join(out, " ")
	}
	long := "Harbor Point Hotels Inner Harbor loading dock and the rest of it"
	for _, step := range []struct {
		width      float32
		text, want string
	}{
		{150, "SMJ73264", "SMJ73264"},
		{60, "SMJ73264", "…"}, // the same text, its column narrowed
		{150, "SMJ73264", "SMJ73264"},
		{150, long, "…"},
		{700, long, long},
	} {
		c.Resize(fyne.NewSize(step.width, 36))
		c.setText(step.text, fyne.TextAlignLeading, true)
		if got := shown(); !shows(got, step.text, step.want) {
			t.Errorf("%q in %.0f px shows %q", step.text, step.width, got)
		}
	}
	// A colleague's mark takes room from the text: what just fitted no
	// longer does, whether the mark comes before the text or after it.
	number := "SMJ73264"
	c.Resize(fyne.NewSize(fyne.MeasureText(number, theme.TextSize(), fyne.TextStyle{Bold: true}).Width+2*theme.InnerPadding()+4, 36))
	for _, markFirst := range []bool{true, false} {
		c.setMark("")
		c.setText(number, fyne.TextAlignLeading, true)
		if got := shown(); got != number {
			t.Fatalf("%q in a cell just wide enough shows %q", number, got)
		}
		if markFirst {
			c.setMark("JD")
			c.setText(number, fyne.TextAlignLeading, true)
		} else {
			c.setText(number, fyne.TextAlignLeading, true)
			c.setMark("JD")
		}
		if got := shown(); !shows(strings.TrimSuffix(got, " JD"), number, "…") {
			t.Errorf("mark set first %v: %q beside a mark shows %q", markFirst, number, got)
		}
	}
}

// shows reports whether got is text whole (want == text) or cut short with
// an ellipsis (want == "…").
func shows(got, text, want string) bool {
	if want == "…" {
		return strings.HasSuffix(got, "…") && len(got) < len(text)+len("…")
	}
	return got == want
}
