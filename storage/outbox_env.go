package storage

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// rowEnv is what the action table reads of this desktop for one row
// (outbox.Env): the clock, the replica, and the row's spooled file.
type rowEnv struct {
	s     *Store
	spool string // base name of the row's file in the spool folder ("" = none)
}

func (s *Store) envFor(_ *OutboxRow, spool string) outbox.Env { return rowEnv{s: s, spool: spool} }

func (e rowEnv) Now() time.Time { return e.s.now() }

// Settings are the customer's settings of the work order: nil when the
// work order or its settings are not in the replica (the service judges).
func (e rowEnv) Settings(ctx context.Context, woID int64) (*api.CustomerSettings, error) {
	wo, err := e.s.WorkOrder(ctx, woID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cs, _ := e.s.settingsOf(ctx, wo)
	return cs, nil
}

func (e rowEnv) Associates(ctx context.Context) map[int64]api.Associate {
	return e.s.associatesByID(ctx)
}

func (e rowEnv) Note(ctx context.Context, woID int64) (string, error) {
	n, err := e.s.StoredNote(ctx, woID)
	return n.InternalNote, err
}

func (e rowEnv) File() (io.ReadCloser, error) {
	if e.spool == "" {
		return nil, errors.New("no file was queued with it")
	}
	return os.Open(filepath.Join(e.s.spool, e.spool))
}
