package storage

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// FuzzFTSQuery: whatever a person types, the search query built from it
// is never an FTS5 syntax error (the replica's own index answers it) and
// the list it feeds comes back. Seeds: TestFTSQuery's table.
func FuzzFTSQuery(f *testing.F) {
	for _, c := range ftsQueryCases {
		f.Add(c.in)
	}
	f.Add(`AND OR NOT * ^ - + ( ) : {a b} NEAR/2 "unterminated`)
	s, _ := openTest(f)
	ctx := context.Background()
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{mkWO(woSpec{id: 1, number: "WO-42", customer: "O'Brien Café", site: "NEAR north"})}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		q := FTSQuery(typed)
		if q == "" {
			return
		}
		for term := range strings.SplitSeq(q, `"* `) {
			if !strings.HasPrefix(term, `"`) {
				t.Fatalf("FTSQuery(%q) = %q: a term is not quoted", typed, q)
			}
		}
		var n int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_orders_fts WHERE work_orders_fts MATCH ?`, q).Scan(&n); err != nil {
			t.Fatalf("FTSQuery(%q) = %q, which the index refuses: %v", typed, q, err)
		}
		if _, err := s.List(ctx, ListQuery{Search: typed, Limit: 10}); err != nil {
			t.Fatalf("listing with the search %q: %v", typed, err)
		}
	})
}

// FuzzParseIDList checks the hand-written id-list parser against
// strconv: it reads exactly the lists of base-10 int64s (with an optional
// minus, never a plus) that strconv reads, to the same values. Seeds:
// TestParseIDList's table.
func FuzzParseIDList(f *testing.F) {
	for _, c := range idListCases {
		f.Add(c.in)
	}
	f.Add("+1")
	f.Add("-0,00000000000000000001,-")
	f.Fuzz(func(t *testing.T, list string) {
		got, err := parseIDList(list)
		var want []int64
		ok := true
		for part := range strings.SplitSeq(list, ",") {
			if strings.HasPrefix(part, "+") {
				ok = false // strconv takes a plus; group_concat never writes one
				break
			}
			v, perr := strconv.ParseInt(part, 10, 64)
			if perr != nil {
				ok = false
				break
			}
			want = append(want, v)
		}
		switch {
		case ok && err != nil:
			t.Fatalf("parseIDList(%q) refused a list strconv reads as %v: %v", list, want, err)
		case !ok && err == nil:
			t.Fatalf("parseIDList(%q) = %v, but strconv refuses it", list, got)
		case ok && !slices.Equal(got, want):
			t.Fatalf("parseIDList(%q) = %v, strconv reads %v", list, got, want)
		}
	})
}
