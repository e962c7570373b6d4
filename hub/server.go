package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Handler serves desktops (the service's own API, plus /api/hub/...) and
// the service's notifications (/notify).
func (h *Hub) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := normalizePath(r.URL.Path)
		h.limitBody(w, r)
		if p != "/api/hub/events" {
			w = newAnswerWriter(w)
		} else {
			// A stream moves its deadline before each event it sends; its
			// answers before that (a 401, a bad Last-Event-ID) get this one.
			http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerStall))
		}
		switch {
		case p == "/notify":
			if h.receiver == nil {
				http.Error(w, "this hub was started without the service's certificate (--cert)", http.StatusServiceUnavailable)
				return
			}
			h.receiver.ServeHTTP(w, r)
			return
		case p == "/oauth/token":
			h.serveToken(w, r)
			return
		case !strings.HasPrefix(p, "/api/") || hasDotSegment(p):
			// Dot segments are refused, not resolved: see serviceURL.
			writeError(w, notFound(), "")
			return
		}
		person, ok := h.authorize(w, r)
		if !ok {
			return
		}
		ctx := withPerson(r.Context(), person)
		r = r.WithContext(ctx)
		switch {
		case p == "/api/workorder/search" && r.Method == http.MethodPost:
			h.serveSearch(w, r)
		case p == "/api/workorder" && r.Method == http.MethodGet:
			h.serveWorkOrders(w, r)
		case p == "/api/hub/events" && r.Method == http.MethodGet:
			h.streams.serve(w, r, person)
		case p == "/api/hub/audit" && r.Method == http.MethodGet:
			h.serveAudit(w, r)
		case p == "/api/hub/sessions" && r.Method == http.MethodGet:
			h.serveSessions(w, r)
		case p == "/api/hub/me" && r.Method == http.MethodGet:
			// The desktop's status bar names the person signed in.
			writeJSON(w, http.StatusOK, map[string]any{"Name": person.Name})
		case strings.HasPrefix(p, "/api/hub/"):
			writeError(w, notFound(), "")
		case r.Method == http.MethodGet && storedReads[p].path != "":
			h.serveStoredRead(w, r, p)
		case r.Method == http.MethodGet:
			h.passRead(w, r)
		default:
			h.forwardWrite(w, r, p, person)
		}
	})
}

// normalizePath matches routes as the service does: case-insensitively,
// without a trailing slash or the real host's /Direct prefix.
func normalizePath(p string) string {
	p = strings.ToLower(p)
	if p != "/" {
		p = strings.TrimRight(p, "/")
	}
	if strings.HasPrefix(p, "/direct/") {
		p = p[len("/direct"):]
	}
	return p
}

type personKey struct{}

func withPerson(ctx context.Context, p Person) context.Context {
	return context.WithValue(ctx, personKey{}, p)
}

// authorize checks the desktop's bearer token and answers 401 as the
// service does when it is missing, expired or its person disabled.
func (h *Hub) authorize(w http.ResponseWriter, r *http.Request) (Person, bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		p, err := h.db.Authenticate(r.Context(), strings.TrimSpace(tok))
		if err == nil {
			return p, true
		}
		if !errors.Is(err, ErrBadCredentials) {
			h.log.Error("checking a token", "err", err)
			writeError(w, unavailable("the hub cannot reach its database"), queryValue(r.URL.Query(), "messageId"))
			return Person{}, false
		}
	}
	denied(w, queryValue(r.URL.Query(), "messageId"))
	return Person{}, false
}

// denied answers 401 as the service does to a token it does not take.
func denied(w http.ResponseWriter, messageId string) {
	w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
	writeError(w, &api.Error{StatusCode: http.StatusUnauthorized, Message: "Authorization has been denied for this request."}, messageId)
}

