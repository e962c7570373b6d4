package sandbox

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// notifier delivers signed notifications (spec §6, service-facts §9) one at
// a time in the order they happened: a notification that keeps failing holds
// back the ones behind it, as a single ordered queue does.
type notifier struct {
	s  *Sandbox
	hc *http.Client

	mu        sync.Mutex
	url       string
	queue     []outgoing
	attempts  int // deliveries tried, for tests and the state endpoint
	delivered int
	dead      int

	// wait pauses d between two attempts and reports false when the
	// sandbox closes first; a field so tests can record the back-off.
	wait func(d time.Duration) bool

	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

type outgoing struct {
	action string
	woID   int64
	body   []byte
}

func newNotifier(s *Sandbox, url string) *notifier {
	n := &notifier{
		s: s, url: url,
		hc:      &http.Client{Timeout: 10 * time.Second},
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	n.wait = n.sleep
	go n.run()
	return n
}

// sleep waits d in real time, or until the sandbox closes (false).
func (n *notifier) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-n.done:
		return false
	}
}

func (n *notifier) setURL(url string) {
	n.mu.Lock()
	n.url = url
	n.mu.Unlock()
	n.poke()
}

func (n *notifier) poke() {
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// send queues a notification about o. The body is encoded now, under the
// world lock, so later changes cannot leak into it. Without a receiver it
// is dropped: the real service only queues for configured webhooks.
func (n *notifier) send(o *order, action string, sender *api.Sender, now time.Time, body any) {
	n.sendAbout(o.wo.WorkOrderId, o.cust.BranchId, action, sender, now, body)
}

// sendAbout queues a notification about woID (0 with branch 0: a
// company-level one, such as a change of a customer's questions).
func (n *notifier) sendAbout(woID, branch int64, action string, sender *api.Sender, now time.Time, body any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.url == "" {
		return
	}
	h := api.EventHeader{
		WorkOrderId: woID, BranchId: branch, Sender: sender,
		Action: action, ActionDate: now, ApiVersion: "1.1", MessageId: uuid.NewString(),
	}
	b, err := api.MarshalEvent(h, body)
	if err != nil {
		n.s.log.Error("encoding a notification failed", "action", action, "err", err)
		return
	}
	n.queue = append(n.queue, outgoing{action: action, woID: woID, body: b})
	n.poke()
}

func (n *notifier) close() {
	n.once.Do(func() { close(n.done) })
	<-n.stopped
}

func (n *notifier) run() {
	defer close(n.stopped)
	for {
		n.mu.Lock()
		if len(n.queue) == 0 {
			n.mu.Unlock()
			select {
			case <-n.wake:
				continue
			case <-n.done:
				return
			}
		}
		ev := n.queue[0]
		n.mu.Unlock()
		if !n.deliver(ev) {
			return
		}
		n.mu.Lock()
		n.queue = n.queue[1:]
		n.mu.Unlock()
	}
}

// deliver tries until the receiver answers 2xx or NotifyAttempts is spent,
// waiting RetryIntervals between tries (the last interval repeats). It
// reports false when the sandbox is closing.
func (n *notifier) deliver(ev outgoing) bool {
	intervals := n.s.opts.RetryIntervals
	for attempt := 1; ; attempt++ {
		n.mu.Lock()
		url, wait := n.url, n.wait
		n.attempts++
		n.mu.Unlock()
		if url == "" {
			return true // receiver removed meanwhile: nowhere to deliver
		}
		status, err := n.post(url, ev)
		if err == nil && status/100 == 2 {
			n.mu.Lock()
			n.delivered++
			n.mu.Unlock()
			return true
		}
		// Never the URL or the token: the URL may carry a secret path.
		n.s.log.Warn("notification not delivered", "action", ev.action, "workOrderId", ev.woID, "attempt", attempt, "status", status, "err", errText(err))
		if attempt >= n.s.opts.NotifyAttempts {
			n.mu.Lock()
			n.dead++
			n.mu.Unlock()
			n.s.log.Error("notification dropped after the last attempt", "action", ev.action, "workOrderId", ev.woID, "attempts", attempt)
			return true
		}
		if !wait(intervals[min(attempt-1, len(intervals)-1)]) {
			return false
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error() // url.Error quotes the address
	}
	return err.Error()
}

func (n *notifier) post(target string, ev outgoing) (int, error) {
	tok, err := n.s.mintToken()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-n.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(ev.body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Event-Type", ev.action)
	resp, err := n.hc.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// NotifyStats counts notification deliveries.
type NotifyStats struct {
	Queued, Attempts, Delivered, Dead int
}

// NotifyStats reports the notification queue (tests, the state endpoint).
func (s *Sandbox) NotifyStats() NotifyStats {
	n := s.notify
	n.mu.Lock()
	defer n.mu.Unlock()
	return NotifyStats{Queued: len(n.queue), Attempts: n.attempts, Delivered: n.delivered, Dead: n.dead}
}
