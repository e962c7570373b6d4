package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Associates are who goes to do the work: technicians of the contractor's
// own crew and subcontractor companies, per branch (service-facts §4.2,
// /docs/assigning-associates). What is documented: GET /api/associates
// lists a branch's associates, PUT /api/bulk/assign assigns them to work
// orders (each work order on its own; an associate already assigned is a
// silent no-op; one not valid for the work order's branch is an error and
// nothing is assigned to that work order; the answer is an array of
// per-work-order results; the status never changes). PUT /api/bulk/unassign
// exists (connector listings). Everything else here is a guess, marked so
// beside it, and none of it may lock a feature: a field we did not find is
// unknown, and the service judges.

// AssociateType is an associate's category. CruMember and Subcontractor
// are documented; other values may exist and are shown as they come.
type AssociateType string

const (
	AssociateCruMember     AssociateType = "CruMember"     // the contractor's own technician
	AssociateSubcontractor AssociateType = "Subcontractor" // another provider company
)

// Associate is one technician or subcontractor. Property names are a guess
// (the list's model is not published): Id, Name, Type.
type Associate struct {
	Id   int64         `json:"Id"`
	Name string        `json:"Name"`
	Type AssociateType `json:"Type,omitempty"`
}

// Technician reports whether the associate is one of the crew's own people.
func (a Associate) Technician() bool { return a.Type == AssociateCruMember }

// Initials are the list's short form of a name: "Kenji Sato" → "KS".
func (a Associate) Initials() string {
	var b strings.Builder
	for _, w := range strings.Fields(a.Name) {
		r := []rune(w)
		if len(r) > 0 && b.Len() < 8 {
			b.WriteString(strings.ToUpper(string(r[0])))
		}
	}
	return b.String()
}

// Assigned lists who the work order is assigned to, and whether the service
// said at all: where a work order lists its associates is not published
// (service-facts §5), so "Associates" is our guess, and a record without it
// is unknown, never "nobody". An empty list the service sent is nobody.
func (w *WorkOrder) Assigned() (who []Associate, known bool) {
	if w.Associates == nil {
		return nil, false
	}
	return *w.Associates, true
}

// AssignedTo reports whether associate id is assigned to the work order,
// and whether that is known.
func (w *WorkOrder) AssignedTo(id int64) (assigned, known bool) {
	who, known := w.Assigned()
	return slices.ContainsFunc(who, func(a Associate) bool { return a.Id == id }), known
}

// SetAssigned records who the work order is assigned to, as known.
func (w *WorkOrder) SetAssigned(who []Associate) {
	if who == nil {
		who = []Associate{}
	}
	w.Associates = &who
}

// CheckAssociates is the rule of PUT /api/bulk/assign for one work order:
// every associate must be one the work order's branch has (GET
// /api/associates of its branch). branch is that list; nil or empty when
// it is not known (never read, read under a key we did not guess, or the
// work order's branch is unknown): then nothing is refused here and the
// service judges. byID names the associates in the
// message when the branch does not list them.
func (w *WorkOrder) CheckAssociates(ids []int64, branch []Associate, byID map[int64]Associate) error {
	if len(ids) == 0 {
		return refuse("choose at least one technician or subcontractor")
	}
	if len(branch) == 0 || w.BranchId == 0 {
		// Not read, or read as nobody (a list under a key we did not
		// guess would read so): never a reason to refuse.
		return nil
	}
	var bad []string
	for _, id := range ids {
		if slices.ContainsFunc(branch, func(a Associate) bool { return a.Id == id }) {
			continue
		}
		name := "associate " + strconv.FormatInt(id, 10)
		if a, ok := byID[id]; ok && a.Name != "" {
			name = a.Name
		}
		bad = append(bad, name)
	}
	if len(bad) > 0 {
		// A fact, not an outcome: the board says it while a block is
		// still being dragged, the list while it assigns the others.
		return refuse("%s does not work for the branch of %s", strings.Join(bad, " and "), w.Name())
	}
	return nil
}

// associatesKey is where GET /api/associates's answer holds its list: a
// guess, as for the service's other lists.
const associatesKey = "Associates"

// GetAssociates lists the associates of a branch (GET /api/associates).
// The query key is a guess: branchId, as the service names BranchId. An
// answer that holds its list under another key is an error naming the
// keys, never an empty list: an empty branch would refuse everyone.
func (c *Client) GetAssociates(ctx context.Context, branchId int64) ([]Associate, error) {
	var out map[string]json.RawMessage
	q := url.Values{"branchId": {strconv.FormatInt(branchId, 10)}}
	if err := c.getJSON(ctx, "api/associates", q, &out); err != nil {
		return nil, err
	}
	return associatesIn(out)
}

// associatesIn finds the list in an answer, its key matched as Go's
// decoder matches names (case-insensitively).
func associatesIn(answer map[string]json.RawMessage) ([]Associate, error) {
	var others []string
	for k, v := range answer {
		if strings.EqualFold(k, associatesKey) {
			var list []Associate
			if err := json.Unmarshal(v, &list); err != nil {
				return nil, fmt.Errorf("the service's answer to GET /api/associates: %w", err)
			}
			if list == nil {
				list = []Associate{}
			}
			return list, nil
		}
		if t := strings.TrimSpace(string(v)); strings.HasPrefix(t, "[") {
			others = append(others, k)
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		return nil, fmt.Errorf("the service's answer to GET /api/associates had no list we know (%s): keys %s", associatesKey, strings.Join(others, ", "))
	}
	return []Associate{}, nil
}

// AssignRequest is the body of PUT /api/bulk/assign and /api/bulk/unassign.
// Not published (service-facts §4.2, §13): the work orders and the
// associates, named like the bulk accept's WorkOrderIds, are our guess.
type AssignRequest struct {
	WorkOrderIds []int64 `json:"WorkOrderIds"`
	AssociateIds []int64 `json:"AssociateIds"`
	Envelope
}

// BulkAssign assigns the associates to each work order; the results are
// one per work order (see MergeResults).
func (c *Client) BulkAssign(ctx context.Context, r *AssignRequest) ([]BulkResult, error) {
	var out []BulkResult
	err := c.sendJSON(ctx, http.MethodPut, "api/bulk/assign", r, &out)
	return AccountFor(r.WorkOrderIds, MergeResults(out)), err
}

// BulkUnassign takes the associates off each work order.
func (c *Client) BulkUnassign(ctx context.Context, r *AssignRequest) ([]BulkResult, error) {
	var out []BulkResult
	err := c.sendJSON(ctx, http.MethodPut, "api/bulk/unassign", r, &out)
	return AccountFor(r.WorkOrderIds, MergeResults(out)), err
}

// MergeResults makes a bulk answer one result per work order, in the order
// they first appear: bulk assign answers "one or more error objects per
// failed work order" (service-facts §4.2). A work order with any refusal
// was refused, its messages joined; else one with an item we could not
// read is unknown; else it succeeded.
func MergeResults(rs []BulkResult) []BulkResult {
	if len(rs) < 2 {
		return rs
	}
	out := make([]BulkResult, 0, len(rs))
	at := map[int64]int{}
	for _, r := range rs {
		i, seen := at[r.WorkOrderId]
		if !seen {
			at[r.WorkOrderId] = len(out)
			out = append(out, r)
			continue
		}
		m := &out[i]
		switch {
		case r.Refused() && !m.Refused():
			*m = r
		case r.Refused():
			if r.Message != "" && !strings.Contains(m.Message, r.Message) {
				m.Message += "; " + r.Message
			}
		case r.Unknown && m.Succeeded():
			*m = r
		}
	}
	return out
}
