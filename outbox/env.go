package outbox

import (
	"context"
	"io"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Env is what an entry reads of the desktop a row is sent from: its clock,
// its replica and the file queued with the row. The office hub sends no
// row itself (it forwards the desktop's body), so it has none.
type Env interface {
	Now() time.Time
	// Settings are the customer's settings of a work order; nil when not
	// known (the work order or its settings not read yet).
	Settings(ctx context.Context, woID int64) (*api.CustomerSettings, error)
	// Associates names every associate the replica knows.
	Associates(ctx context.Context) map[int64]api.Associate
	// Note is the work order's internal note as the replica holds it.
	Note(ctx context.Context, woID int64) (string, error)
	// File is the copy of the file queued with the row.
	File() (io.ReadCloser, error)
}
