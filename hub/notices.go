package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api"
)

// A notification is a hint, and one whose token was captured can be sent
// again and again: what it costs is bounded by work order, not by
// notification. Each work order is re-read once at a time; notifications
// that arrive meanwhile fold into one more re-read after it. A re-read
// that found nothing the hub held changed makes the next wait noticeGap
// after it began, doubling each time (to noticeGapMost); one that found a
// change lets the next begin at once. Work orders whose turn has come are
// read together, up to 50 per GET /api/workOrder, then the parts their
// notifications' actions touch (a few at a time). While re-reads find
// nothing new (a flood of forged notifications), a batch of fewer than
// 50 begins at most every noticeBatchEvery, so the flood's work orders
// are read together (a batch each, a flood naming 300 cost 77 reads of
// work orders); notifications that bring news are read at once (paced,
// each would wait up to noticeBatchEvery). One event goes out per
// work order and re-read, when it found what the hub did not hold; a work
// order the service does not know, or one found as the hub held it, makes
// none. Nothing verified is dropped: each notification is answered once
// the re-read that covers it is recorded (200), or has failed (500: the
// service sends it again later).
const (
	noticeGap     = 4 * time.Second
	noticeGapMost = 8 * time.Second
	// noticeRunners is how many batches of re-reads run at once.
	noticeRunners = 2
	// noticeBatchEvery is how often a batch short of 50 may begin.
	noticeBatchEvery = 250 * time.Millisecond
)

// Results of a work order's re-read (the rereads metric).
const (
	rereadChanged   = "changed"
	rereadUnchanged = "unchanged"
	rereadUnknown   = "unknown"
	rereadFailed    = "failed"
)

// errHubAction refuses a notification under an action only the hub names.
var errHubAction = fmt.Errorf("%w: an action only the hub names (…ByContractor)", api.ErrUnacceptableEvent)

// hubAction reports an action of the hub's own naming: the events of
// colleagues' writes ("AcceptedByContractor", ...), which desktops take
// for a colleague's; the service has none of them.
func hubAction(action string) bool {
	return strings.HasSuffix(strings.ToLower(strings.TrimSpace(action)), "bycontractor")
}

// noticeTurn is one work order's (0: the company's) place in the re-reads.
type noticeTurn struct {
	id      int64
	pending *foldedNotices // waiting for its turn
	running bool
	last    time.Time // when its last re-read began
	gap     time.Duration
}

// foldedNotices are the notifications one re-read answers.
type foldedNotices struct {
	parts rereadParts
	// byAction is the latest notification of each documented action;
	// actions are they, the latest last.
	byAction map[string]api.Event
	actions  []string
	waiters  []chan error
}

// rereads queues notifications for their work order's re-read.
type rereads struct {
	h     *Hub
	mu    sync.Mutex
	turns map[int64]*noticeTurn
	queue []int64 // work orders with notifications waiting, oldest first
	wake  chan struct{}
	slots chan struct{}
	wg    sync.WaitGroup
	// folded counts the notifications that joined a re-read already
	// waiting (the coalesced metric).
	folded atomic.Int64
	closed bool
	// began is when the last batch began; stale, that the last to
	// finish found nothing new (and failed nothing).
	began time.Time
	stale bool
}

// errHubClosing answers the notifications the hub will not read again:
// the service sends them again.
var errHubClosing = errors.New("hub: closing")

func newRereads(h *Hub) *rereads {
	r := &rereads{h: h, turns: map[int64]*noticeTurn{}, wake: make(chan struct{}, 1), slots: make(chan struct{}, noticeRunners)}
	r.wg.Add(1)
	go func() { defer r.wg.Done(); r.run(h.life) }()
	return r
}

// add folds ev into its work order's next re-read and returns where the
// outcome comes: nil once what it said is recorded.
func (r *rereads) add(id int64, ev api.Event) <-chan error {
	done := make(chan error, 1)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		done <- errHubClosing
		return done
	}
	t := r.turns[id]
	if t == nil {
		t = &noticeTurn{id: id}
		r.turns[id] = t
	}
	if t.pending == nil {
		t.pending = &foldedNotices{byAction: map[string]api.Event{}}
		r.queue = append(r.queue, id)
	} else {
		r.folded.Add(1)
	}
	p := t.pending
	p.waiters = append(p.waiters, done)
	if api.KnownAction(ev.Header.Action) {
		p.parts |= notificationParts(ev.Header.Action)
		if _, ok := p.byAction[ev.Header.Action]; ok {
			p.actions = slices.DeleteFunc(p.actions, func(a string) bool { return a == ev.Header.Action })
		}
		p.actions = append(p.actions, ev.Header.Action)
		p.byAction[ev.Header.Action] = ev
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return done
}

