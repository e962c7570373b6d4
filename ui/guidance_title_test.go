package ui

import (
	"errors"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestGuidanceIsNotTitledError: what the person must do first, and what
// a rule does not allow now, open dialogs titled as guidance; only what
// went wrong is titled "Error".
func TestGuidanceIsNotTitledError(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		err   error
		title string
	}{
		{dialogs.NotYet("pick an item from the price list first"), "Not yet"},
		{&api.RuleError{Msg: "KFU73227 is new: accept it first, then check in"}, "Not possible now"},
		{errors.New("the disk is full"), "Error"},
	} {
		h.desk.showError(c.err)
		h.flush()
		got := h.overlayTexts()
		if !slices.Contains(got, c.title) {
			t.Errorf("%q opened a dialog reading %q, want it titled %q", c.err, got, c.title)
		}
		for _, other := range []string{"Not yet", "Not possible now", "Error"} {
			if other != c.title && slices.Contains(got, other) {
				t.Errorf("%q opened a dialog titled %q too: %q", c.err, other, got)
			}
		}
		h.dismissOverlays()
	}
}
