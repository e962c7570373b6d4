package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The per-work-order answer of the bulk calls (accept, reject, assign,
// unassign). Documented for bulk assign (service-facts §4.2, §16): an
// array with "one object (with the work order id) per success, one or
// more per failure". The item's property names are not published: we
// guess WorkOrderId, and Code and Message as in the service's error body
// (§10). Wrong, an item would read as nothing went wrong. So an item is a
// success only when it names its work order and nothing we do not read;
// one with a Code other than 0 is a refusal; anything else, and a work
// order the answer does not name, is unknown, never success: the caller
// re-reads the work order and judges by what the service says
// (JudgeBulk).

// BulkResult is one work order's outcome.
type BulkResult struct {
	WorkOrderId int64  `json:"WorkOrderId"`
	Code        int    `json:"Code,omitempty"`
	Message     string `json:"Message,omitempty"`
	// Unknown: the answer did not say plainly whether it was done (an
	// item we could not read, or none for this work order). Ours, kept
	// with the outcome; never read as success.
	Unknown bool `json:"Unknown,omitempty"`
}

// Succeeded reports a work order the service said it took.
func (r BulkResult) Succeeded() bool { return r.Code == 0 && !r.Unknown }

// Refused reports a work order the service refused (a definite refusal:
// not to be sent again as it was).
func (r BulkResult) Refused() bool { return r.Code != 0 }

// bulkItemKeys are the names an item may carry and still read as what it
// says: ours, and the envelope's MessageId.
var bulkItemKeys = []string{"WorkOrderId", "Code", "Message", "MessageId", "Unknown"}

// unsaid is the Message of an unknown result, in the person's words.
const unsaid = "the service's answer did not say whether it was done"

// UnmarshalJSON reads one item of a bulk answer (see the file's comment):
// an item that names a property we do not read, a Code that is not a
// whole number, or a Message without a Code, is Unknown.
func (r *BulkResult) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*r = BulkResult{}
	field := func(name string) (json.RawMessage, bool) {
		for k, v := range m {
			if strings.EqualFold(k, name) && !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
				return v, true
			}
		}
		return nil, false
	}
	var other []string
	for k := range m {
		known := false
		for _, n := range bulkItemKeys {
			known = known || strings.EqualFold(k, n)
		}
		if !known {
			other = append(other, k)
		}
	}
	if v, ok := field("WorkOrderId"); ok {
		if n, ok := wholeNumber(v); ok {
			r.WorkOrderId = n
		}
	}
	if v, ok := field("Message"); ok {
		if json.Unmarshal(v, &r.Message) != nil {
			r.Message = string(v)
		}
	}
	if v, ok := field("Unknown"); ok {
		json.Unmarshal(v, &r.Unknown)
	}
	code, hasCode := field("Code")
	if hasCode {
		if n, ok := wholeNumber(code); ok {
			r.Code = int(n)
		} else {
			r.Unknown = true
		}
	}
	switch {
	case r.Code != 0:
		r.Unknown = false
	case r.WorkOrderId == 0, len(other) > 0, !hasCode && r.Message != "":
		r.Unknown = true
	}
	if r.Unknown && r.Message == "" {
		r.Message = unsaid
	}
	if r.Unknown && len(other) > 0 {
		// What it said instead, for whoever reads the refusal: an item of
		// a bulk answer carries no link nor token.
		item := []rune(strings.TrimSpace(string(b)))
		if len(item) > 200 {
			item = append(item[:200], '…')
		}
		r.Message = fmt.Sprintf("%s (its answer: %s)", r.Message, string(item))
	}
	return nil
}

// wholeNumber reads a JSON number or a quoted one ("3001").
func wholeNumber(v json.RawMessage) (int64, bool) {
	var n int64
	if json.Unmarshal(v, &n) == nil {
		return n, true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// AccountFor gives each work order asked for its result, in the order
// asked: the answer's item for it, else an unknown one (the answer did
// not name it). Items for work orders not asked for are kept after.
func AccountFor(asked []int64, rs []BulkResult) []BulkResult {
	if len(asked) == 0 {
		return rs
	}
	merged := MergeResults(rs)
	by := make(map[int64]BulkResult, len(merged))
	for _, r := range merged {
		if r.WorkOrderId != 0 { // one naming no work order: those unnamed are unknown below
			by[r.WorkOrderId] = r
		}
	}
	out := make([]BulkResult, 0, len(asked))
	seen := make(map[int64]bool, len(asked))
	for _, id := range asked {
		if seen[id] {
			continue
		}
		seen[id] = true
		r, ok := by[id]
		if !ok {
			r = BulkResult{WorkOrderId: id, Unknown: true, Message: unsaid}
		}
		out = append(out, r)
	}
	for _, r := range merged {
		if r.WorkOrderId != 0 && !seen[r.WorkOrderId] {
			out = append(out, r)
		}
	}
	return out
}

// JudgeBulk settles the unknown results of a bulk action a by the work
// orders as the service shows them now (re-read after the answer): an
// acceptance or rejection took effect when the work order has that
// status, and was refused in effect when it moved elsewhere (the status
// says why); an assignment took effect when the work order lists every
// associate (an unassignment: none of them). Where the work order still
// shows nothing happened, or does not say who is assigned, the result
// stays unknown: the person decides, and sending it again is what the
// service documents as harmless (a New work order accepted once; someone
// already assigned a no-op). Results that are not unknown are kept.
func JudgeBulk(a Action, rs []BulkResult, now []WorkOrder, associates []int64) []BulkResult {
	by := make(map[int64]*WorkOrder, len(now))
	for i := range now {
		by[now[i].WorkOrderId] = &now[i]
	}
	out := make([]BulkResult, len(rs))
	copy(out, rs)
	for i := range out {
		r := &out[i]
		wo := by[r.WorkOrderId]
		if !r.Unknown || wo == nil {
			continue
		}
		switch a {
		case Accept, Reject:
			want := map[Action]WorkOrderStatus{Accept: StatusAccepted, Reject: StatusRejected}[a]
			switch wo.Status {
			case want:
				*r = BulkResult{WorkOrderId: r.WorkOrderId}
			case StatusNew:
				r.Message = unsaid + ", and the work order is still new"
			default:
				*r = BulkResult{WorkOrderId: r.WorkOrderId, Code: CodeWrongStatus,
					Message: fmt.Sprintf("%s is %s", wo.Name(), wo.Status.Label())}
			}
		case Assign, Unassign:
			done, known := true, true
			for _, id := range associates {
				on, k := wo.AssignedTo(id)
				known = known && k
				done = done && on == (a == Assign)
			}
			switch {
			case !known:
				r.Message = unsaid + ", and the work order does not say who is assigned"
			case done:
				*r = BulkResult{WorkOrderId: r.WorkOrderId}
			default:
				r.Message = unsaid + ", and the work order shows it was not done"
			}
		}
	}
	return out
}
