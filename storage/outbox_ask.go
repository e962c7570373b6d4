package storage

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/workorderdesk/workdesk/outbox"
)

// codeAsked marks a row stopped before it was sent because only the person
// can decide (an outbox.Stopped: the internal note changed since the edit
// began). A code of ours: the service's are positive.
const codeAsked = -28

// Asked is the question a row stopped for the person waits on (its
// entry's Question), nil for any other row.
func (r OutboxRow) Asked() *outbox.Question {
	if r.State != OutboxFailed || r.ErrorCode != codeAsked {
		return nil
	}
	if e, ok := outbox.Of(r.Kind); ok {
		return e.Question
	}
	return nil
}

// KeepMine sends a row stopped for the person (Asked) over what stopped it,
// as the replica holds it now, which the person has seen: their edit of the
// note over the newer note.
func (s *Store) KeepMine(ctx context.Context, rowID int64) (*OutboxRow, error) {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return nil, err
	}
	if row.Asked() == nil {
		return nil, invalid("this action is not waiting for your decision")
	}
	e, err := outbox.MustOf(row.Kind)
	if err != nil {
		return nil, err
	}
	req, err := e.Decode(row.Request)
	if err != nil {
		return nil, fmt.Errorf("storage: reading row %d: %w", rowID, err)
	}
	if err := e.Rebase(ctx, req, s.envFor(row, "")); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	res, err := s.w.ExecContext(ctx, `UPDATE outbox SET request = ?, updated_at = ? WHERE id = ? AND state = 'failed'`,
		string(raw), s.now().UnixMilli(), rowID)
	if err != nil {
		return nil, fmt.Errorf("storage: sending yours over it: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, invalid("this was sent or discarded meanwhile")
	}
	return s.Retry(ctx, rowID)
}
