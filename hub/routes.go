package hub

import (
	"fmt"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The hub forwards, with the company's credentials, only the calls a
// desktop makes: the writes of the outbox's action table (writeRoutes) and
// the reads below. Anything else never leaves the hub: a desktop newer than
// its hub is told so (404 "not forwarded by this hub (version X)"), and a
// stolen staff token reaches nothing of the service's API but what the
// desktop itself uses.

// readRoute is a read the hub answers or forwards, by method and route
// (serve.Route of its path).
type readRoute struct{ method, route string }

// reads are the service's reads a desktop makes (api.Client), besides the
// work orders and the search the hub answers from its replica and the
// stored reads (storedReads). Download links are fetched fresh each time.
var reads = map[readRoute]bool{
	{http.MethodPost, "/api/workorder/search"}:                         true,
	{http.MethodGet, "/api/workorder"}:                                 true,
	{http.MethodGet, "/api/attachments/downloadurl"}:                   true,
	{http.MethodGet, "/api/invoice/attachments/getdownloadurl"}:        true,
	{http.MethodGet, "/api/procedure/step/attachments/getdownloadurl"}: true,
	// A branch's technicians and subcontractors, read by each sync.
	{http.MethodGet, "/api/associates"}: true,
	// A step is read fresh: a landed check compares it with what the
	// service holds now. (GET /api/procedure is a fresh stored read.)
	{http.MethodGet, "/api/procedure/step"}: true,
}

func init() {
	for route := range storedReads {
		reads[readRoute{http.MethodGet, route}] = true
	}
}

// forwarded reports whether method and route are a call of the service's
// API the hub serves: one of reads, or a write of writeRoutes.
func forwarded(method, route string) bool {
	if reads[readRoute{method, route}] {
		return true
	}
	_, ok := writeRouteOf(method, route)
	return ok
}

// notForwarded answers a call the hub does not forward: the service's own
// 404 body, saying why, so that a desktop newer than its hub can tell.
func (h *Hub) notForwarded(w http.ResponseWriter, r *http.Request) {
	serve.WriteError(w, &api.Error{StatusCode: http.StatusNotFound,
		Message: fmt.Sprintf("%s %s is not forwarded by this hub (version %s).", r.Method, r.URL.Path, h.opts.Version)},
		serve.MessageId(r.URL.Query(), nil))
}
