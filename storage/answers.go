package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Who has stopped answering, as the window names it.
const (
	SilentService = "service" // the customer's service (directly, or as the office hub reports it)
	SilentHub     = "hub"     // the office hub itself
)

// DefaultSilentAfter is how long a call may wait for an answer before the
// window says who is not answering: 8 s, so that the words are on screen
// within 10 s of the call. The call itself keeps its own timeout: an
// upload or a slow search may rightly take longer.
const DefaultSilentAfter = 8 * time.Second

// probeEvery is how often, while the other side is silent, a small request
// asks whether it answers again: the window says so within seconds of its
// return, not at the outbox's next back-off.
const probeEvery = 5 * time.Second

// Silence says who has not answered, and since when.
type Silence struct {
	Who   string // SilentService or SilentHub
	Since time.Time
}

// answers watches every call the engine makes (its client, its tokens, the
// hub's event stream) for answers. Any answer, or any byte of an open
// stream, counts as "heard". A call waiting with nothing heard since it
// was asked, or a call that failed without an answer, makes the other side
// silent once after has passed; the first answer to anything clears it.
type answers struct {
	after time.Duration
	hub   bool   // the calls go to an office hub
	probe string // the URL asked while silent

	mu      sync.Mutex
	seq     int64
	waiting map[int64]waitingCall // calls waiting for an answer
	failed  time.Time             // the earliest unanswered call that ended in an error, since anything was heard
	heard   time.Time             // when anything was last heard
	// down: the office hub answers, but says it cannot reach the
	// customer's service (since then, and last at downLast); cleared when
	// a write goes through, or when it has not said so for downFor.
	down, downLast time.Time
	shown          *Silence // as last reported
	timer          *time.Timer
	probing        bool
	closed         bool
	listeners      []func()
	probeHTTP      *http.Client
}

// waitingCall is a call waiting for an answer since at (when it last made
// progress); grace is the extra time it may rightly wait (an open event
// stream between heartbeats).
type waitingCall struct {
	at    time.Time
	grace time.Duration
}

// streamGrace is how long an open event stream may send nothing before it
// counts as unanswered: the hub writes a heartbeat every 10 s (tests
// shorten it).
var streamGrace = 10 * time.Second

// downFor is how long the hub's word that the service does not answer it
// holds without being said again: with nothing sent meanwhile, nothing
// says whether the service is back.
const downFor = 2 * time.Minute

// newAnswers watches calls made through transport (nil: the default one);
// while silent it asks probe.
func newAnswers(transport http.RoundTripper, after time.Duration, hub bool, probe string) *answers {
	if after <= 0 {
		after = DefaultSilentAfter
	}
	w := &answers{after: after, hub: hub, probe: probe, waiting: map[int64]waitingCall{}}
	w.probeHTTP = w.client(&http.Client{Transport: transport, Timeout: probeEvery})
	return w
}

// client is a copy of hc whose calls are watched.
func (w *answers) client(hc *http.Client) *http.Client {
	c := *hc
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &watched{w, next}
	return &c
}

// watched is a transport whose calls are watched.
type watched struct {
	w    *answers
	next http.RoundTripper
}

func (t *watched) RoundTrip(r *http.Request) (*http.Response, error) {
	w := t.w
	next := t.next
	id := w.begin()
	if r.Body != nil && r.Body != http.NoBody {
		// A body being sent is progress (an upload of minutes is not
		// silence); the clock starts once it has all gone.
		r = r.Clone(r.Context())
		r.Body = &progressBody{ReadCloser: r.Body, w: w, id: id}
	}
	resp, err := next.RoundTrip(r)
	switch {
	case err != nil:
		w.end(id, r.Context().Err() == nil || errors.Is(r.Context().Err(), context.DeadlineExceeded))
		return nil, err
	case resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout:
		// A proxy in front answered for a server behind it that did not.
		w.end(id, true)
		return resp, nil
	}
	w.answered(id, r.Method, w.hubCannotReach(resp))
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = w.stream(resp.Body)
	}
	return resp, nil
}

// hubCannotReach reports the office hub's answer that the customer's
// service cannot be reached from it (a 503 with its own words), leaving
// the body readable.
func (w *answers) hubCannotReach(resp *http.Response) bool {
	if !w.hub || resp.StatusCode != http.StatusServiceUnavailable {
		return false
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(raw), resp.Body), resp.Body}
	var e struct{ Message string }
	return json.Unmarshal(raw, &e) == nil && e.Message == api.HubCannotReachService
}

func (w *answers) begin() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	w.waiting[w.seq] = waitingCall{at: time.Now()}
	w.update()
	return w.seq
}

// progressed: call id moved on (a piece of its body went out, or a stream
// delivered bytes, which is also an answer).
func (w *answers) progressed(id int64, answer bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.waiting[id]; ok {
		c.at = time.Now()
		w.waiting[id] = c
	}
	if answer {
		w.heardNow()
	}
	w.update()
}

// end: call id ended without an answer; unanswered unless its caller gave up.
func (w *answers) end(id int64, unanswered bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.waiting[id]; ok && unanswered && (w.failed.IsZero() || c.at.Before(w.failed)) {
		w.failed = c.at
	}
	delete(w.waiting, id)
	w.update()
}