// waiting is how many work orders have notifications waiting for a
// re-read to begin (tests).
func (r *rereads) waiting() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queue)
}

// run starts the re-reads whose turn has come, a batch at a time, until
// ctx ends; then whatever waits is told the hub is closing. A batch is
// taken once a runner is free, so notifications arriving while all are
// busy wait to be read together.
func (r *rereads) run(ctx context.Context) {
	defer r.closing()
	for {
		select {
		case r.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		batch, next := r.due(time.Now())
		if len(batch) == 0 {
			<-r.slots
			var timer <-chan time.Time
			if !next.IsZero() {
				timer = time.After(time.Until(next))
			}
			select {
			case <-ctx.Done():
				return
			case <-r.wake:
			case <-timer:
			}
			continue
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer func() { <-r.slots }()
			res, err := r.h.rereadNotified(ctx, batch)
			r.finish(batch, res, err)
		}()
	}
}

// due takes the work orders whose re-read may begin now (up to a batch),
// or says when the next may.
func (r *rereads) due(now time.Time) (batch []*noticeTurn, next time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Short of a full batch, while notifications bring nothing new, wait
	// for more to gather until the time comes.
	if gather := r.began.Add(noticeBatchEvery); r.stale && now.Before(gather) {
		ready := 0
		for _, id := range r.queue {
			if t := r.turns[id]; !t.running && !now.Before(t.last.Add(t.gap)) {
				ready++
			}
		}
		if ready > 0 && ready < api.MaxReadBatch {
			return nil, gather
		}
	}
	left := r.queue[:0]
	for _, id := range r.queue {
		t := r.turns[id]
		at := t.last.Add(t.gap)
		switch {
		case len(batch) == api.MaxReadBatch || t.running:
			left = append(left, id)
		case now.Before(at):
			left = append(left, id)
			if next.IsZero() || at.Before(next) {
				next = at
			}
		default:
			t.running, t.last = true, now
			batch = append(batch, &noticeTurn{id: id, pending: t.pending})
			t.pending = nil
		}
	}
	r.queue = left
	if len(batch) > 0 {
		r.began = now
	}
	// Forget the work orders with nothing waiting whose gap has passed.
	if len(r.turns) > 2*len(r.queue)+noticeRunners*api.MaxReadBatch {
		for id, t := range r.turns {
			if t.pending == nil && !t.running && now.After(t.last.Add(t.gap)) {
				delete(r.turns, id)
			}
		}
	}
	return batch, next
}

// finish tells the waiters of a batch (each its work order's error, else
// err) and sets each work order's next gap.
func (r *rereads) finish(batch []*noticeTurn, res map[int64]noticeResult, err error) {
	for _, b := range batch {
		e := err
		if e == nil {
			e = res[b.id].err
		}
		for _, w := range b.pending.waiters {
			w <- e
		}
	}
	r.mu.Lock()
	r.stale = err == nil
	for _, b := range batch {
		if rs := res[b.id]; rs.changed || rs.err != nil {
			r.stale = false
		}
		t := r.turns[b.id]
		if t == nil {
			continue
		}
		t.running = false
		if rs := res[b.id]; rs.changed || rs.err != nil || err != nil {
			t.gap = 0
		} else {
			t.gap = min(max(noticeGap, 2*t.gap), noticeGapMost)
		}
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// noticeResult is what one work order's re-read came to.
type noticeResult struct {
	changed bool
	err     error
}

// closing answers whatever still waits: the hub is closing, and the
// service sends those notifications again.
func (r *rereads) closing() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, t := range r.turns {
		if t.pending != nil {
			for _, w := range t.pending.waiters {
				w <- errHubClosing
			}
			t.pending = nil
		}
	}
	r.queue = nil
}

// rereadNotified re-reads a batch of work orders the service's
// notifications named and records an event for each whose re-read found
// a change. It reports what each came to; a work order that could not be
// read fails its notifications, an error the whole batch's (the service
// sends them again).
func (h *Hub) rereadNotified(ctx context.Context, batch []*noticeTurn) (map[int64]noticeResult, error) {
	ctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
	defer cancel()
	res := map[int64]noticeResult{}
	var ids []int64
	for _, b := range batch {
		if b.id != 0 {
			ids = append(ids, b.id)
		}
	}
	// What each work order's re-read found.
	type found struct {
		rr    *Reread
		moved bool // the record differs from the hub's, or is new or gone
		// parts differ from the hub's stored answers, or it held none;
		// heldParts: differ from one it held.
		parts, heldParts rereadParts
	}
	got := map[int64]*found{}
	if len(ids) > 0 {
		before, err := h.db.workOrderDocs(ctx, ids)
		if err != nil {
			return nil, err
		}
		records, gone, err := h.refreshWorkOrders(ctx, ids)
		var moved []int64
		for _, id := range ids {
			old, held := before[id]
			raw, read := records[id]
			switch {
			case slices.Contains(gone, id) && !held:
				h.metrics.reread(rereadUnknown, 1)
			case slices.Contains(gone, id):
				got[id] = &found{rr: &Reread{Gone: true}, moved: true}
			case !read:
				// Not answered (the service failed): its notifications are
				// answered 500 and come again.
				h.metrics.reread(rereadFailed, 1)
				why := err
				if why == nil {
					why = fmt.Errorf("hub: work order %d was not read again", id)
				}
				res[id] = noticeResult{err: why}
			default:
				f := &found{rr: &Reread{WorkOrder: raw}}
				if !held || old.untold || !sameJSON([]byte(old.doc), raw) {
					f.moved = true
					moved = append(moved, id)
				}
				got[id] = f
			}
		}
		// A stored answer about a work order whose record moved is read
		// again when next asked; one fetched before now is not stored.
		if err := h.db.readsChanged(ctx, moved); err != nil {
			h.log.Warn("marking the reads of changed work orders", "err", err)
		}
		var jobs []partJob
		for _, b := range batch {
			if f := got[b.id]; f != nil && !f.rr.Gone {
				for i, p := range partReads {
					if b.pending.parts&p.part != 0 {
						jobs = append(jobs, partJob{rr: f.rr, part: i, ref: readRef{kind: p.kind, key: strconv.FormatInt(b.id, 10), workOrder: b.id}})
					}
				}
			}
		}
		h.rereadParts(ctx, jobs)
		for _, j := range jobs {
			f := got[j.ref.workOrder]
			if j.moved {
				f.parts |= partReads[j.part].part
			}
			if j.moved && j.held {
				f.heldParts |= partReads[j.part].part
			}
		}
	}
	now := time.Now().UTC()
	type event struct {
		messageId, action string
		id                int64
		body              []byte
	}
	var events []event
	for _, b := range batch {
		var action string
		var rr *Reread
		facts := true
		if b.id == 0 {
			// The company's own events (its check-out questions changed):
			// the customers' settings the hub holds are read again; the
			// event goes out when one changed or none is held to tell by.
			moved, held, err := h.rereadCustomerSettings(ctx)
			if err != nil {
				res[0] = noticeResult{err: err}
				continue
			}
			res[0] = noticeResult{changed: moved && held}
			if moved && len(b.pending.actions) > 0 {
				action = b.pending.actions[len(b.pending.actions)-1]
			}
		} else {
			f := got[b.id]
			if f == nil {
				continue
			}
			rr = f.rr
			// One event per work order and re-read, whatever the number of
			// notifications folded in: the latest whose own parts changed,
			// else, when the record moved, the latest. Its re-read carries
			// every part read, which desktops apply whatever the action.
			for _, a := range b.pending.actions {
				if notificationParts(a)&f.parts != 0 {
					action = a
				}
			}
			if action == "" && f.moved && len(b.pending.actions) > 0 {
				action = b.pending.actions[len(b.pending.actions)-1]
			}
			// What paces the next re-read is whether something the hub
			// held changed: a part read for the first time says nothing.
			evidence := f.moved || f.heldParts != 0
			res[b.id] = noticeResult{changed: evidence}
			if action != "" {
				h.metrics.reread(rereadChanged, 1)
			} else {
				h.metrics.reread(rereadUnchanged, 1)
			}
			facts = factsBorneOut(b.pending.byAction[action], rr, f.moved || f.heldParts&notificationParts(action) != 0)
		}
		if action == "" {
			continue
		}
		ev := b.pending.byAction[action]
		var told *Notified
		if facts {
			told = notified(ev, rr)
		}
		body, err := json.Marshal(HubEvent{
			Header:       api.EventHeader{WorkOrderId: b.id, Action: action, ActionDate: now, MessageId: ev.Header.MessageId},
			Notification: told,
			Reread:       rr,
		})
		if err != nil {
			return nil, err
		}
		events = append(events, event{ev.Header.MessageId, action, b.id, body})
	}
	if len(events) == 0 {
		return res, nil
	}
	err := pgx.BeginFunc(ctx, h.db.Pool, func(tx pgx.Tx) error {
		var ids []int64
		for _, e := range events {
			if err := insertEvent(ctx, tx, e.messageId, e.action, e.id, e.body); err != nil {
				return err
			}
			ids = append(ids, e.id)
		}
		return told(ctx, tx, ids)
	})
	return res, err
}

// factsBorneOut says whether the facts only ev's body carries go out
// with its event: when what its action touched changed from what the hub
// held (moved), or, for an invoice's status, when the invoice as re-read
// has the status the notification says. A first read of a part is no
// sign of a change: a captured token naming a work order whose invoice
// the hub never read must not make every desktop show a made-up check
// number.
func factsBorneOut(ev api.Event, rr *Reread, moved bool) bool {
	if ev.Header.Action != api.ActionInvoiceStatusChanged {
		return moved
	}
	var said, read struct{ Status api.InvoiceStatus }
	if rr == nil || rr.Invoice == nil || json.Unmarshal(ev.Raw, &said) != nil || json.Unmarshal(rr.Invoice, &read) != nil {
		return false
	}
	return said.Status != "" && strings.EqualFold(string(said.Status), string(read.Status))
}

// partJob is one part of a work order read again for a notification.
type partJob struct {
	rr   *Reread
	part int // in partReads
	ref  readRef
	// moved: the answer differs from the one the hub held, it held none,
	// or it could not be read; held: it held one.
	moved, held bool
}

// rereadParts reads the jobs' parts again, a few at a time, stores them
// and puts them in their re-reads, and says of each whether it moved.
func (h *Hub) rereadParts(ctx context.Context, jobs []partJob) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	limit := make(chan struct{}, 4)
	for i := range jobs {
		j := &jobs[i]
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-limit }()
			p := partReads[j.part]
			old, held, _ := h.db.storedRead(ctx, j.ref)
			got, err := h.refreshRead(ctx, j.ref)
			j.held = held
			j.moved = err != nil || !held || got.status != old.status || !sameJSON(old.body, got.body)
			if err == nil && got.status == 200 {
				if v := member(got.body, p.key); v != nil {
					mu.Lock()
					p.set(j.rr, v)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}

// rereadCustomerSettings reads again the customer settings the hub holds
// and reports whether any changed (or none is held), and whether one that
// was held changed.
func (h *Hub) rereadCustomerSettings(ctx context.Context) (moved, heldMoved bool, err error) {
	refs, err := h.db.customerSettingsReads(ctx)
	if err != nil {
		return false, false, err
	}
	if len(refs) == 0 {
		return true, false, nil
	}
	for _, ref := range refs {
		old, held, _ := h.db.storedRead(ctx, ref)
		got, err := h.refreshRead(ctx, ref)
		if err != nil || !held || got.status != old.status || !sameJSON(old.body, got.body) {
			moved = true
			heldMoved = heldMoved || held
		}
	}
	return moved, heldMoved, nil
}

// sameJSON reports whether two JSON documents say the same, whatever
// their spacing and member order, leaving out a top-level MessageId (each
// answer echoes its request's).
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	x, okA := decodeJSON(a)
	y, okB := decodeJSON(b)
	return okA && okB && reflect.DeepEqual(x, y)
}

func decodeJSON(b []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			if strings.EqualFold(k, "MessageId") {
				delete(m, k)
			}
		}
	}
	return v, true
}
