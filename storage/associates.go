package storage

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// The replica's associates: each branch's technicians and subcontractors as
// GET /api/associates last listed them, and who each work order is
// assigned to as its record says (beside the record, so the list filters
// by it without reading JSON). Where a record lists its associates is a
// guess (api.WorkOrder.Associates): a record without it is unknown, never
// unassigned. Then what the office itself assigned still shows: its own
// assignments that the service took, and a colleague's the office hub told
// of (officeAssigned); for the rest, "unknown".

// AssociatesMaxAge is how long a branch's list is trusted: a new
// technician or subcontractor comes without a notification.
const AssociatesMaxAge = time.Hour

// NoAssignee is ListQuery.Assignee for the work orders assigned to nobody.
const NoAssignee int64 = -1

// assigneeWhere keeps the work orders with a row for the associate (?):
// associate 0 is the row of a record that lists nobody.
const assigneeWhere = "w.id IN (SELECT work_order_id FROM work_order_associates WHERE associate_id = ?)"

// crewRow is what putRows keeps of a work order's branch and associates:
// the last element of workOrderArgs.
type crewRow struct {
	branch int64
	who    *[]api.Associate // nil: the record does not say
}

// crewChunk is how many assignments one statement of putCrews writes.
const crewChunk = 200

// putCrews writes, inside the transaction writing rows (workOrderArgs),
// who each work order is assigned to and which branches the replica has.
func putCrews(ctx context.Context, tx *sql.Tx, rows [][]any) error {
	ids := make([]int64, 0, len(rows))
	var entries [][3]any
	var branches []int64
	for _, r := range rows {
		id := r[0].(int64)
		ids = append(ids, id)
		c, _ := r[len(r)-1].(crewRow)
		if c.branch > 0 && !slices.Contains(branches, c.branch) {
			branches = append(branches, c.branch)
		}
		if c.who == nil {
			continue
		}
		if len(*c.who) == 0 {
			entries = append(entries, [3]any{id, 0, ""})
		}
		for _, a := range *c.who {
			entries = append(entries, [3]any{id, a.Id, a.Name})
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM work_order_associates WHERE work_order_id IN (SELECT value FROM json_each(?))`, idsJSON(ids)); err != nil {
		return err
	}
	// Rows as parameters, crewChunk to a statement: through json_each
	// SQLite parsed the list and each value three times, a tenth of a
	// first sync's writing.
	for start := 0; start < len(entries); start += crewChunk {
		part := entries[start:min(start+crewChunk, len(entries))]
		args := make([]any, 0, 3*len(part))
		for _, e := range part {
			args = append(args, e[0], e[1], e[2])
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO work_order_associates(work_order_id, associate_id, name) VALUES `+
			strings.Repeat("(?,?,?),", len(part)-1)+"(?,?,?)", args...); err != nil {
			return err
		}
	}
	if len(branches) > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO associate_branches(branch_id) SELECT value FROM json_each(?)`, idsJSON(branches)); err != nil {
			return err
		}
	}
	return nil
}

// Associates lists a branch's associates in the service's order; known is
// false when the list was never read (the service then judges who may go).
func (s *Store) Associates(ctx context.Context, branch int64) (list []api.Associate, known bool, err error) {
	var fetched sql.NullInt64
	err = s.r.QueryRowContext(ctx, `SELECT fetched_at FROM associate_branches WHERE branch_id = ?`, branch).Scan(&fetched)
	if err == sql.ErrNoRows || err == nil && !fetched.Valid {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("storage: reading the associates of branch %d: %w", branch, err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, name, type FROM associates WHERE branch_id = ? ORDER BY position`, branch)
	if err != nil {
		return nil, false, fmt.Errorf("storage: reading the associates of branch %d: %w", branch, err)
	}
	defer rows.Close()
	list = []api.Associate{}
	for rows.Next() {
		var a api.Associate
		if err := rows.Scan(&a.Id, &a.Name, &a.Type); err != nil {
			return nil, false, err
		}
		list = append(list, a)
	}
	return list, true, rows.Err()
}

// Crew is an associate with the branches that list them.
type Crew struct {
	api.Associate
	Branches []int64
}

