package serve

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// idsCases: GET /api/workOrder's query as a client may send it, and the ids
// the service reads from it (nil: refused, about "ids").
var idsCases = []struct {
	query string
	want  []int64
}{
	{"ids=7", []int64{7}},
	{"ids=7&ids=9", []int64{7, 9}},
	{"ids=7,9,11", []int64{7, 9, 11}},
	{"ids=7,%209", []int64{7, 9}},
	{"IDS=7", []int64{7}},
	{"ids[0]=7&ids[1]=9", []int64{7, 9}},
	{"ids[1]=9&ids[0]=7", []int64{7, 9}},
	{"ids[10]=10&ids[2]=2", []int64{2, 10}},
	{"Ids[1]=9&ids[0]=7", []int64{7, 9}},
	{"ids[0]=7,8&ids[1]=9", []int64{7, 8, 9}},
	{"ids[1]=9&ids=7", []int64{7, 9}},
	{"ids=7&ids=7", []int64{7, 7}},
	{"ids=7&messageId=abc&workOrderId=3", []int64{7}},
	{"ids=0", []int64{0}}, // an id no work order has: left out of the answer, not refused
	{"ids=" + strings.Repeat("1,", 49) + "1", slices.Repeat([]int64{1}, 50)},
	{"", nil},
	{"messageId=abc", nil},
	{"ids=", nil},
	{"ids=7,", nil},
	{"ids=x", nil},
	{"ids=7.5", nil},
	{"ids=99999999999999999999", nil},
	{"ids[x]=7", nil},
	{"ids[]=7", nil},
	{"ids[-1]=7", nil},
	{"ids[+1]=7", nil},
	{"ids[%201]=7", nil},
	{"ids[99999999999999999999]=7", nil},
	{"ids=" + strings.Repeat("1,", 50) + "1", nil},
	{"ids=" + strings.Repeat("1,", 50) + "x", nil}, // the count is refused before the odd id
}

func TestIDs(t *testing.T) {
	for _, c := range idsCases {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		got, bad := IDs(q)
		switch {
		case c.want == nil && bad == nil:
			t.Errorf("IDs(%q) = %v, want it refused", c.query, got)
		case c.want == nil && (bad.Code != api.CodeInvalidModel || bad.ValidationErrors[0].Property != "ids"):
			t.Errorf("IDs(%q) refused with %+v, want a 2100 about ids", c.query, bad)
		case c.want != nil && !slices.Equal(got, c.want):
			t.Errorf("IDs(%q) = %v %v, want %v", c.query, got, bad, c.want)
		}
	}
	q, _ := url.ParseQuery("ids=" + strings.Repeat("1,", 50) + "1")
	if _, bad := IDs(q); bad == nil || !strings.Contains(bad.ValidationErrors[0].Message, "at most 50") {
		t.Errorf("51 ids: %+v, want the limit named", bad)
	}
}

// FuzzIDs: whatever the query, IDs answers the same every time (never by
// a map's order), and reads from 1 to 50 ids or refuses with a 2100 about
// ids. Seeds: TestIDs's cases.
func FuzzIDs(f *testing.F) {
	for _, c := range idsCases {
		f.Add(c.query)
	}
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		got, bad := IDs(q)
		if bad != nil {
			if got != nil || bad.Code != api.CodeInvalidModel || bad.ValidationErrors[0].Property != "ids" {
				t.Fatalf("IDs(%q) = %v, %+v", query, got, bad)
			}
		} else if len(got) == 0 || len(got) > api.MaxReadBatch {
			t.Fatalf("IDs(%q) = %d ids", query, len(got))
		}
		for range 3 {
			again, bad2 := IDs(q)
			if !slices.Equal(again, got) || (bad == nil) != (bad2 == nil) {
				t.Fatalf("IDs(%q) = %v, then %v", query, got, again)
			}
		}
	})
}

func TestQueryID(t *testing.T) {
	for _, c := range []struct {
		query string
		want  int64 // 0: refused
	}{
		{"workOrderId=7", 7},
		{"WORKORDERID=7", 7},
		{"workorderid=7&messageId=x", 7},
		{"workOrderId=%2B7", 7}, // as ASP.NET and strconv read it
		{"", 0},
		{"workOrderId=", 0},
		{"workOrderId=0", 0},
		{"workOrderId=-7", 0},
		{"workOrderId=%207", 0},
		{"workOrderId=+7", 0}, // a space
		{"workOrderId=7%20", 0},
		{"workOrderId=7x", 0},
		{"workOrderId=99999999999999999999", 0},
		{"workOrderId=7&workOrderId=8", 0},
		{"workOrderId=7&WorkOrderId=8", 0},
		{"workOrderId=7&workOrderId=7", 0},
	} {
		q, _ := url.ParseQuery(c.query)
		got, bad := QueryID(q, "workOrderId")
		switch {
		case c.want == 0 && bad == nil:
			t.Errorf("QueryID(%q) = %d, want it refused", c.query, got)
		case c.want == 0 && bad.ValidationErrors[0].Property != "workOrderId":
			t.Errorf("QueryID(%q) refused with %+v, want it about workOrderId", c.query, bad)
		case c.want != 0 && got != c.want:
			t.Errorf("QueryID(%q) = %d %+v, want %d", c.query, got, bad, c.want)
		}
	}
}

func TestMessageId(t *testing.T) {
	for _, c := range []struct{ query, body, want string }{
		{"messageId=q1", "", "q1"},
		{"MESSAGEID=q1", "", "q1"},
		{"messageid=q1&MessageId=q2", "", "q2"}, // sorted spellings: the first taken
		{"messageId=q1&MessageId=q2", "", "q1"}, // the spelling asked for first
		{"messageId=q1", `{"MessageId":"b1","WorkOrderId":7}`, "b1"},
		{"messageId=q1", `{"messageid":"b1"}`, "b1"},
		{"messageId=q1", `{"MessageId":""}`, "q1"},
		{"messageId=q1", `{"MessageId":7}`, "q1"},
		{"messageId=q1", `not json`, "q1"},
		{"", `{"WorkOrderId":7}`, ""},
		{"", "", ""},
	} {
		q, _ := url.ParseQuery(c.query)
		if got := MessageId(q, []byte(c.body)); got != c.want {
			t.Errorf("MessageId(%q, %q) = %q, want %q", c.query, c.body, got, c.want)
		}
	}
}
