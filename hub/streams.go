package hub

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workorderdesk/workdesk/api/serve"
)

// storedEvent is one row of the event log on its way to the streams.
type storedEvent struct {
	id   int64
	body string
}

// DefaultStreamsPerPerson is how many event streams one person holds open
// (a desktop holds one; a few more for a second computer or a reconnection
// the hub has not noticed yet); opening one more closes their oldest.
const DefaultStreamsPerPerson = 8

// closeStreamChannel carries the id of a stream some instance must close
// (its person opened one too many elsewhere).
const closeStreamChannel = "workdesk_hub_close_stream"

// subscriberBuffer is how many events a stream may fall behind before it is
// ended; the desktop reconnects with Last-Event-ID and catches up from the log.
const subscriberBuffer = 1024

// DefaultStreamHeartbeat is how often an open stream refreshes its row in
// streams (GET /api/hub/sessions), checks that its person is still
// enabled, and sends a comment line to keep proxies from closing it.
const DefaultStreamHeartbeat = 10 * time.Second

// streams fans the event log out to this instance's open streams. One
// LISTEN connection per instance hears every instance's NOTIFY and reads
// each new event once, whatever the number of streams.
type streams struct {
	h    *Hub
	mu   sync.Mutex
	subs map[chan storedEvent]*subscriber
	last int64 // the newest event delivered
	// started: last has been set from the log.
	started bool
	// ready closes once the listener first listens.
	ready     chan struct{}
	readyOnce sync.Once
}

func newStreams(h *Hub) *streams {
	return &streams{h: h, subs: map[chan storedEvent]*subscriber{}, ready: make(chan struct{})}
}

// subscriber is one open stream: whose, and its row in the streams table
// (0 until it has one).
type subscriber struct {
	person int64
	id     int64
}

// start sets the point from which this instance's streams hear events
// live: the newest event now. It runs before the listener connects, and the
// listener catches up from it, so an event stored meanwhile is not lost.
func (s *streams) start(ctx context.Context) {
	var last int64
	if err := s.h.db.Pool.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&last); err != nil {
		s.h.log.Warn("reading the newest event", "err", err)
		return
	}
	s.mu.Lock()
	s.last, s.started = last, true
	s.mu.Unlock()
}

// listen holds the LISTEN connection until ctx ends, reconnecting after a
// failure and catching up from the log, so no committed event is skipped.
func (s *streams) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		s.h.log.Warn("event listener stopped; reconnecting", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (s *streams) listenOnce(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, s.h.db.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel+"; LISTEN "+disabledChannel+"; LISTEN "+closeStreamChannel); err != nil {
		return err
	}
	s.readyOnce.Do(func() { close(s.ready) })
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		// start could not read the log: begin from now rather than replay
		// all history to every stream.
		var last int64
		if err := conn.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&last); err != nil {
			return err
		}
		s.mu.Lock()
		s.last, s.started = last, true
		s.mu.Unlock()
	}
	if err := s.catchUp(ctx, conn); err != nil {
		return err
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		switch n.Channel {
		case disabledChannel:
			id, _ := strconv.ParseInt(n.Payload, 10, 64)
			s.endPerson(id)
			continue
		case closeStreamChannel:
			id, _ := strconv.ParseInt(n.Payload, 10, 64)
			s.endStream(id)
			continue
		}
		if err := s.catchUp(ctx, conn); err != nil {
			return err
		}
	}
}

// catchUp delivers every event newer than the last one delivered.
func (s *streams) catchUp(ctx context.Context, conn *pgx.Conn) error {
	for {
		s.mu.Lock()
		last := s.last
		s.mu.Unlock()
		rows, err := conn.Query(ctx, `SELECT id, body FROM events WHERE id > $1 ORDER BY id LIMIT 500`, last)
		if err != nil {
			return err
		}
		evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedEvent, error) {
			var e storedEvent
			err := r.Scan(&e.id, &e.body)
			return e, err
		})
		if err != nil {
			return err
		}
		s.mu.Lock()
		for _, e := range evs {
			for ch := range s.subs {
				select {
				case ch <- e:
				default:
					// Too far behind: end the stream, the desktop resumes from the log.
					delete(s.subs, ch)
					close(ch)
				}
			}
			s.last = e.id
		}
		s.mu.Unlock()
		if len(evs) < 500 {
			return nil
		}
	}
}

func (s *streams) subscribe(person int64) (chan storedEvent, *subscriber, int64) {
	ch := make(chan storedEvent, subscriberBuffer)
	sub := &subscriber{person: person}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[ch] = sub
	return ch, sub, s.last
}

