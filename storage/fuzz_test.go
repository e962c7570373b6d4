package storage

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// FuzzFTSQuery: whatever a person types, the search query built from it
// is never an FTS5 syntax error (the replica's own index answers it), the
// list it feeds comes back, and the in-memory index finds exactly the work
// orders FTS5 and number LIKE find (or leaves the search to them). Seeds:
// TestFTSQuery's table.
func FuzzFTSQuery(f *testing.F) {
	for _, c := range ftsQueryCases {
		f.Add(c.in)
	}
	f.Add(`AND OR NOT * ^ - + ( ) : {a b} NEAR/2 "unterminated`)
	f.Add("sakura 3264")
	f.Add("e\u0301 ǅ3 K")
	s, _ := openTest(f)
	ctx := context.Background()
	wos := []api.WorkOrder{mkWO(woSpec{id: 1, number: "WO-42", customer: "O'Brien Café", site: "NEAR north"})}
	for i, text := range oddTexts {
		wos = append(wos, mkWO(woSpec{id: int64(i + 2), number: fmt.Sprintf("SMJ%d-%s", 73260+i, text), customer: text,
			site: "Site " + text, street: text + " 1", desc: "Fix " + text + " now"}))
	}
	if err := s.PutWorkOrders(ctx, wos); err != nil {
		f.Fatal(err)
	}
	x, err := s.buildSearchIndex(ctx)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		q := FTSQuery(typed)
		match, numbers := splitSearch(typed)
		if match != "" || len(numbers) > 0 {
			conn, err := s.r.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.findWithFTS(ctx, conn, match, numbers)
			conn.Close()
			if err != nil {
				t.Fatalf("searching %q with FTS5: %v", typed, err)
			}
			if hits, ok := x.find(typed); ok && !slices.Equal(x.hitIDs(hits), want) && hits.n+len(want) > 0 {
				got := x.hitIDs(hits)
				t.Fatalf("%q: the in-memory index finds %v, FTS5 and number LIKE find %v", typed, got, want)
			}
		}
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
