package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/storage"
)

// TestAWordAndDigitsTogetherFindTheWorkOrder: typing the customer's name
// and digits read off a sheet ("sakura 3264") finds that work order, as the
// empty list's hint promises, and nothing of another customer or number.
func TestAWordAndDigitsTogetherFindTheWorkOrder(t *testing.T) {
	h := newHarness(t)
	want := h.rowWhere(func(r storage.Row) bool { return r.Customer == "Sakura Mart Japan" })
	digits := want.Number[len(want.Number)-4:]
	search := "sakura " + digits
	test.Type(h.desk.list.search, search)
	found := false
	for _, r := range h.rows() {
		if r.Id == want.Id {
			found = true
		}
		if r.Customer != want.Customer || !strings.Contains(r.Number, digits) {
			t.Errorf("%q lists %s of %s", search, r.Number, r.Customer)
		}
	}
	if !found {
		t.Fatalf("%q does not list %s (%d rows; the list says %q)", search, want.Number, h.desk.list.total, h.desk.list.empty.Text)
	}
}
