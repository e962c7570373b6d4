package hub

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/migrate"
)

// readyTimeout bounds the database check of GET /readyz: a load balancer
// waits a few seconds at most for an answer.
const readyTimeout = 2 * time.Second

// serveHealth is GET /healthz: the process is alive and serving.
func (h *Hub) serveHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintln(w, "ok")
}

// serveReady is GET /readyz, for a load balancer: this instance can serve
// desktops, since its database answers and holds the schema it needs. The
// service is not asked: while the customer's service is down the hub still
// serves the replica and queues writes, and every instance would fail the
// same check at once, leaving the office with none.
func (h *Hub) serveReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := h.ready(r.Context()); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "not ready:", err)
		return
	}
	fmt.Fprintln(w, "ready")
}

// ready checks that PostgreSQL answers and its schema is the one this
// hub's migrations make.
func (h *Hub) ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	want, err := latestSchema()
	if err != nil {
		return err
	}
	got, err := h.db.SchemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("the database does not answer")
	}
	if got < want {
		return fmt.Errorf("the database's schema is version %d; this hub needs %d", got, want)
	}
	return nil
}

// latestSchema is the version the embedded migrations bring a database to.
var latestSchema = sync.OnceValues(func() (int, error) {
	ms, err := migrate.Read(migrationFiles)
	if err != nil || len(ms) == 0 {
		return 0, fmt.Errorf("hub: no migrations: %w", err)
	}
	return ms[len(ms)-1].Version, nil
})
