package list

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestTheEmptyListSaysWhatHidesTheRows: an empty list names what hides
// the rows, with a button to clear each: the search alone ("No work order
// matches …"), the status filter when the search does find work orders
// (the coordinator's "harbor" under Accepted), and the search whatever
// the filter when it finds none at all.
func TestTheEmptyListSaysWhatHidesTheRows(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	v := f.v
	shown := func() (text string, buttons []string) {
		t.Helper()
		if !v.empty.Visible() {
			return "", nil
		}
		for _, b := range []struct {
			name string
			on   bool
		}{{"search", v.unhide.search.Visible()}, {"status", v.unhide.status.Visible()}, {"attention", v.unhide.attention.Visible()}} {
			if b.on {
				buttons = append(buttons, b.name)
			}
		}
		return v.empty.Text, buttons
	}

	// The search alone.
	test.Type(v.search, "zzqx")
	if text, buttons := shown(); !strings.HasPrefix(text, "No work order matches “zzqx”.") || !slices.Equal(buttons, []string{"search"}) {
		t.Fatalf("a search that finds nothing: %q, buttons %v", text, buttons)
	}
	test.Tap(v.unhide.search)
	if v.total < 60 || v.empty.Visible() {
		t.Fatalf("Clear the search left %d rows", v.total)
	}

	// The filter, not the search: Harbor Point's work orders, under a
	// status none of them has.
	harbor := map[api.WorkOrderStatus]bool{}
	n := 0
	for _, r := range f.rows() {
		if r.Customer == "Harbor Point Hotels" {
			harbor[r.Status] = true
			n++
		}
	}
	other := slices.IndexFunc(api.AllStatuses, func(s api.WorkOrderStatus) bool { return !harbor[s] })
	if n == 0 || other < 0 {
		t.Fatalf("the demo world has %d Harbor Point work orders, in every status", n)
	}
	v.statusSel.SetSelectedIndex(other + 1)
	test.Type(v.search, "harbor")
	want := fmt.Sprintf("“harbor” matches %d work orders, but none is %s.", n, format.ShortStatus(api.AllStatuses[other]))
	if text, buttons := shown(); text != want || !slices.Equal(buttons, []string{"search", "status"}) {
		t.Fatalf("the filter hides the matches: %q, buttons %v; want %q and a button for each", text, buttons, want)
	}
	test.Tap(v.unhide.status)
	if v.total != n || v.empty.Visible() {
		t.Fatalf("Show all statuses shows %d rows, want the %d Harbor Point work orders", v.total, n)
	}
	// The keyboard is back in the search box: Enter opens the first row.
	if f.w.Canvas().Focused() != fyne.Focusable(v.search) {
		t.Errorf("after Show all statuses the keyboard is in a %T, not the search box", f.w.Canvas().Focused())
	}
	first, _ := v.rowAt(0)
	v.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := f.win.opened; len(got) == 0 || got[len(got)-1] != first.Id {
		t.Errorf("Enter after Show all statuses opened %v, not the first row %s (%d)", got, first.Number, first.Id)
	}

	// A search that finds nothing whatever the filter: only the search is named.
	v.statusSel.SetSelectedIndex(other + 1)
	v.search.SetText("zzqx")
	if text, buttons := shown(); !strings.HasPrefix(text, "No work order matches “zzqx”, whatever its status.") || !slices.Equal(buttons, []string{"search"}) {
		t.Fatalf("a search that finds nothing, under a filter: %q, buttons %v", text, buttons)
	}

	// The filters alone: a status none of whose work orders needs attention.
	v.search.SetText("")
	v.statusSel.SetSelectedIndex(0)
	attention := map[api.WorkOrderStatus]bool{}
	for _, r := range f.rows() {
		attention[r.Status] = attention[r.Status] || r.Attention
	}
	calm := slices.IndexFunc(api.AllStatuses, func(s api.WorkOrderStatus) bool { return !attention[s] })
	if calm < 0 {
		t.Fatal("in the demo world some work order of every status needs attention")
	}
	v.statusSel.SetSelectedIndex(calm + 1)
	v.attention.SetChecked(true)
	want = fmt.Sprintf("No work order is %s and needs attention.", format.ShortStatus(api.AllStatuses[calm]))
	if text, buttons := shown(); text != want || !slices.Equal(buttons, []string{"status", "attention"}) {
		t.Fatalf("the filters alone: %q, buttons %v; want %q", text, buttons, want)
	}
	test.Tap(v.unhide.attention)
	if v.query.NeedsAttention {
		t.Fatal("the button did not untick Needs attention")
	}
}

func TestSearchWithNoMatchSaysSo(t *testing.T) {
	v := newFixture(t, demoReplica(t), 900).v
	test.Type(v.search, "zzqx")
	if v.total != 0 || !v.empty.Visible() || !strings.Contains(v.empty.Text, "No work order matches") {
		t.Fatalf("a search with no match shows %d rows and %q", v.total, v.empty.Text)
	}
	v.search.SetText("")
	if v.empty.Visible() || v.total < 60 {
		t.Fatal("clearing the search does not bring the list back")
	}
}
