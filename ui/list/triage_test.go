package list

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// TestOverdueRowsLookLate: a row past its deadline says so in the theme's
// error colour, on a row tinted with it; a row due in a few hours is bold
// in the text colour, on the amber of rows due soon.
func TestOverdueRowsLookLate(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	v := f.v
	var late, soon int = -1, -1
	for i, r := range f.rows() {
		switch {
		case late < 0 && r.Why == api.AttentionOverdue && r.Id != v.openID:
			late = i
		case soon < 0 && r.Why == api.AttentionDueSoon && r.Id != v.openID:
			soon = i
		}
	}
	if late < 0 || soon < 0 {
		t.Fatalf("the demo has no overdue (%d) or no due-soon (%d) row", late, soon)
	}
	c := f.cellAt(late, slices.Index(v.cols, colDeadline))
	if c.text.Importance != widget.DangerImportance || !strings.Contains(c.text.Text, "late") {
		t.Errorf("an overdue row reads %q in importance %v, not late in the error colour", c.text.Text, c.text.Importance)
	}
	if c.bg.FillColor != overdueRowFill() {
		t.Errorf("an overdue row is filled %v, not the error tint", c.bg.FillColor)
	}
	c = f.cellAt(soon, slices.Index(v.cols, colDeadline))
	if c.text.Importance == widget.DangerImportance || !c.text.TextStyle.Bold || !strings.Contains(c.text.Text, " · in ") {
		t.Errorf("a row due soon reads %q (importance %v, bold %v)", c.text.Text, c.text.Importance, c.text.TextStyle.Bold)
	}
	if c.bg.FillColor != color.Color(palette.AttentionRow) {
		t.Errorf("a row due soon is filled %v", c.bg.FillColor)
	}
}

// TestNeedsAttentionSaysWhy: under "Needs attention" every row says why in
// its deadline cell (a deadline late or close, or the reason in words),
// and a finished work order with nothing due is not among them.
func TestNeedsAttentionSaysWhy(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	v := f.v
	v.attention.SetChecked(true)
	rows := f.rows()
	if len(rows) == 0 {
		t.Fatal("nothing needs attention in the demo")
	}
	words := map[string]bool{}
	for i, r := range rows {
		if !r.Attention {
			t.Errorf("%s (%s) is listed but needs no attention", r.Number, r.Status)
		}
		if r.Status == api.StatusVerified && r.NextDeadline.IsZero() && r.Why == api.AttentionQuoteRequested {
			t.Errorf("%s is verified, with nothing due, listed for its old quote request", r.Number)
		}
		c := f.cellAt(i, slices.Index(v.cols, colDeadline))
		switch {
		case r.Why.Deadline():
			if !strings.Contains(c.text.Text, " · ") {
				t.Errorf("%s: %q does not say what is due", r.Number, c.text.Text)
			}
		case c.text.Text != r.Why.Word():
			t.Errorf("%s needs attention (%s) but reads %q", r.Number, r.Why.Word(), c.text.Text)
		default:
			words[c.text.Text] = true
		}
	}
	t.Logf("reasons in words: %v", words)
}
