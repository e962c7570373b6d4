package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"
)

// readKind is one of the service's reads the hub answers from PostgreSQL:
// its answer is stored per work order (per step, per customer) and served
// until a write, a notification or a sync about that work order refreshes it.
type readKind struct {
	path string   // as the service spells it, without the leading slash
	keys []string // its query keys, as the desktop's client sends them
	// customer: keyed by a customer, not a work order.
	customer bool
	// fresh: every desktop's read of it goes to the service (a landed
	// check compares with what the service holds now); its answer is
	// stored all the same, so a notification's re-read can tell whether
	// it changed.
	fresh bool
}

// storedReads are the reads answered from PostgreSQL, by normalized path.
// Download links are not among them: they are fetched fresh every time and
// never stored.
var storedReads = map[string]readKind{
	"/api/messages":                   {path: "api/messages", keys: []string{"workOrderId"}},
	"/api/attachments":                {path: "api/attachments", keys: []string{"workOrderId"}},
	"/api/invoice":                    {path: "api/invoice", keys: []string{"workOrderId"}},
	"/api/invoice/pricelist":          {path: "api/invoice/pricelist", keys: []string{"workOrderId"}},
	"/api/invoice/attachments":        {path: "api/invoice/attachments", keys: []string{"workOrderId"}},
	"/api/procedure/step/attachments": {path: "api/procedure/step/attachments", keys: []string{"workOrderId", "procedureId", "stepId"}},
	"/api/customersettings":           {path: "api/customerSettings", keys: []string{"customerId"}, customer: true},
	"/api/workorder/notehistory":      {path: "api/workOrder/noteHistory", keys: []string{"workOrderId"}},
	"/api/procedure":                  {path: "api/procedure", keys: []string{"workOrderId"}, fresh: true},
}

// readRef names one stored answer.
type readRef struct {
	kind string // a key of storedReads
	key  string // the keys' values joined by "/"
	// workOrder or customer is the first key's value.
	workOrder, customer int64
}

// refOf reads a request's keys (case-insensitively, as the service does):
// each a positive integer.
func refOf(kind string, q url.Values) (readRef, *api.Error) {
	rk := storedReads[kind]
	vals := make([]string, len(rk.keys))
	var first int64
	for i, name := range rk.keys {
		n, bad := serve.QueryID(q, name)
		if bad != nil {
			return readRef{}, bad
		}
		if i == 0 {
			first = n
		}
		vals[i] = strconv.FormatInt(n, 10)
	}
	ref := readRef{kind: kind, key: strings.Join(vals, "/")}
	if rk.customer {
		ref.customer = first
	} else {
		ref.workOrder = first
	}
	return ref, nil
}

// url is the read's address at the service.
func (ref readRef) url() *url.URL {
	rk := storedReads[ref.kind]
	q := url.Values{}
	for i, v := range strings.Split(ref.key, "/") {
		q.Set(rk.keys[i], v)
	}
	q.Set("messageId", uuid.NewString())
	return &url.URL{Path: rk.path, RawQuery: q.Encode()}
}

// storedAnswer is a stored read, or one just fetched.
type storedAnswer struct {
	status  int
	body    []byte
	stale   bool
	fetched time.Time
}

// fetchedAnswer is the service's answer to one fetch.
type fetchedAnswer struct {
	status      int
	body        []byte
	contentType string
	retryAfter  string
}

// storable: the service will give this answer again until something changes
// (the read, or a refusal for these keys), so it is kept; passing trouble
// (429, 5xx, an answer that is not JSON) is not, nor a refusal of a read
// keyed by more than its work order (a step's attachments: any number of
// made-up steps would each add a row).
func (f *fetchedAnswer) storable(ref readRef) bool {
	switch f.status {
	case http.StatusOK:
		return json.Valid(f.body)
	case http.StatusBadRequest, http.StatusNotFound:
		return len(storedReads[ref.kind].keys) == 1 && json.Valid(f.body)
	}
	return false
}

// maxReadBody caps a read's answer: a step's attachment list has no count limit.
const maxReadBody = 16 << 20

// serveStoredRead answers one of storedReads from PostgreSQL; the first
// time, or when the stored answer is stale or older than ReadMaxAge, it is
// fetched from the service first, and the stored one served if the service
// cannot answer. A read never fetched while the service is down is a 503.
func (h *Hub) serveStoredRead(w http.ResponseWriter, r *http.Request, kind string) {
	msgID := serve.MessageId(r.URL.Query(), nil)
	ref, bad := refOf(kind, r.URL.Query())
	if bad != nil {
		serve.WriteError(w, bad, msgID)
		return
	}
	if msgID == "" {
		msgID = uuid.NewString()
	}
	ctx := r.Context()
	if storedReads[kind].fresh {
		h.serveFreshRead(w, r, ref, msgID)
		return
	}
	stored, found, err := h.db.storedRead(ctx, ref)
	if err != nil {
		h.log.Error("reading a stored answer", "err", err)
		serve.WriteError(w, unavailable("the hub cannot read its database; try again later"), msgID)
		return
	}
	if found && !stored.stale && time.Since(stored.fetched) < h.opts.ReadMaxAge {
		writeStored(w, stored, msgID)
		return
	}
	// Desktops opening the same tab at once share one fetch, which goes on
	// (and is stored) if they hang up; a desktop that does is let go at once.
	fetched := h.fetches.DoChan(ref.kind+" "+ref.key, func() (any, error) {
		return h.refreshRead(context.WithoutCancel(ctx), ref)
	})
	var res singleflight.Result
	select {
	case res = <-fetched:
	case <-ctx.Done():
		return
	}
	err = res.Err
	got, _ := res.Val.(*fetchedAnswer)
	switch {
	case err == nil && got.storable(ref):
		writeStored(w, storedAnswer{status: got.status, body: got.body}, msgID)
	case found:
		writeStored(w, stored, msgID)
	case err != nil:
		h.unreachable(w, msgID, err)
	default:
		// The service's own passing trouble, Retry-After and all.
		if got.contentType != "" {
			w.Header().Set("Content-Type", got.contentType)
		}
		if got.retryAfter != "" {
			w.Header().Set("Retry-After", got.retryAfter)
		}
		w.WriteHeader(got.status)
		w.Write(got.body)
	}
}