// AllAssociates lists every associate of every branch read, each once:
// technicians first, then subcontractors, each by name.
func (s *Store) AllAssociates(ctx context.Context) ([]Crew, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, name, type, branch_id FROM associates ORDER BY type != 'CruMember', name COLLATE NOCASE, id, branch_id`)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the associates: %w", err)
	}
	defer rows.Close()
	var out []Crew
	for rows.Next() {
		var a api.Associate
		var branch int64
		if err := rows.Scan(&a.Id, &a.Name, &a.Type, &branch); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].Id == a.Id {
			out[n-1].Branches = append(out[n-1].Branches, branch)
			continue
		}
		out = append(out, Crew{Associate: a, Branches: []int64{branch}})
	}
	return out, rows.Err()
}

// associatesByID are every listed associate, by id (names for queued
// assignments and a colleague's).
func (s *Store) associatesByID(ctx context.Context) map[int64]api.Associate {
	out := map[int64]api.Associate{}
	all, err := s.AllAssociates(ctx)
	if err != nil {
		return out
	}
	for _, c := range all {
		out[c.Id] = c.Associate
	}
	return out
}

// PutAssociates stores a branch's list as the service gave it.
func (s *Store) PutAssociates(ctx context.Context, branch int64, list []api.Associate) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM associates WHERE branch_id = ?`, branch); err != nil {
			return err
		}
		for i, a := range list {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO associates(branch_id, id, name, type, position) VALUES (?,?,?,?,?)`,
				branch, a.Id, a.Name, string(a.Type), i); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO associate_branches(branch_id, fetched_at) VALUES (?, ?)
 ON CONFLICT(branch_id) DO UPDATE SET fetched_at = excluded.fetched_at`, branch, s.now().UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: writing the associates of branch %d: %w", branch, err)
	}
	return nil
}