func (w *answers) answered(id int64, method string, cannotReach bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.waiting, id)
	w.heardNow()
	switch {
	case cannotReach:
		if w.down.IsZero() {
			w.down = time.Now()
		}
		w.downLast = time.Now()
	case !cannotReach && method != http.MethodGet:
		w.down = time.Time{} // a write went through the hub: the service answers it
	}
	w.update()
}

func (w *answers) heardNow() {
	w.heard = time.Now()
	w.failed = time.Time{}
}

// silence is who is silent now, if anyone, and when that may next change
// with nothing heard (zero: it will not) (mu held).
func (w *answers) silence(now time.Time) (*Silence, time.Time) {
	var due time.Time
	sooner := func(t time.Time) {
		if due.IsZero() || t.Before(due) {
			due = t
		}
	}
	if !w.down.IsZero() {
		if end := w.downLast.Add(downFor); now.Before(end) {
			sooner(end)
		} else {
			w.down = time.Time{}
		}
	}
	var since time.Time
	silentAt := time.Time{}
	consider := func(at time.Time, grace time.Duration) {
		if at.Before(w.heard) {
			at = w.heard // answered since: its clock starts over
		}
		if t := at.Add(w.after + grace); silentAt.IsZero() || t.Before(silentAt) {
			silentAt, since = t, at
		}
	}
	if !w.failed.IsZero() {
		consider(w.failed, 0)
	}
	for _, c := range w.waiting {
		consider(c.at, c.grace)
	}
	if !silentAt.IsZero() {
		if now.Before(silentAt) {
			sooner(silentAt)
			return w.hubDown(), due
		}
		who := SilentService
		if w.hub {
			who = SilentHub
		}
		return &Silence{Who: who, Since: since}, due
	}
	return w.hubDown(), due
}

func (w *answers) hubDown() *Silence {
	if w.down.IsZero() {
		return nil
	}
	return &Silence{Who: SilentService, Since: w.down}
}

// update reports a change of who is silent and sets the timer for the
// moment a waiting call would make the other side silent (mu held).
func (w *answers) update() {
	if w.closed {
		return
	}
	now := time.Now()
	s, due := w.silence(now)
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if !due.IsZero() {
		w.timer = time.AfterFunc(due.Sub(now), func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.update()
		})
	}
	if (s == nil) == (w.shown == nil) && (s == nil || *s == *w.shown) {
		return
	}
	w.shown = s
	if s != nil && s.Who == silentFor(w.hub) && !w.probing && w.probe != "" {
		w.probing = true
		go w.probeUntilHeard()
	}
	for _, f := range w.listeners {
		go f()
	}
}

func silentFor(hub bool) string {
	if hub {
		return SilentHub
	}
	return SilentService
}

// probeUntilHeard asks the silent side a small question every few seconds
// (its address: any answer at all will do) until something is heard.
func (w *answers) probeUntilHeard() {
	for {
		w.mu.Lock()
		stop := w.closed || w.shown == nil || w.shown.Who != silentFor(w.hub)
		if stop {
			w.probing = false
		}
		w.mu.Unlock()
		if stop {
			return
		}
		start := time.Now()
		if req, err := http.NewRequest(http.MethodGet, w.probe, nil); err == nil {
			if resp, err := w.probeHTTP.Do(req); err == nil {
				io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
				resp.Body.Close()
			}
		}
		time.Sleep(max(0, probeEvery-time.Since(start)))
	}
}

// Silent is who has not answered now, if anyone.
func (w *answers) Silent() *Silence {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shown == nil {
		return nil
	}
	s := *w.shown
	return &s
}

// Heard is when anything was last heard from the other side.
func (w *answers) Heard() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.heard
}

func (w *answers) onChange(f func()) {
	w.mu.Lock()
	w.listeners = append(w.listeners, f)
	w.mu.Unlock()
}

func (w *answers) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
	}
}

// progressBody reports each piece of a request body that goes out.
type progressBody struct {
	io.ReadCloser
	w  *answers
	id int64
}

func (b *progressBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 || err == io.EOF {
		b.w.progressed(b.id, false)
	}
	return n, err
}

// stream watches an event stream's body: it waits for its next bytes, and
// a hub that sends nothing for a heartbeat and more is silent.
func (w *answers) stream(body io.ReadCloser) io.ReadCloser {
	w.mu.Lock()
	w.seq++
	id := w.seq
	w.mu.Unlock()
	s := &streamBody{ReadCloser: body, w: w, id: id}
	s.expect()
	return s
}

type streamBody struct {
	io.ReadCloser
	w    *answers
	id   int64
	once sync.Once
}

// expect counts the stream as waiting for its next bytes from now, with a
// heartbeat's grace: silent a heartbeat later than a call would be.
func (s *streamBody) expect() {
	s.w.mu.Lock()
	defer s.w.mu.Unlock()
	s.w.waiting[s.id] = waitingCall{at: time.Now(), grace: streamGrace}
	s.w.update()
}

func (s *streamBody) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	if n > 0 {
		s.w.mu.Lock()
		s.w.heardNow()
		s.w.mu.Unlock()
		s.expect()
	}
	if err != nil {
		s.done()
	}
	return n, err
}

func (s *streamBody) Close() error {
	s.done()
	return s.ReadCloser.Close()
}

// done: the stream ended; the call that opens it again is watched.
func (s *streamBody) done() {
	s.once.Do(func() { s.w.end(s.id, false) })
}
