package hub

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// Handler serves desktops (the service's own API, plus /api/hub/...) and
// the service's notifications (/notify).
func (h *Hub) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := serve.Route(r.URL.EscapedPath())
		addr := clientOf(r, h.opts.TrustedProxies)
		r = r.WithContext(withClient(r.Context(), addr))
		requestFrom(r.Context(), addr)
		h.limitBody(w, r)
		if p != "/api/hub/events" {
			w = newAnswerWriter(w)
		} else {
			// A stream moves its deadline before each event it sends; its
			// answers before that (a 401, a bad Last-Event-ID) get this one.
			http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerStall))
		}
		switch {
		case p != "/healthz" && !strings.HasPrefix(p, "/api/") && !withinCaps(r.Context()):
			// Behind a proxy: a forwarded client over its caps.
			h.tooMany(w, r, addr, "connections")
			return
		case p == "/notify":
			h.serveNotify(w, r, addr)
			return
		case p == "/healthz":
			h.serveHealth(w, r)
			return
		case p == "/readyz" || p == "/metrics" && !h.opts.PrivateMetrics:
			// Each asks the database or gathers every metric: counted as
			// any other request that proves no one.
			done, ok := h.anon.start(addr, h.opts.Now())
			if !ok {
				h.tooMany(w, r, addr, "health checks and metrics")
				return
			}
			defer done()
			if p == "/readyz" {
				h.serveReady(w, r)
			} else {
				h.metricsHandler().ServeHTTP(w, r)
			}
			return
		case p == "/oauth/token":
			done, ok := h.anon.start(addr, h.opts.Now())
			if !ok {
				h.metrics.signInRefused(signInRateLimited)
				h.tooMany(w, r, addr, "sign-ins")
				return
			}
			defer done()
			h.serveToken(w, r, addr)
			return
		case !strings.HasPrefix(p, "/api/"):
			// Also every path Route refuses rather than resolve ("/api/../x",
			// encoded slashes, ...): see serviceURL.
			serve.WriteError(w, serve.NotFound(), "")
			return
		}
		person, ok := h.authorize(w, r, addr)
		if !ok {
			return
		}
		ctx := withPerson(r.Context(), person)
		r = r.WithContext(ctx)
		switch {
		case p == "/api/hub/events" && r.Method == http.MethodGet:
			h.streams.serve(w, r, person)
		case p == "/api/hub/audit" && r.Method == http.MethodGet:
			h.serveAudit(w, r)
		case p == "/api/hub/sessions" && r.Method == http.MethodGet:
			h.serveSessions(w, r)
		case p == "/api/hub/me" && r.Method == http.MethodGet:
			// The desktop's status bar names the person signed in.
			serve.WriteJSON(w, http.StatusOK, map[string]any{"Name": person.Name})
		case strings.HasPrefix(p, "/api/hub/"):
			serve.WriteError(w, serve.NotFound(), "")
		case !forwarded(r.Method, p):
			h.notForwarded(w, r)
		case p == "/api/workorder/search" && r.Method == http.MethodPost:
			h.serveSearch(w, r)
		case p == "/api/workorder" && r.Method == http.MethodGet:
			h.serveWorkOrders(w, r)
		case r.Method == http.MethodGet && storedReads[p].path != "":
			h.serveStoredRead(w, r, p)
		case r.Method == http.MethodGet:
			h.passRead(w, r)
		default:
			h.forwardWrite(w, r, p, person)
		}
	})
}

// tooMany answers 429 to a client address over one of its limits, and
// logs the trip.
func (h *Hub) tooMany(w http.ResponseWriter, r *http.Request, addr netip.Addr, what string) {
	h.sec.note(secRateLimited, addr, what)
	w.Header().Set("Retry-After", strconv.Itoa(int(anonBlocked/time.Second)))
	// Its body may be unread (a sign-in form stalled): the connection ends.
	endReads(w)
	serve.WriteError(w, &api.Error{StatusCode: http.StatusTooManyRequests,
		Message: "Too many requests from this address without a valid sign-in; try again shortly."}, serve.MessageId(r.URL.Query(), nil))
}

// serveNotify takes the service's notifications: from the documented
// source range when the office says so, and counted against the client's
// unauthenticated requests unless their token verifies.
func (h *Hub) serveNotify(w http.ResponseWriter, r *http.Request, addr netip.Addr) {
	if h.receiver == nil {
		h.metrics.notification(notificationRefused)
		http.Error(w, "this hub was started without the service's certificate (--cert)", http.StatusServiceUnavailable)
		return
	}
	if len(h.opts.NotifyFrom) > 0 && !trusted(h.opts.NotifyFrom, addr) {
		h.metrics.notification(notificationRefused)
		h.sec.note(secNotificationRefused, addr, "outside the source range the office allows (--notify-from)")
		w.Header().Set("Connection", "close")
		http.Error(w, http.StatusText(http.StatusForbidden), http.StatusForbidden)
		return
	}
	if _, err := h.opts.Verifier.Verify(r.Header.Get("Authorization")); err != nil {
		done, ok := h.anon.start(addr, h.opts.Now())
		if !ok {
			h.metrics.notification(notificationRefused)
			h.tooMany(w, r, addr, "notifications whose token does not verify")
			return
		}
		defer done()
	}
	h.receiver.ServeHTTP(w, r)
}

type personKey struct{}

func withPerson(ctx context.Context, p Person) context.Context {
	return context.WithValue(ctx, personKey{}, p)
}