// serveFreshRead answers a fresh read (readKind.fresh) with what the
// service answers now, storing it; never with a stored answer, nor with a
// fetch another desktop began earlier.
func (h *Hub) serveFreshRead(w http.ResponseWriter, r *http.Request, ref readRef, msgID string) {
	got, err := h.refreshRead(r.Context(), ref)
	if err != nil {
		h.unreachable(w, msgID, err)
		return
	}
	if json.Valid(got.body) {
		writeStored(w, storedAnswer{status: got.status, body: got.body}, msgID)
		return
	}
	if got.contentType != "" {
		w.Header().Set("Content-Type", got.contentType)
	}
	if got.retryAfter != "" {
		w.Header().Set("Retry-After", got.retryAfter)
	}
	w.WriteHeader(got.status)
	w.Write(got.body)
}

// writeStored answers with a stored answer as the service would have: its
// JSON with the desktop's MessageId.
func writeStored(w http.ResponseWriter, a storedAnswer, messageId string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(a.status)
	w.Write(withMessageId(a.body, messageId))
}

// withMessageId sets the top-level MessageId of a JSON object.
func withMessageId(body []byte, id string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	m["MessageId"], _ = json.Marshal(id)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // the service's text as it sent it
	if enc.Encode(m) != nil {
		return body
	}
	return out.Bytes()
}

// refreshRead fetches one read from the service and stores the answer when
// the service would give it again; otherwise the stored answer, if any, is
// marked stale so that the next desktop to ask tries again.
func (h *Hub) refreshRead(ctx context.Context, ref readRef) (*fetchedAnswer, error) {
	version, err := h.db.nextReadVersion(ctx)
	if err != nil {
		return nil, err
	}
	got, err := h.fetch(ctx, ref)
	if err != nil || !got.storable(ref) {
		if serr := h.db.markReadStale(ctx, ref, version); serr != nil {
			h.log.Warn("marking a stored answer stale", "err", serr)
		}
		return got, err
	}
	if err := h.db.storeRead(ctx, ref, version, got.status, got.body); err != nil {
		// The desktop still gets the answer; the next one fetches again.
		h.log.Warn("storing a read's answer", "err", err)
	}
	return got, nil
}

func (h *Hub) fetch(ctx context.Context, ref readRef) (*fetchedAnswer, error) {
	resp, err := h.send(ctx, nil, http.MethodGet, ref.url(), nil, "", true)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReadBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading the service's answer to %s: %w", ref.kind, err)
	}
	if len(body) > maxReadBody {
		return nil, fmt.Errorf("the service's answer to %s is over %d MB", ref.kind, maxReadBody>>20)
	}
	return &fetchedAnswer{status: resp.StatusCode, body: body,
		contentType: resp.Header.Get("Content-Type"), retryAfter: resp.Header.Get("Retry-After")}, nil
}

// refreshReads refreshes the stored answers about work orders ids (after a
// write or a notification, or when a sync saw them change), a few at a
// time. A failure marks the answer stale; it is not the caller's failure.
func (h *Hub) refreshReads(ctx context.Context, ids []int64) {
	refs, err := h.db.storedReadsOf(ctx, ids)
	if err != nil {
		h.log.Warn("listing stored answers to refresh", "err", err)
		return
	}
	h.refreshAll(ctx, refs)
}

// refreshAll refreshes refs, for at most RefreshTimeout, and returns what
// the service answered to each it could ask: a read left unrefreshed is
// older than its work order's mark (readsChanged), so the next desktop to
// ask for it has it fetched again.
func (h *Hub) refreshAll(ctx context.Context, refs []readRef) map[readRef]*fetchedAnswer {
	ctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
	defer cancel()
	var g errgroup.Group
	g.SetLimit(4)
	var mu sync.Mutex
	out := make(map[readRef]*fetchedAnswer, len(refs))
	for _, ref := range refs {
		g.Go(func() error {
			got, err := h.refreshRead(ctx, ref)
			if err != nil && ctx.Err() == nil {
				h.log.Warn("refreshing a stored answer", "read", ref.kind, "err", err)
			}
			if err == nil {
				mu.Lock()
				out[ref] = got
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	return out
}
