package ui

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"github.com/workorderdesk/workdesk/ui/arrange"
)

// What runs where. Every store write (each action a person queues) waits
// for SQLite's single writer, which a sync holds for a whole batch and
// another process on the same replica (workdesk receive) may hold too, and
// an upload first copies its file (up to 20 MB) into the spool: both run in
// the background through write (act when buttons started them), in the
// order the person took them, never on Fyne's main goroutine.
//
// Reads of the replica (a work order, its invoice, its outbox rows, a page
// of the list) stay on the main goroutine: they go through the store's
// reader pool, which WAL lets run beside the writer, so they never wait for
// it, and each reads one row or one page by index in well under a frame.

// run does work off the main goroutine (Deps.Background) and then done with
// its error on the main goroutine. When Background ran work before
// returning, as the tests' inline Background does, done runs at once: the
// caller is still on the main goroutine, and a test sees what its tap did
// without draining the queue of handed-back work.
func (d *Desk) run(work func(ctx context.Context) error, done func(error)) {
	var (
		mu       sync.Mutex
		returned bool // Background has returned: done must be handed back
		finished bool // work finished before that: done runs here
		result   error
	)
	d.deps.Background(func() {
		err := work(context.Background())
		mu.Lock()
		if returned {
			mu.Unlock()
			d.do(func() { done(err) })
			return
		}
		finished, result = true, err
		mu.Unlock()
	})
	mu.Lock()
	returned = true
	now := finished
	mu.Unlock()
	if now {
		done(result)
	}
}

// write runs a store write off the main goroutine, after every write asked
// for before it: actions reach the outbox in the order the person took them
// (accept, then check in), as they did when they were queued on the spot.
func (d *Desk) write(work func(ctx context.Context) error, done func(error)) {
	prev, next := d.lastWrite, make(chan struct{})
	d.lastWrite = next
	d.run(func(ctx context.Context) error {
		defer close(next)
		if prev != nil {
			<-prev
		}
		return work(ctx)
	}, done)
}

// WaitForWrites waits, up to limit, until the actions the person took have
// reached the outbox; false when limit passed first. main calls it before
// it closes this window's replica (Switch to Live/Demo, office mode), so
// that an action tapped just before is not lost to a closed database.
func (d *Desk) WaitForWrites(limit time.Duration) bool {
	if d.lastWrite == nil {
		return true
	}
	select {
	case <-d.lastWrite:
		return true
	case <-time.After(limit):
		return false
	}
}

// act queues an action: write (the store call) runs off the main goroutine
// and done gets its error back on it. The controls that started the action
// stay disabled until then, whatever the tab's rules say meanwhile (see
// enable), so a second tap cannot queue it twice; a tap on a control whose
// action is still being queued is ignored.
func (d *Desk) act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error)) {
	for _, c := range controls {
		if _, busy := d.inFlight[c]; busy {
			return
		}
	}
	for _, c := range controls {
		d.inFlight[c] = !c.Disabled()
		c.Disable()
	}
	if d.detail.wo != nil {
		d.list.Keep(d.detail.wo.WorkOrderId) // acted on: it stays in the list (list.View.Keep)
	}
	d.write(write, func(err error) {
		for _, c := range controls {
			arrange.SetEnabled(c, d.inFlight[c])
			delete(d.inFlight, c)
		}
		done(err)
	})
}

// enable sets w as the rules have it (setEnabled), unless an action w
// started is still being queued: then w stays disabled and takes that
// state once the action is back.
func (d *Desk) enable(w fyne.Disableable, on bool) {
	if _, busy := d.inFlight[w]; busy {
		d.inFlight[w] = on
		return
	}
	arrange.SetEnabled(w, on)
}

// busy reports whether an action w started is still being queued.
func (d *Desk) busy(w fyne.Disableable) bool {
	_, ok := d.inFlight[w]
	return ok
}
