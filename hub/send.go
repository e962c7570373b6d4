package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// passRead forwards a read the replica does not answer (download links,
// and any read the hub does not know) to the service with the company's
// token and streams the answer back. Download links pass through and are
// never stored.
func (h *Hub) passRead(w http.ResponseWriter, r *http.Request) {
	resp, err := h.send(r.Context(), nil, r.Method, r.URL, nil, "", true)
	if err != nil {
		h.unreachable(w, serve.MessageId(r.URL.Query(), nil), err)
		return
	}
	defer resp.Body.Close()
	copyAnswer(w, resp)
}

// errDesktopGone: the desktop hung up before its write was sent, so it was
// not; its outbox sends it again.
var errDesktopGone = errors.New("the desktop hung up before its write was sent")

// errNotSent marks a failure before anything reached the service (no
// company token, no connection to it): the write is not in doubt.
var errNotSent = errors.New("nothing was sent")

// send calls the service at the request's path with the company's token;
// body is replayed once after a 401 when replayable. Once desk (the
// desktop's request, nil for the hub's own calls) is done, nothing more is
// sent: the call itself runs with ctx, which may outlive it.
func (h *Hub) send(ctx, desk context.Context, method string, in *url.URL, body func() io.Reader, contentType string, replayable bool) (*http.Response, error) {
	u, err := serviceURL(h.client.BaseURL(), in)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotSent, err)
	}
	for attempt := 0; ; attempt++ {
		tok, err := h.tokens.Token(ctx)
		if err != nil {
			return nil, fmt.Errorf("%w: getting the company's access token: %w", errNotSent, err)
		}
		var rd io.Reader
		if body != nil {
			rd = body()
		}
		req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errNotSent, err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if desk != nil && desk.Err() != nil {
			return nil, errDesktopGone
		}
		resp, err := h.hc.Do(req)
		if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
			return nil, fmt.Errorf("%w: %w", errNotSent, err)
		}
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusUnauthorized {
			h.tokens.Invalidate(tok)
			if attempt == 0 && replayable {
				io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
				resp.Body.Close()
				continue
			}
			// The service refused the company's credentials: the desktop's
			// own token is fine, so this must not read as a 401 to it.
			resp.Body.Close()
			return nil, fmt.Errorf("%w: the service refused the company's credentials", errNotSent)
		}
		return resp, nil
	}
}

// errNotAPI: a path outside the service's API, refused before anything is
// sent with the company's token (Handler refuses them first).
var errNotAPI = errors.New("not a path of the service's API")

// serviceURL is in's path and query under the service's base URL. The path
// must stay under /api/ and be one serve.Route takes: odd paths are
// refused, not resolved, since "/api/../x" would reach any path of the
// service's host with the company's token. What is sent is the path as
// checked: only letters, digits and "-_./", which nothing escapes.
func serviceURL(baseURL string, in *url.URL) (*url.URL, error) {
	base, err := url.Parse(baseURL)
	if err != nil {
		return nil, err
	}
	p := "/" + strings.TrimPrefix(in.Path, "/")
	if !strings.HasPrefix(serve.Route(p), "/api/") {
		return nil, errNotAPI
	}
	if strings.HasPrefix(strings.ToLower(p), "/direct/") {
		// The real host's prefix, as a desktop may send it: the base URL
		// carries it already when the service needs it.
		p = p[len("/direct"):]
	}
	u := *base
	u.Path = strings.TrimRight(base.Path, "/") + p
	u.RawPath, u.RawQuery, u.Fragment = "", in.RawQuery, ""
	return &u, nil
}

func copyAnswer(w http.ResponseWriter, resp *http.Response) {
	for _, k := range []string{"Content-Type", "Content-Length", "Allow", "Retry-After"} {
		if v := resp.Header.Get(k); v != "" {
			w.Header().Set(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

const unreachableMessage = api.HubCannotReachService

const busyMessage = "The hub is busy with other changes; try again shortly."

// unreachable answers 503 in the service's error body: the desktop's outbox
// keeps the action and retries it with the same MessageId.
func (h *Hub) unreachable(w http.ResponseWriter, messageId string, err error) {
	h.log.Warn("the service cannot be reached", "err", err)
	serve.WriteError(w, unavailable(unreachableMessage), messageId)
}
