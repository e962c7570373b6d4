// Package api speaks the Work Order Integration Service: typed models, one
// Client with a method per operation, client-credentials tokens, and the
// verification of signed notifications. It imports nothing else of ours.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Envelope carries the per-call correlation id. Request structs embed it; a
// caller that must retry idempotently (the outbox) fixes MessageId itself,
// otherwise the Client fills in the context's id (WithMessageId) or a fresh UUID.
type Envelope struct {
	MessageId string `json:"MessageId,omitempty"`
}

func (e *Envelope) messageIdField() *string { return &e.MessageId }

// SetMessageId fixes the request's MessageId (the outbox's, which every
// resend of it carries).
func (e *Envelope) SetMessageId(id string) { e.MessageId = id }

// GetMessageId is the request's MessageId ("" when none was fixed).
func (e *Envelope) GetMessageId() string { return e.MessageId }

type hasMessageId interface{ messageIdField() *string }

// Performer names the person acting, PerformedBy {Name, Phone}
// (service-facts §3: it appears in write bodies; the internal note's is
// seen in live code, the others' inferred). Write requests embed it; the
// Client fills it with the person it acts for (SetPerformedBy) when the
// caller left it empty. Json.NET, which the service runs, ignores a
// property a model does not have, so a body that does not take it loses
// nothing.
type Performer struct {
	PerformedBy *Sender `json:"PerformedBy,omitempty"`
}

func (p *Performer) performerField() **Sender { return &p.PerformedBy }

// SetPerformedBy names who acts, whatever the request said before: the
// office hub sets it from the person signed in ("" sends none).
func (p *Performer) SetPerformedBy(name string) {
	p.PerformedBy = nil
	if name = strings.TrimSpace(name); name != "" {
		p.PerformedBy = &Sender{Name: name}
	}
}

type hasPerformer interface{ performerField() **Sender }

type messageIdKey struct{}

// WithMessageId makes every call made with ctx carry id as its MessageId.
func WithMessageId(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, messageIdKey{}, id)
}

func messageId(ctx context.Context) string {
	if id, ok := ctx.Value(messageIdKey{}).(string); ok && id != "" {
		return id
	}
	return uuid.NewString()
}

// TokenSource hands out bearer tokens. Invalidate is called with a token the
// service answered 401 to, so the next Token fetches a new one.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
	Invalidate(rejected string)
}

// Client calls the service. It is safe for concurrent use.
type Client struct {
	base   *url.URL
	hc     *http.Client
	tokens TokenSource
	// performer is who the writes are made for (SetPerformedBy).
	performer atomic.Pointer[Sender]
}

// SetPerformedBy names the person the client acts for: every write whose
// body has PerformedBy, and every upload, carries it. "" sends none.
func (c *Client) SetPerformedBy(name string) {
	name = strings.TrimSpace(name)
	if name == "" {
		c.performer.Store(nil)
		return
	}
	c.performer.Store(&Sender{Name: name})
}

// PerformedBy is the person SetPerformedBy named ("" for none).
func (c *Client) PerformedBy() string {
	if p := c.performer.Load(); p != nil {
		return p.Name
	}
	return ""
}

// NewClient returns a Client for the service at baseURL (e.g.
// "https://am-api.corrigopro.com/Direct/"). httpClient may be nil.
func NewClient(baseURL string, httpClient *http.Client, tokens TokenSource) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("base URL %q is not an absolute http(s) URL", baseURL)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	if tokens == nil {
		return nil, errors.New("api: a token source is required")
	}
	return &Client{base: u, hc: httpClient, tokens: tokens}, nil
}

// BaseURL is the service address the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

// request describes one call; body is rebuilt for a retry after a 401.
type request struct {
	method string
	path   string // relative, e.g. "api/workOrder/reject"
	query  url.Values
	// body returns a fresh reader over the request body and its content type;
	// nil for no body. replayable says whether it may be called twice.
	body       func() (io.Reader, string, error)
	replayable bool
	messageId  string
}

func (c *Client) getJSON(ctx context.Context, path string, query url.Values, out any) error {
	if query == nil {
		query = url.Values{}
	}
	id := messageId(ctx)
	query.Set("messageId", id)
	return c.do(ctx, request{method: http.MethodGet, path: path, query: query, replayable: true, messageId: id}, out)
}

// deleteQuery sends DELETE with its keys in the query string like a read: the
// service publishes no DELETE body, and ASP.NET binds simple DELETE
// parameters from the URI (assumption, mirrored by the sandbox).
func (c *Client) deleteQuery(ctx context.Context, path string, query url.Values, out any) error {
	id := messageId(ctx)
	query.Set("messageId", id)
	return c.do(ctx, request{method: http.MethodDelete, path: path, query: query, replayable: true, messageId: id}, out)
}