// serveToken is the client-credentials token endpoint for staff accounts,
// with the service's (RFC 6749) answers.
func (h *Hub) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the token endpoint takes POST")
		return
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	r.Body = maxBytes(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return
	}
	if g := r.PostForm.Get("grant_type"); g != "client_credentials" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "only client_credentials is supported")
		return
	}
	id, secret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if id == "" && secret == "" {
		id, secret, _ = r.BasicAuth()
	}
	if id == "" || secret == "" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "client_id and client_secret are required")
		return
	}
	if ok, wait := h.signIns.allow(id, h.opts.Now()); !ok {
		secs := int(math.Ceil(wait.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		oauthError(w, http.StatusTooManyRequests, "temporarily_unavailable",
			fmt.Sprintf("too many sign-ins; try again in %d s", secs))
		return
	}
	tok, err := h.db.IssueToken(r.Context(), id, secret)
	if errors.Is(err, ErrBadCredentials) {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	if err != nil {
		h.log.Error("issuing a token", "err", err)
		oauthError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "the hub cannot reach its database")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": tok, "token_type": "bearer", "expires_in": int(TokenLifetime.Seconds()),
	})
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers with the service's error body.
func writeError(w http.ResponseWriter, e *api.Error, messageId string) {
	if messageId == "" {
		messageId = uuid.NewString()
	}
	out := *e
	out.MessageId = messageId
	status := e.StatusCode
	if status == 0 {
		status = http.StatusBadRequest
	}
	writeJSON(w, status, &out)
}

func invalid(property, msg string) *api.Error {
	return &api.Error{StatusCode: http.StatusBadRequest, Code: api.CodeInvalidModel, Message: "The request is invalid.",
		ValidationErrors: []api.ValidationError{{Type: "InvalidValue", Property: property, Message: msg}}}
}

// notFound is the service's answer to a path it does not serve.
func notFound() *api.Error {
	return &api.Error{StatusCode: http.StatusNotFound, Message: "No HTTP resource was found that matches the request URI."}
}

func unavailable(msg string) *api.Error {
	return &api.Error{StatusCode: http.StatusServiceUnavailable, Message: msg}
}

// queryValue is the query's first value of name, its key matched
// case-insensitively as the service matches it.
func queryValue(q url.Values, name string) string {
	for k, vs := range q {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return strings.TrimSpace(vs[0])
		}
	}
	return ""
}

// maxJSONBody caps the JSON bodies the hub reads, as the service does.
const maxJSONBody = 4 << 20

func (h *Hub) serveSearch(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Parameters api.SearchParameters `json:"Parameters"`
		MessageId  string               `json:"MessageId"`
	}
	body, err := io.ReadAll(maxBytes(w, r.Body, maxJSONBody))
	if err != nil {
		writeError(w, invalid("", "the request body is larger than the 4 MB limit"), "")
		return
	}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			writeError(w, invalid("", "the request body is not valid: "+err.Error()), "")
			return
		}
	}
	for _, st := range req.Parameters.Statuses {
		if !validStatus(st) {
			writeError(w, invalid("Statuses", strconv.Quote(string(st))+" is not a work order status"), req.MessageId)
			return
		}
	}
	if req.MessageId == "" {
		req.MessageId = uuid.NewString()
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	tw := &trackedWriter{w: w}
	if err := h.db.writeSearch(r.Context(), tw, req.Parameters, req.MessageId); err != nil {
		h.readFailed(tw, err, req.MessageId)
	}
}

func validStatus(s api.WorkOrderStatus) bool {
	for _, a := range api.AllStatuses {
		if a == s {
			return true
		}
	}
	return false
}

// serveWorkOrders answers GET /api/workOrder?ids=.. as the service does: at
// most 50 ids, as repeated ids=, ids[N]= or comma-separated.
func (h *Hub) serveWorkOrders(w http.ResponseWriter, r *http.Request) {
	msgID := queryValue(r.URL.Query(), "messageId")
	// ids[N]= keys come out of the map in any order: answer in N's order.
	type key struct {
		index int
		vals  []string
	}
	var keys []key
	for k, vs := range r.URL.Query() {
		lk := strings.ToLower(k)
		switch {
		case lk == "ids":
			keys = append(keys, key{-1, vs})
		case strings.HasPrefix(lk, "ids[") && strings.HasSuffix(lk, "]"):
			n, err := strconv.Atoi(lk[4 : len(lk)-1])
			if err != nil || n < 0 {
				writeError(w, invalid("ids", strconv.Quote(k)+" is not an ids index"), msgID)
				return
			}
			keys = append(keys, key{n, vs})
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].index < keys[j].index })
	var ids []int64
	for _, k := range keys {
		for _, v := range k.vals {
			for _, s := range strings.Split(v, ",") {
				id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
				if err != nil {
					writeError(w, invalid("ids", strconv.Quote(s)+" is not a work order id"), msgID)
					return
				}
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		writeError(w, invalid("ids", "ids is required"), msgID)
		return
	}
	if len(ids) > api.MaxReadBatch {
		writeError(w, invalid("ids", "at most 50 work orders can be read per call; "+strconv.Itoa(len(ids))+" were asked for"), msgID)
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

// trackedWriter tells whether an answer has begun.
type trackedWriter struct {
	w       http.ResponseWriter
	started bool
}

func (t *trackedWriter) Write(b []byte) (int, error) {
	t.started = true
	return t.w.Write(b)
}

// readFailed answers a replica read that failed: 503 (the desktop retries)
// when nothing was sent yet, else the answer is cut so the desktop sees a
// failure, not half a list.
func (h *Hub) readFailed(tw *trackedWriter, err error, messageId string) {
	h.log.Error("reading the replica", "err", err)
	if !tw.started {
		writeError(tw.w, unavailable("the hub cannot read its database; try again later"), messageId)
		return
	}
	panic(http.ErrAbortHandler)
}
