package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// The replica's copy of each work order's internal note. The note as it
// stands is the work order's own InternalNote (the docs put it on the work
// order: GET /api/workOrder and search results), stored with the record;
// its history, as the service last listed it, says who wrote each version
// and when. A record without InternalNote (an older service, another
// name) leaves the history's newest version to say (api.NoteOf).

func putNoteHistory(ctx context.Context, tx execer, woID int64, h []api.NoteEntry, at int64) error {
	if h == nil {
		h = []api.NoteEntry{}
	}
	raw, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("storage: encoding the note of work order %d: %w", woID, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO internal_notes(work_order_id, fetched_at, json) VALUES (?,?,?)
ON CONFLICT(work_order_id) DO UPDATE SET fetched_at=excluded.fetched_at, json=excluded.json`, woID, at, string(raw))
	if err != nil {
		return fmt.Errorf("storage: writing the note of work order %d: %w", woID, err)
	}
	return nil
}

// rereadNote reads the note's history from the service into the replica
// and returns it.
func (s *Store) rereadNote(ctx context.Context, c *api.Client, woID int64) ([]api.NoteEntry, error) {
	h, err := c.NoteHistory(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := putNoteHistory(ctx, s.w, woID, h, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	return h, nil
}

// NoteHistory is the replica's copy of the note's versions, oldest first;
// read is false when it was never read (offline since the work order came).
func (s *Store) NoteHistory(ctx context.Context, woID int64) (h []api.NoteEntry, read time.Time, err error) {
	var raw string
	var at int64
	err = s.r.QueryRowContext(ctx, `SELECT json, fetched_at FROM internal_notes WHERE work_order_id = ?`, woID).Scan(&raw, &at)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, time.Time{}, nil
		}
		return nil, time.Time{}, fmt.Errorf("storage: reading the note of work order %d: %w", woID, err)
	}
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		return nil, time.Time{}, fmt.Errorf("storage: decoding the note of work order %d: %w", woID, err)
	}
	return h, time.UnixMilli(at).UTC(), nil
}

// StoredNote is the internal note as the replica has it: the stored work
// order's InternalNote, named from the stored history (api.NoteOf). A work
// order the replica lacks leaves the history to say.
func (s *Store) StoredNote(ctx context.Context, woID int64) (api.NoteEntry, error) {
	h, _, err := s.NoteHistory(ctx, woID)
	if err != nil {
		return api.NoteEntry{}, err
	}
	wo, err := s.WorkOrder(ctx, woID)
	switch {
	case errors.Is(err, ErrNotFound):
		wo = nil
	case err != nil:
		return api.NoteEntry{}, err
	}
	return api.NoteOf(wo, h), nil
}
