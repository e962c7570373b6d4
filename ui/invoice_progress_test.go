package ui

import (
	"context"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/ui/format"
)

// The invoices of finished work are read in the background after a sync:
// the status bar says how far that is, in words and on its bar, and says
// nothing once it is over. A sync's own progress is not overwritten.
func TestInvoiceFetchProgressInTheStatusBar(t *testing.T) {
	h := newHarness(t)
	h.flush()
	var shown []string
	// Each hand-over to the window is run as Fyne would, one at a time,
	// and the status bar read after each.
	step := func() {
		for {
			h.mu.Lock()
			q := h.queue
			h.queue = nil
			h.mu.Unlock()
			if len(q) == 0 {
				return
			}
			for _, f := range q {
				f()
				if h.desk.status.ProgressBar().Visible() && h.desk.status.ProgressLabel().Visible() {
					shown = append(shown, h.desk.status.ProgressLabel().Text)
				} else {
					shown = append(shown, "")
				}
			}
		}
	}
	n, err := h.eng.Syncer.FetchInvoices(context.Background())
	if err != nil || n == 0 {
		t.Fatalf("fetched %d invoices: %v", n, err)
	}
	step()
	want := "Reading invoices: 0 of " + format.Count(n)
	if len(shown) < 2 || shown[0] != want || shown[len(shown)-1] != "" {
		t.Fatalf("the status bar showed %q; want %q first and nothing at the end", shown, want)
	}

	h.desk.invoiceProgress(12400, 29519)
	if got := h.desk.status.ProgressLabel().Text; got != "Reading invoices: 12,400 of 29,519" || !h.desk.status.ProgressBar().Visible() ||
		h.desk.status.ProgressBar().Value != 12400 || h.desk.status.ProgressBar().Max != 29519 {
		t.Errorf("the status bar shows %q at %v of %v", got, h.desk.status.ProgressBar().Value, h.desk.status.ProgressBar().Max)
	}
	h.desk.syncing = true
	h.desk.status.Progress("Syncing", 5, 10)
	h.desk.invoiceProgress(12500, 29519)
	if got := h.desk.status.ProgressLabel().Text; got != "Syncing" {
		t.Errorf("during a sync the status bar shows %q; want the sync's own progress", got)
	}
	h.desk.syncing = false
	h.desk.invoiceProgress(29519, 29519)
	if h.desk.status.ProgressBar().Visible() {
		t.Errorf("the fetch is over and the status bar still shows %q", h.desk.status.ProgressLabel().Text)
	}
}

// Changes that come while the window has not yet taken the last ones are
// handed over together: a burst of writes costs one reload of the list,
// not one each queued behind the other (a --screenshot at 200,000 work
// orders waited behind thousands of them and never exited).
func TestChangesInABurstAreOneReload(t *testing.T) {
	h := newHarness(t)
	h.flush()
	var got [][]int64
	hand := h.desk.coalesced(func(ids []int64) { got = append(got, ids) })
	for id := range int64(500) {
		hand([]int64{id})
	}
	h.flush()
	if len(got) != 1 || len(got[0]) != 500 {
		t.Fatalf("500 changes were handed over as %d reloads", len(got))
	}
	hand([]int64{7})
	h.flush()
	if len(got) != 2 || len(got[1]) != 1 || got[1][0] != 7 {
		t.Errorf("a change after the burst was handed over as %v", got[1:])
	}
}

// A replica browsed offline (--replica) shows all it will at once: the
// window is ready without a sync (--screenshot waited 90 s for one).
func TestAnOfflineWindowIsReadyAtOnce(t *testing.T) {
	ready := make(chan struct{})
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) { d.Online, d.Ready = nil, ready }})
	h.desk.Start()
	select {
	case <-ready:
	default:
		t.Fatal("the offline window did not say it was ready")
	}
}

// On a large replica the window's reload after a change waits, after the
// last, twenty times what that reload's reads took (at least a second): the
// invoice fetch tells it of what it stored once a second, and at 100,000
// work orders reloading the list cost more than the invoices. A change
// after a quiet spell, or on a small replica, is shown at once.
func TestReloadsOfALargeListArePaced(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int64
		cost   time.Duration
		paced  bool
		within time.Duration
	}{
		{"the demo's 72", 72, 200 * time.Millisecond, false, 0},
		{"100,000, reads of 60 ms", 100_000, 60 * time.Millisecond, true, 1200 * time.Millisecond},
		{"100,000, reads of 5 ms", 100_000, 5 * time.Millisecond, true, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.flush()
			var got []time.Time
			pace := func() (int, time.Duration) { return int(tc.size), tc.cost }
			hand := h.desk.paced(pace, func([]int64) { got = append(got, time.Now()) })
			hand([]int64{1})
			h.flush()
			if len(got) != 1 {
				t.Fatal("the first change was not shown at once")
			}
			hand([]int64{2})
			h.flush()
			if !tc.paced {
				if len(got) != 2 {
					t.Fatal("a change on a small replica waited")
				}
				return
			}
			if len(got) != 1 {
				t.Fatal("a change right after a reload of a large list did not wait")
			}
			h.waitFor("the paced reload", func() bool { return len(got) == 2 })
			if gap := got[1].Sub(got[0]); gap < tc.within-50*time.Millisecond {
				t.Errorf("the next reload came %v after the last, want %v", gap, tc.within)
			}
		})
	}
}