// authorize checks the desktop's bearer token and answers 401 as the
// service does when it is missing, expired or its person disabled; a
// client address refused too often is answered 429 instead.
func (h *Hub) authorize(w http.ResponseWriter, r *http.Request, addr netip.Addr) (Person, bool) {
	tok, ok := serve.Bearer(r)
	if ok {
		p, err := h.db.Authenticate(r.Context(), tok)
		if err == nil {
			signedIn(r.Context())
			return p, true
		}
		if !errors.Is(err, ErrBadCredentials) {
			h.log.Error("checking a token", "err", err)
			serve.WriteError(w, unavailable("the hub cannot reach its database"), serve.MessageId(r.URL.Query(), nil))
			return Person{}, false
		}
		if disabled, _ := h.db.tokenOfDisabled(r.Context(), tok); disabled != "" {
			// Never the path or method: one line per path would let a
			// caller fill the log.
			h.sec.note(secDisabledCall, addr, disabled+": a call with their old token")
		}
	}
	if !h.anon.refused(addr, h.opts.Now()) {
		h.tooMany(w, r, addr, "calls without a valid sign-in")
		return Person{}, false
	}
	// Its body is left unread: the connection ends rather than wait for
	// it, so a stalled body holds nothing.
	endReads(w)
	serve.Denied(w, serve.MessageId(r.URL.Query(), nil))
	return Person{}, false
}

// serveToken is the client-credentials token endpoint for staff accounts,
// with the service's (RFC 6749) answers.
func (h *Hub) serveToken(w http.ResponseWriter, r *http.Request, addr netip.Addr) {
	id, secret, ok := serve.TokenRequest(w, r)
	if !ok {
		h.metrics.signInRefused(signInMalformed)
		h.sec.note(secSignInRefused, addr, "not a sign-in form")
		return
	}
	if ok, wait := h.signIns.allow(keyOf(addr), id, h.opts.Now()); !ok {
		h.metrics.signInRefused(signInRateLimited)
		h.sec.note(secRateLimited, addr, "sign-ins")
		secs := int(math.Ceil(wait.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		serve.OAuthError(w, http.StatusTooManyRequests, "temporarily_unavailable",
			fmt.Sprintf("too many sign-ins from this address; try again in %d s", secs))
		return
	}
	select {
	case h.bcrypts <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	tok, err := h.db.IssueToken(r.Context(), id, secret)
	<-h.bcrypts
	if errors.Is(err, errDisabledAccount) {
		h.sec.note(secDisabledCall, addr, "sign-in as "+id)
	}
	if errors.Is(err, ErrBadCredentials) {
		h.metrics.signInRefused(signInBadCredentials)
		h.sec.note(secSignInRefused, addr, "unknown client or wrong secret")
		serve.OAuthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	if err != nil {
		h.log.Error("issuing a token", "err", err)
		serve.OAuthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "the hub cannot reach its database")
		return
	}
	serve.WriteToken(w, tok, "")
}

func unavailable(msg string) *api.Error {
	return &api.Error{StatusCode: http.StatusServiceUnavailable, Message: msg}
}

func (h *Hub) serveSearch(w http.ResponseWriter, r *http.Request) {
	body, bad := serve.ReadBody(w, r)
	msgID := serve.MessageId(r.URL.Query(), body)
	var params api.SearchParameters
	if bad == nil {
		params, bad = serve.SearchParameters(body)
	}
	if bad != nil {
		serve.WriteError(w, bad, msgID)
		return
	}
	if msgID == "" {
		msgID = uuid.NewString()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	tw := &trackedWriter{w: w}
	if err := h.db.writeSearch(r.Context(), tw, params, msgID); err != nil {
		h.readFailed(tw, err, msgID)
	}
}

// serveWorkOrders answers GET /api/workOrder?ids=.. as the service does.
func (h *Hub) serveWorkOrders(w http.ResponseWriter, r *http.Request) {
	msgID := serve.MessageId(r.URL.Query(), nil)
	ids, bad := serve.IDs(r.URL.Query())
	if bad != nil {
		serve.WriteError(w, bad, msgID)
		return
	}
	if msgID == "" {
		msgID = uuid.NewString()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	tw := &trackedWriter{w: w}
	if err := h.db.writeWorkOrders(r.Context(), tw, ids, msgID); err != nil {
		h.readFailed(tw, err, msgID)
	}
}

// trackedWriter tells whether an answer has begun, and whether writing
// it failed (the desktop hung up).
type trackedWriter struct {
	w       http.ResponseWriter
	started bool
	hungUp  bool
}

func (t *trackedWriter) Write(b []byte) (int, error) {
	t.started = true
	n, err := t.w.Write(b)
	if err != nil {
		t.hungUp = true
	}
	return n, err
}

// readFailed answers a replica read that failed: 503 (the desktop retries)
// when nothing was sent yet, else the answer is cut so the desktop sees a
// failure, not half a list. A desktop that hung up is no failure of the
// hub's, and not logged: any signed-in caller could write a line a call.
func (h *Hub) readFailed(tw *trackedWriter, err error, messageId string) {
	if tw.hungUp {
		panic(http.ErrAbortHandler)
	}
	h.log.Error("reading the replica", "err", err)
	if !tw.started {
		serve.WriteError(tw.w, unavailable("the hub cannot read its database; try again later"), messageId)
		return
	}
	panic(http.ErrAbortHandler)
}

// endReads closes the connection after an answer given before the body
// was read: Go's server would otherwise read what is left of the body
// first (for as long as a client takes to send it), with Connection:
// close or without.
func endReads(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.NewResponseController(w).SetReadDeadline(time.Now())
}
