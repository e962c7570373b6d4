package ui

import (
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/storage"
)

// TestHeaderNteReadsNoLimitInWords: a work order without an NTE says "NTE
// no limit" in its header, not "NTE No limit USD" (a currency beside it
// reads as an amount); one with an NTE shows the amount and its currency.
func TestHeaderNteReadsNoLimitInWords(t *testing.T) {
	h := newHarness(t)
	none := h.rowWhere(func(r storage.Row) bool { return r.Nte.IsZero() })
	h.open(none.Id)
	if got := strings.Join(texts(h.desk.detail.header), " "); !strings.Contains(got, "NTE no limit") || strings.Contains(got, none.Nte.Currency) {
		t.Errorf("the header of a work order without an NTE reads %q, want \"NTE no limit\" without a currency", got)
	}
	some := h.rowWhere(func(r storage.Row) bool { return !r.Nte.IsZero() })
	h.open(some.Id)
	if got := h.desk.detail.nte.Text; !strings.HasPrefix(got, some.Nte.Format()) || !strings.HasSuffix(got, some.Nte.Currency) {
		t.Errorf("the header NTE of %s reads %q, want %s and its currency", some.Number, got, some.Nte.Format())
	}
}
