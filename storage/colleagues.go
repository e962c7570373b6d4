package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// ColleagueChange is the newest thing a colleague did to a work order
// through the office hub, as its event says.
type ColleagueChange struct {
	Name   string    // who, as the hub knows them
	Action string    // the event's action, e.g. "Accepted"
	At     time.Time // when they did it (the event's ActionDate, else when it arrived)
}

// colleagueScanLimit bounds one walk of the event log, however busy the
// office was in the window asked for.
const colleagueScanLimit = 5000

// ColleagueChanges returns, per work order, what a colleague did to it
// through the office hub among the events that arrived since since: the
// newest hub event of each work order decides, and when that one is me
// (the person's own action, echoed back) the work order has none. It reads
// the log from its newest row backwards and stops at the first that is
// older, so its cost follows the recent events, not the log's size: the
// list asks on every reload.
func (s *Store) ColleagueChanges(ctx context.Context, since time.Time, me string) (map[int64]ColleagueChange, error) {
	// Only hub events name who acted; the rest are skipped without decoding.
	rows, err := s.r.QueryContext(ctx, `SELECT work_order_id, received_at,
	CASE WHEN instr(json, '"PerformedBy"') > 0 THEN json END
	FROM events ORDER BY id DESC LIMIT ?`, colleagueScanLimit)
	if err != nil {
		return nil, fmt.Errorf("storage: reading colleagues' changes: %w", err)
	}
	defer rows.Close()
	out := map[int64]ColleagueChange{}
	decided := map[int64]bool{}
	cutoff := since.UnixMilli()
	for rows.Next() {
		var woID, at int64
		var raw sql.NullString
		if err := rows.Scan(&woID, &at, &raw); err != nil {
			return nil, fmt.Errorf("storage: reading colleagues' changes: %w", err)
		}
		if at < cutoff {
			break // rows arrive in id order, so every older one is older still
		}
		if !raw.Valid || decided[woID] {
			continue
		}
		var ev struct {
			Header api.EventHeader
			hubEventData
		}
		if json.Unmarshal([]byte(raw.String), &ev) != nil || ev.PerformedBy == nil || ev.PerformedBy.Name == "" {
			continue
		}
		decided[woID] = true
		if ev.PerformedBy.Name == me {
			continue
		}
		when := ev.Header.ActionDate
		if when.IsZero() {
			when = time.UnixMilli(at).UTC()
		}
		out[woID] = ColleagueChange{Name: ev.PerformedBy.Name, Action: ev.Header.Action, At: when}
	}
	return out, rows.Err()
}