// open counts the streams this instance serves.
func (s *streams) open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs)
}

// endPerson ends the streams of a person whose account was just disabled,
// or given a new secret.
func (s *streams) endPerson(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch, sub := range s.subs {
		if sub.person == id {
			delete(s.subs, ch)
			close(ch)
		}
	}
}

// endStream ends the stream whose row is id, if this instance serves it.
func (s *streams) endStream(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch, sub := range s.subs {
		if sub.id == id {
			delete(s.subs, ch)
			close(ch)
		}
	}
}

// keepNewest closes the person's oldest streams, on whatever instance,
// beyond the newest StreamsPerPerson: one person's token cannot hold the
// office's connections. Streams of an instance gone quiet are not counted.
func (s *streams) keepNewest(ctx context.Context, person int64) error {
	rows, err := s.h.db.Pool.Query(ctx, `SELECT id, instance FROM streams WHERE person_id = $1 AND seen > now() - $2::interval
		ORDER BY id DESC OFFSET $3`, person, 3*s.h.opts.StreamHeartbeat, s.h.opts.StreamsPerPerson)
	if err != nil {
		return err
	}
	type stream struct {
		id       int64
		instance string
	}
	old, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (stream, error) {
		var st stream
		err := r.Scan(&st.id, &st.instance)
		return st, err
	})
	if err != nil {
		return err
	}
	for _, st := range old {
		if st.instance == s.h.instance {
			s.endStream(st.id)
		} else if _, err := s.h.db.Pool.Exec(ctx, `SELECT pg_notify($1, $2)`, closeStreamChannel, strconv.FormatInt(st.id, 10)); err != nil {
			return err
		}
		// Its row goes when its stream ends; meanwhile it is not counted twice.
		if _, err := s.h.db.Pool.Exec(ctx, `UPDATE streams SET seen = '-infinity' WHERE id = $1`, st.id); err != nil {
			return err
		}
	}
	if len(old) > 0 {
		s.h.sec.note(secRateLimited, clientFrom(ctx), fmt.Sprintf("event streams of one person (more than %d)", s.h.opts.StreamsPerPerson))
	}
	return nil
}

// closeAll ends every open stream of this instance.
func (s *streams) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		delete(s.subs, ch)
		close(ch)
	}
}

func (s *streams) unsubscribe(ch chan storedEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.subs[ch]; ok {
		delete(s.subs, ch)
		close(ch)
	}
}

// serve is GET /api/hub/events: Server-Sent Events, each with the event
// log's id and one JSON notification as data; it resumes after Last-Event-ID.
func (s *streams) serve(w http.ResponseWriter, r *http.Request, p Person) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		serve.WriteError(w, unavailable("streaming is not supported here"), "")
		return
	}
	resume := r.Header.Get("Last-Event-ID")
	if resume == "" {
		resume = serve.Query(r.URL.Query(), "lastEventId")
	}
	var after int64 = -1
	if resume != "" {
		n, err := strconv.ParseInt(resume, 10, 64)
		if err != nil || n < 0 {
			serve.WriteError(w, serve.Invalid("Last-Event-ID", "Last-Event-ID must be an event id"), "")
			return
		}
		after = n
	}
	ctx := r.Context()
	// Subscribe before reading the backlog, so nothing falls between them.
	ch, sub, delivered := s.subscribe(p.Id)
	defer s.unsubscribe(ch)
	var streamID int64
	if err := s.h.db.Pool.QueryRow(ctx, `INSERT INTO streams (instance, person_id) VALUES ($1, $2) RETURNING id`,
		s.h.instance, p.Id).Scan(&streamID); err != nil {
		serve.WriteError(w, unavailable("the hub cannot reach its database"), "")
		return
	}
	defer s.h.db.Pool.Exec(context.WithoutCancel(ctx), `DELETE FROM streams WHERE id = $1`, streamID)
	s.mu.Lock()
	sub.id = streamID
	s.mu.Unlock()
	if err := s.keepNewest(ctx, p.Id); err != nil {
		s.h.log.Warn("closing a person's oldest streams", "err", err)
	}
	// A new stream starts at the newest event committed, not at the newest
	// this instance delivered: the listener may still trail events already
	// committed, and would hand them to this stream as if they were news.
	var newest int64
	if after < 0 {
		if err := s.h.db.Pool.QueryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&newest); err != nil {
			serve.WriteError(w, unavailable("the hub cannot reach its database"), "")
			return
		}
	}

	// A desktop that stops reading its stream (its machine asleep, a proxy
	// stuck) is let go once a write has waited answerStall, rather than
	// holding a connection and this goroutine for ever.
	rc := http.NewResponseController(w)
	writeBy := func() { rc.SetWriteDeadline(time.Now().Add(answerStall)) }
	writeBy()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": workdesk hub events\n\n")
	flusher.Flush()
	sent := delivered
	if after >= 0 {
		sent = after
		if err := s.backlog(ctx, w, &sent, delivered, writeBy); err != nil {
			return
		}
		flusher.Flush()
	} else {
		sent = max(delivered, newest)
	}
	tick := time.NewTicker(s.h.opts.StreamHeartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			// The notice that ends a disabled person's streams, or one
			// closed for a newer one of theirs, is missed while the
			// listener reconnects: each heartbeat checks too.
			tag, err := s.h.db.Pool.Exec(ctx, `UPDATE streams s SET seen = now() FROM people p
				WHERE s.id = $1 AND p.id = s.person_id AND NOT p.disabled AND s.seen <> '-infinity'`, streamID)
			if err == nil && tag.RowsAffected() == 0 {
				return
			}
			writeBy()
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
			flusher.Flush()
		case e, ok := <-ch:
			if !ok {
				return
			}
			if e.id <= sent {
				continue
			}
			writeBy()
			if err := writeEvent(w, e); err != nil {
				return
			}
			sent = e.id
			// Send what else is queued before flushing: one write per burst.
			for more := true; more; {
				select {
				case e, ok := <-ch:
					if !ok {
						flusher.Flush()
						return
					}
					if e.id > sent {
						if writeEvent(w, e) != nil {
							return
						}
						sent = e.id
					}
				default:
					more = false
				}
			}
			flusher.Flush()
		}
	}
}

