package list

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
	f := newFixture(t, demoReplica(t), 900)
	i := slices.IndexFunc(f.rows(), func(r storage.Row) bool { return r.Customer == "Sakura Mart Japan" })
	if i < 0 {
		t.Fatal("the demo world has no Sakura Mart Japan work order")
	}
	want := f.rows()[i]
	digits := want.Number[len(want.Number)-4:]
	search := "sakura " + digits
	test.Type(f.v.search, search)
	found := false
	for _, r := range f.rows() {
		if r.Id == want.Id {
			found = true
		}
		if r.Customer != want.Customer || !strings.Contains(r.Number, digits) {
			t.Errorf("%q lists %s of %s", search, r.Number, r.Customer)
		}
	}
	if !found {
		t.Fatalf("%q does not list %s (%d rows; the list says %q)", search, want.Number, f.v.total, f.v.empty.Text)
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
		fw := &fakeWindow{background: func(f func()) { jobs = append(jobs, f) }, do: func(f func()) { shows = append(shows, f) }}
		l := newFixtureIn(t, newApp(t), store, fw, 900).v
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
	fw := &fakeWindow{background: func(f func()) { jobs = append(jobs, f) }, do: func(f func()) { shows = append(shows, f) }}
	fx := newFixtureIn(t, newApp(t), store, fw, 900)
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
	l := fx.v
	first, _ := l.rowAt(0)
	want, ok := l.rowAt(10)
	if !ok || want.Number == first.Number {
		t.Fatalf("the list has no tenth work order apart from the first (%+v)", want)
	}
	fx.w.Canvas().Focus(l.search)
	for _, r := range want.Number {
		l.search.TypedRune(r) // each keystroke's query waits in the background
	}
	l.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settle()
	if got := fw.opened; len(got) != 1 || got[0] != want.Id {
		t.Fatalf("typing %s (%d) and Enter at once opened %v (the list's first row was %s, %d)", want.Number, want.Id, got, first.Number, first.Id)
	}
	if l.shown.Search != want.Number || l.total != 1 {
		t.Errorf("the list shows %d rows for %q", l.total, l.shown.Search)
	}
}
