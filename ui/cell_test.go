package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
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
		got := shown()
		if step.want == "…" && (!strings.HasSuffix(got, "…") || len(got) >= len(step.text)) ||
			step.want != "…" && got != step.want {
			t.Errorf("%q in %.0f px shows %q", step.text, step.width, got)
		}
	}
}