// backlog writes the stored events after *sent up to upTo (what the live
// channel will not carry), moving the write deadline (writeBy) per page.
func (s *streams) backlog(ctx context.Context, w http.ResponseWriter, sent *int64, upTo int64, writeBy func()) error {
	for *sent < upTo {
		writeBy()
		rows, err := s.h.db.Pool.Query(ctx, `SELECT id, body FROM events WHERE id > $1 AND id <= $2 ORDER BY id LIMIT 500`, *sent, upTo)
		if err != nil {
			return err
		}
		evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (storedEvent, error) {
			var e storedEvent
			err := r.Scan(&e.id, &e.body)
			return e, err
		})
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		for _, e := range evs {
			if err := writeEvent(w, e); err != nil {
				return err
			}
			*sent = e.id
		}
	}
	return nil
}

var errNewline = errors.New("event body holds a newline")

func writeEvent(w http.ResponseWriter, e storedEvent) error {
	body := e.body
	for i := 0; i < len(body); i++ {
		if body[i] == '\n' || body[i] == '\r' {
			// JSON never needs a raw newline outside strings, and inside
			// strings it is escaped; a stored body with one was not compact.
			return errNewline
		}
	}
	_, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", e.id, body)
	return err
}

// session is one row of GET /api/hub/sessions.
type session struct {
	Name    string    `json:"Name"`
	Since   time.Time `json:"Since"`
	Streams int       `json:"Streams"`
}

// serveSessions lists the people whose desktops hold an event stream now,
// on any instance.
func (h *Hub) serveSessions(w http.ResponseWriter, r *http.Request) {
	msgID := serve.MessageId(r.URL.Query(), nil)
	if msgID == "" {
		msgID = uuid.NewString()
	}
	rows, err := h.db.Pool.Query(r.Context(), `SELECT p.name, min(s.opened), count(*) FROM streams s JOIN people p ON p.id = s.person_id
		WHERE s.seen > now() - $1::interval AND NOT p.disabled GROUP BY p.name ORDER BY p.name`, 3*h.opts.StreamHeartbeat)
	if err != nil {
		serve.WriteError(w, unavailable("the hub cannot reach its database"), msgID)
		return
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (session, error) {
		var s session
		err := r.Scan(&s.Name, &s.Since, &s.Streams)
		return s, err
	})
	if err != nil {
		serve.WriteError(w, unavailable("the hub cannot reach its database"), msgID)
		return
	}
	if out == nil {
		out = []session{}
	}
	serve.WriteJSON(w, http.StatusOK, map[string]any{"Sessions": out, "MessageId": msgID})
}
