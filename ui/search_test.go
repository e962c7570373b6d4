package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
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

// TestTypingAheadShowsOnlyTheNewestSearch: the list's query runs in the
// background; when the person types on before an answer arrives, the
// answer to what they typed last is the one shown, whichever arrives
// first, and an overtaken query is not even run.
func TestTypingAheadShowsOnlyTheNewestSearch(t *testing.T) {
	store := syncedReplica(t, 200)
	for _, newestFirst := range []bool{false, true} {
		var jobs, shows []func()
		a := test.NewApp()
		d := New(a, Deps{Store: store, Service: "offline",
			Background: func(f func()) { jobs = append(jobs, f) }, Do: func(f func()) { shows = append(shows, f) }})
		l := d.list
		run := func() {
			for len(jobs) > 0 {
				f := jobs[0]
				jobs = jobs[1:]
				f()
			}
		}
		deliver := func() {
			if newestFirst {
				slices.Reverse(shows)
			}
			for _, f := range shows {
				f()
			}
			shows = nil
		}
		run()
		deliver()
		all := l.total
		l.search.TypedRune('s')
		run() // the answer to "s" is ready, not yet shown
		l.search.TypedRune('a')
		l.search.TypedRune('k') // "sa" is overtaken before it runs
		run()
		deliver()
		want, err := store.CountList(context.Background(), storage.ListQuery{Search: "sak"})
		if err != nil {
			t.Fatal(err)
		}
		if l.shown.Search != "sak" || l.total != want || want == 0 || want == all {
			t.Errorf("newest first %v: after typing \"sak\" the list shows %q with %d rows; want %d of %d", newestFirst, l.shown.Search, l.total, want, all)
		}
		if r, ok := l.rowAt(0); !ok || !strings.Contains(strings.ToLower(r.Customer+" "+r.Site), "sak") {
			t.Errorf("newest first %v: the first row is %+v", newestFirst, r)
		}
		if l.count.Text != fmt.Sprintf("%d of %d work orders", want, all) {
			t.Errorf("newest first %v: the count reads %q", newestFirst, l.count.Text)
		}
		a.Quit()
	}
}

// TestEnterBeforeTheSearchAnswersOpensWhatWasTyped: a number typed (or
// scanned) and Enter at once, before the list's background query has
// answered, opens the typed work order once the answer arrives, not the
// first row of the list still shown (in the tryout, LMG73272 and Enter
// opened LMG73230, the first row of "LMG7").
func TestEnterBeforeTheSearchAnswersOpensWhatWasTyped(t *testing.T) {
	store := syncedReplica(t, 200)
	var jobs, shows []func()
	a := test.NewApp()
	defer a.Quit()
	d := New(a, Deps{Store: store, Service: "offline",
		Background: func(f func()) { jobs = append(jobs, f) }, Do: func(f func()) { shows = append(shows, f) }})
	settle := func() {
		for len(jobs)+len(shows) > 0 {
			for len(jobs) > 0 {
				f := jobs[0]
				jobs = jobs[1:]
				f()
			}
			for len(shows) > 0 {
				f := shows[0]
				shows = shows[1:]
				f()
			}
		}
	}
	settle()
	l := d.list
	first, _ := l.rowAt(0)
	want, ok := l.rowAt(10)
	if !ok || want.Number == first.Number {
		t.Fatalf("the list has no tenth work order apart from the first (%+v)", want)
	}
	d.Window().Canvas().Focus(l.search)
	for _, r := range want.Number {
		l.search.TypedRune(r) // each keystroke's query waits in the background
	}
	l.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle()
	if got := d.detail.number.String(); got != want.Number {
		t.Fatalf("typing %s and Enter at once opened %q (the list's first row was %s)", want.Number, got, first.Number)
	}
	if l.shown.Search != want.Number || l.total != 1 {
		t.Errorf("the list shows %d rows for %q", l.total, l.shown.Search)
	}
}