// branchesToRead lists the branches whose list was never read or is older
// than AssociatesMaxAge.
func (s *Store) branchesToRead(ctx context.Context) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT branch_id FROM associate_branches WHERE fetched_at IS NULL OR fetched_at < ? ORDER BY branch_id`,
		s.now().Add(-AssociatesMaxAge).UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("storage: reading the branches: %w", err)
	}
	return scanIDs(rows)
}

// refreshAssociates reads the associates of every branch due. The
// endpoint's query key and list key are guesses, so a failure is logged,
// not returned: a wrong guess must not stop the sync, and the replica
// keeps what it had (the service then judges every assignment).
func (y *Syncer) refreshAssociates(ctx context.Context) {
	branches, err := y.s.branchesToRead(ctx)
	if err != nil {
		y.log.Warn("could not list the branches to refresh", "err", err)
		return
	}
	for _, b := range branches {
		list, err := y.c.GetAssociates(ctx, b)
		if err == nil {
			err = y.s.PutAssociates(ctx, b, list)
		}
		if err != nil {
			y.log.Warn("could not read a branch's associates; keeping the stored ones", "branch", b, "err", err)
		}
	}
}

// Assignees is who a work order is assigned to as the person sees it.
type Assignees struct {
	Who []api.Associate
	// Known: Who can be shown: the record says who (or a queued
	// assignment does), or, with Partial, this office assigned them.
	// Never known when the record does not say and the office assigned
	// nobody: that is "unknown", not "unassigned".
	Known bool
	// Partial: the record does not say who is assigned; Who are those this
	// office assigned (or queued), and others may be too.
	Partial bool
	// Queued: an assignment or unassignment waits in the outbox.
	Queued bool
}

// AssigneesOf reads who each of ids is assigned to: the record's, or where
// the record does not say, whom this office assigned (officeAssigned);
// with the assignments still queued applied (those before a refusal;
// later ones wait behind it).
func (s *Store) AssigneesOf(ctx context.Context, ids []int64) (map[int64]Assignees, error) {
	out := make(map[int64]Assignees, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT work_order_id, associate_id, name FROM work_order_associates
 WHERE work_order_id IN (SELECT value FROM json_each(?)) ORDER BY work_order_id, name`, idsJSON(ids))
	if err != nil {
		return nil, fmt.Errorf("storage: reading who is assigned: %w", err)
	}
	for rows.Next() {
		var wo, id int64
		var name string
		if err := rows.Scan(&wo, &id, &name); err != nil {
			rows.Close()
			return nil, err
		}
		a := out[wo]
		a.Known = true
		if id != 0 {
			a.Who = append(a.Who, api.Associate{Id: id, Name: name})
		}
		out[wo] = a
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var unsaid []int64
	for _, id := range ids {
		if !out[id].Known {
			unsaid = append(unsaid, id)
		}
	}
	var names map[int64]api.Associate
	if len(unsaid) > 0 {
		names = s.associatesByID(ctx)
		office, err := s.officeAssigned(ctx, unsaid, names)
		if err != nil {
			return nil, err
		}
		for _, id := range unsaid {
			who := office[id]
			out[id] = Assignees{Who: who, Known: len(who) > 0, Partial: true}
		}
	}
	queued, err := s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o WHERE o.state IN ('pending','sending','failed')
 AND o.kind IN (?, ?) AND o.id IN (SELECT outbox_id FROM outbox_targets WHERE work_order_id IN (SELECT value FROM json_each(?))) ORDER BY o.id`,
		string(outbox.KindAssign), string(outbox.KindUnassign), idsJSON(ids))
	if err != nil || len(queued) == 0 {
		return out, err
	}
	if names == nil {
		names = s.associatesByID(ctx)
	}
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		asked[id] = true
	}
	held := map[int64]bool{} // behind a refusal
	for _, r := range queued {
		var req api.AssignRequest
		if json.Unmarshal(r.Request, &req) != nil {
			continue
		}
		for _, wo := range r.WorkOrderIds {
			if !asked[wo] {
				continue
			}
			a := out[wo]
			if r.State == OutboxFailed {
				held[wo] = true
			}
			if held[wo] {
				continue
			}
			a.Who = outbox.AssignApplied(a.Who, r.Kind == outbox.KindAssign, req.AssociateIds, names)
			// Where the record does not say, a queued unassignment
			// leaves "unknown", never "nobody".
			a.Known, a.Queued = !a.Partial || len(a.Who) > 0, true
			out[wo] = a
		}
	}
	return out, nil
}

// crewChange is one assignment or unassignment the office made that the
// service took, for officeAssigned.
type crewChange struct {
	at   int64 // Unix ms
	seq  int64 // orders changes of one moment: outbox row or event id
	woID int64
	kind outbox.Kind
	who  []int64
}

// officeAssigned is whom this office assigned to each of ids, for work
// orders whose record does not say (api.WorkOrder.Associates is a guess):
// its own assignments and unassignments the service took (outbox rows
// done, and the work orders a partly refused row's answer took), and
// those a colleague made through the office hub, as its events tell
// (outbox.KindAssign's colleague event, naming the associates), applied in the
// order they happened. What another office or CorrigoPro Desktop did
// cannot be known from here.
func (s *Store) officeAssigned(ctx context.Context, ids []int64, names map[int64]api.Associate) (map[int64][]api.Associate, error) {
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		asked[id] = true
	}
	kinds := []any{string(outbox.KindAssign), string(outbox.KindUnassign)}
	var changes []crewChange
	rows, err := s.r.QueryContext(ctx, `SELECT o.id, o.kind, o.request, o.updated_at, t.work_order_id FROM outbox o
 JOIN outbox_targets t ON t.outbox_id = o.id
 WHERE o.state = 'done' AND o.kind IN (?, ?) AND t.work_order_id IN (SELECT value FROM json_each(?))`, append(kinds, idsJSON(ids))...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
	}
	for rows.Next() {
		var c crewChange
		var kind, request string
		if err := rows.Scan(&c.seq, &kind, &request, &c.at, &c.woID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
		}
		var req api.AssignRequest
		if json.Unmarshal([]byte(request), &req) != nil {
			continue
		}
		c.kind, c.who = outbox.Kind(kind), req.AssociateIds
		changes = append(changes, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
	}
	// A partly refused row keeps the work orders it took only in its
	// answer (they no longer wait on it): few rows, each waiting for the
	// person.
	rows, err = s.r.QueryContext(ctx, `SELECT id, kind, request, result, updated_at FROM outbox
 WHERE state = 'failed' AND kind IN (?, ?) AND result <> ''`, kinds...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
	}
	for rows.Next() {
		var seq, at int64
		var kind, request, result string
		if err := rows.Scan(&seq, &kind, &request, &result, &at); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
		}
		var req api.AssignRequest
		var results []api.BulkResult
		if json.Unmarshal([]byte(request), &req) != nil || json.Unmarshal([]byte(result), &results) != nil {
			continue
		}
		for _, r := range results {
			if r.Succeeded() && asked[r.WorkOrderId] {
				changes = append(changes, crewChange{at: at, seq: seq, woID: r.WorkOrderId, kind: outbox.Kind(kind), who: req.AssociateIds})
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading this office's assignments: %w", err)
	}
	events := map[string]outbox.Kind{outbox.KindAssign.Colleague().Event: outbox.KindAssign, outbox.KindUnassign.Colleague().Event: outbox.KindUnassign}
	rows, err = s.r.QueryContext(ctx, `SELECT id, work_order_id, COALESCE(action_date, received_at), json FROM events
 WHERE work_order_id IN (SELECT value FROM json_each(?)) AND action IN (?, ?)`,
		idsJSON(ids), outbox.KindAssign.Colleague().Event, outbox.KindUnassign.Colleague().Event)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the office's assignments: %w", err)
	}
	for rows.Next() {
		var c crewChange
		var raw string
		if err := rows.Scan(&c.seq, &c.woID, &c.at, &raw); err != nil {
			rows.Close()
			return nil, fmt.Errorf("storage: reading the office's assignments: %w", err)
		}
		ev, err := api.ParseEvent([]byte(raw))
		if err != nil {
			continue
		}
		c.kind, c.who = events[ev.Header.Action], eventWhom(ev)
		if len(c.who) > 0 {
			changes = append(changes, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the office's assignments: %w", err)
	}
	slices.SortStableFunc(changes, func(a, b crewChange) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	out := map[int64][]api.Associate{}
	for _, c := range changes {
		out[c.woID] = outbox.AssignApplied(out[c.woID], c.kind == outbox.KindAssign, c.who, names)
	}
	return out, nil
}
