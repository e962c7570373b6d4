package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// A bulk answer's items, read: a success only when an item names its work
// order and nothing we do not read; a refusal when it has a Code; anything
// else unknown, never success. A work order the answer does not name is
// unknown too.
func TestBulkAnswersUnknownIsNotSuccess(t *testing.T) {
	cases := []struct {
		name, answer string
		want         string // per work order asked (1, 2): "ok", "refused 3001", "unknown"
	}{
		{"ours", `[{"WorkOrderId":1},{"WorkOrderId":2,"Code":3001,"Message":"not new"}]`, "ok,refused 3001"},
		{"the envelope's MessageId too", `[{"WorkOrderId":1,"MessageId":"m"},{"WorkOrderId":2,"MessageId":"m"}]`, "ok,ok"},
		{"a code as text", `[{"WorkOrderId":1,"Code":"3001","Message":"x"},{"WorkOrderId":2,"Code":0}]`, "refused 3001,ok"},
		{"error objects under other names", `[{"WorkOrderId":1},{"WorkOrderId":2,"ErrorCode":3001,"ErrorMessage":"not new"}]`, "ok,unknown"},
		{"a message without a code", `[{"WorkOrderId":1,"Message":"Work order is not new"},{"WorkOrderId":2}]`, "unknown,ok"},
		{"a code that is not a number", `[{"WorkOrderId":1,"Code":"E42"},{"WorkOrderId":2}]`, "unknown,ok"},
		{"the work order under another name", `[{"Id":1},{"Id":2}]`, "unknown,unknown"},
		{"one left out", `[{"WorkOrderId":1}]`, "ok,unknown"},
		{"nothing", `[]`, "unknown,unknown"},
		{"two items for one, one refused", `[{"WorkOrderId":1},{"WorkOrderId":1,"Code":3000,"Message":"bad associate"},{"WorkOrderId":2}]`, "refused 3000,ok"},
		{"two items for one, one unreadable", `[{"WorkOrderId":1},{"WorkOrderId":1,"Error":"?"},{"WorkOrderId":2}]`, "unknown,ok"},
	}
	for _, c := range cases {
		var rs []BulkResult
		if err := json.Unmarshal([]byte(c.answer), &rs); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rs = AccountFor([]int64{1, 2}, rs)
		var got []string
		for _, r := range rs {
			switch {
			case r.Succeeded():
				got = append(got, "ok")
			case r.Refused():
				got = append(got, "refused "+itoa(r.Code))
			case r.Unknown:
				got = append(got, "unknown")
				if r.Message == "" {
					t.Errorf("%s: an unknown result says nothing", c.name)
				}
			}
		}
		if g := strings.Join(got, ","); g != c.want {
			t.Errorf("%s: %s; want %s (%+v)", c.name, g, c.want, rs)
		}
		// Kept and read back (the outbox stores them), the same.
		b, _ := json.Marshal(rs)
		var back []BulkResult
		if err := json.Unmarshal(b, &back); err != nil || len(back) != len(rs) {
			t.Fatalf("%s: read back %s: %v", c.name, b, err)
		}
		for i := range rs {
			if back[i] != rs[i] {
				t.Errorf("%s: kept %+v, read back %+v", c.name, rs[i], back[i])
			}
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// An unknown result is judged by the work order as the service shows it
// now: accepted or rejected as asked is done; moved elsewhere is refused
// in effect; still new, or an assignment the record does not show, stays
// unknown; one that was plain to begin with is kept.
func TestJudgeBulkByWhatTheServiceSays(t *testing.T) {
	unknown := func(id int64) BulkResult { return BulkResult{WorkOrderId: id, Unknown: true, Message: unsaid} }
	kenji := Associate{Id: 7101, Name: "Kenji Sato"}
	listed := func(who ...Associate) *[]Associate { return &who }
	now := []WorkOrder{
		{WorkOrderId: 1, WorkOrderNumber: "W1", Status: StatusAccepted, Associates: listed(kenji)},
		{WorkOrderId: 2, WorkOrderNumber: "W2", Status: StatusNew, Associates: listed()},
		{WorkOrderId: 3, WorkOrderNumber: "W3", Status: StatusRecalled},
		{WorkOrderId: 4, WorkOrderNumber: "W4", Status: StatusRejected},
	}
	cases := []struct {
		a    Action
		in   []BulkResult
		want []string
	}{
		{Accept, []BulkResult{unknown(1), unknown(2), unknown(3), {WorkOrderId: 4, Code: 3001, Message: "x"}},
			[]string{"ok", "unknown", "refused", "refused"}},
		{Reject, []BulkResult{unknown(4), unknown(1), unknown(9)}, []string{"ok", "refused", "unknown"}},
		{Assign, []BulkResult{unknown(1), unknown(2), unknown(3)}, []string{"ok", "unknown", "unknown"}},
		{Unassign, []BulkResult{unknown(1), unknown(2)}, []string{"unknown", "ok"}},
	}
	for _, c := range cases {
		got := JudgeBulk(c.a, c.in, now, []int64{kenji.Id})
		for i, r := range got {
			g := "unknown"
			switch {
			case r.Succeeded():
				g = "ok"
			case r.Refused():
				g = "refused"
			}
			if g != c.want[i] {
				t.Errorf("%s, work order %d: %s (%+v); want %s", c.a, r.WorkOrderId, g, r, c.want[i])
			}
		}
	}
}