// sendJSON PUTs or POSTs payload as JSON, filling its MessageId when empty.
func (c *Client) sendJSON(ctx context.Context, method, path string, payload any, out any) error {
	id := ""
	if p, ok := payload.(hasMessageId); ok {
		f := p.messageIdField()
		if *f == "" {
			*f = messageId(ctx)
		}
		id = *f
	}
	if p, ok := payload.(hasPerformer); ok {
		if f := p.performerField(); *f == nil {
			*f = c.performer.Load()
		}
	}
	wireTimes(payload)
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("%s %s: encoding request: %w", method, path, err)
	}
	return c.do(ctx, request{
		method: method, path: path, replayable: true, messageId: id,
		body: func() (io.Reader, string, error) { return bytes.NewReader(b), "application/json; charset=utf-8", nil },
	}, out)
}

// do sends the request with a bearer token; on 401 it invalidates that token
// and, when the body can be replayed, tries exactly once more.
func (c *Client) do(ctx context.Context, r request, out any) error {
	op := r.method + " /" + r.path
	for attempt := 0; ; attempt++ {
		tok, err := c.tokens.Token(ctx)
		if err != nil {
			return notSent{fmt.Errorf("%s: getting an access token: %w", op, err)}
		}
		resp, err := c.send(ctx, r, tok)
		if err != nil {
			return fmt.Errorf("%s: %w", op, plainNetError("the service", err))
		}
		if resp.StatusCode == http.StatusUnauthorized {
			// Even when no retry follows (second 401, unreplayable body), the
			// next call must not reuse a token the service refused.
			c.tokens.Invalidate(tok)
			if attempt == 0 && r.replayable {
				drain(resp)
				continue
			}
		}
		err = decode(resp, op, r.messageId, out)
		redactToken(err, tok)
		return err
	}
}

// redactToken keeps the token out of error text even when a server quotes
// the Authorization header back in its answer.
func redactToken(err error, tok string) {
	e, ok := asError(err)
	if !ok || tok == "" {
		return
	}
	// Either half alone would still be a secret worth hiding.
	parts := []string{tok}
	if data, sign, ok := strings.Cut(tok, TokenSeparator); ok {
		parts = append(parts, data, sign)
	}
	hide := func(s string) string {
		for _, p := range parts {
			if len(p) >= 8 {
				s = strings.ReplaceAll(s, p, "[token]")
			}
		}
		return s
	}
	e.Message = hide(e.Message)
	for i := range e.ValidationErrors {
		e.ValidationErrors[i].Message = hide(e.ValidationErrors[i].Message)
	}
}

func (c *Client) send(ctx context.Context, r request, token string) (*http.Response, error) {
	u := c.base.ResolveReference(&url.URL{Path: r.path})
	if r.query != nil {
		u.RawQuery = r.query.Encode()
	}
	var body io.Reader
	contentType := ""
	if r.body != nil {
		var err error
		if body, contentType, err = r.body(); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		// url.Error quotes the URL, which never holds a secret or token here.
		return nil, err
	}
	return resp, nil
}

// maxErrorBody caps how much of an error answer is read.
const maxErrorBody = 64 << 10

func decode(resp *http.Response, op, id string, out any) error {
	defer drain(resp)
	if resp.StatusCode != http.StatusOK {
		e := &Error{StatusCode: resp.StatusCode, Op: op, MessageId: id}
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		// 404 answers may not follow the error shape (service-facts §10).
		if json.Unmarshal(raw, e) != nil && e.Message == "" {
			e.Message = strings.TrimSpace(string(raw))
			if len(e.Message) > 200 || e.Message == "" {
				e.Message = http.StatusText(resp.StatusCode)
			}
		}
		e.StatusCode, e.Op = resp.StatusCode, op
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			e.RetryAfter = retryAfter(resp.Header, time.Now())
		}
		if e.MessageId == "" {
			e.MessageId = id
		}
		return e
	}
	if out == nil {
		return nil
	}
	raw, err := readBody(resp)
	if err != nil {
		return fmt.Errorf("%s: %w", op, plainReadError(err))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil // an empty 200 is a success with nothing to read
	}
	if p, ok := out.(*json.RawMessage); ok {
		// The caller decodes it (list answers, the contract check): the
		// buffer is ours, and checking it twice would cost a sync dearly.
		*p = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: %w", op, plainJSONError(err))
	}
	return nil
}

// readBody reads the answer into one buffer sized from Content-Length when
// the server sent it: a json.Decoder over the stream grows its buffer by
// doubling, which made BenchmarkClientRead lag BenchmarkRawRead.
func readBody(resp *http.Response) ([]byte, error) {
	if n := resp.ContentLength; n > 0 && n <= 64<<20 {
		buf := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(resp.Body)
}

func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}
