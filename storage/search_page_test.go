package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestSearchPagesAgreeWithFullList: a page of a search (from the in-memory
// index, or from FTS5's set of ids by walking the sort index or sorting the
// set) holds exactly the rows of the whole sorted list at those places, for
// every sort column and direction, broad and narrow searches, digits inside
// numbers, and pages past the end.
func TestSearchPagesAgreeWithFullList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, mode := range []string{"in memory", "FTS5"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			// 600 rows: the pages' places (first, second, last, past the
			// end) and the sort index's walk budget (a multiple of the set)
			// do not depend on the size. Numbered WO-101000 on, so that
			// "WO-1012" and "01234" find some.
			wos := synthetic(600)
			for i := range wos {
				wos[i].WorkOrderNumber = fmt.Sprintf("WO-%06d", 101000+i)
			}
			// Names that sort apart in NOCASE and BINARY ("_" lies between
			// "A" and "a"), ties, a NUL, no dates, equal NTEs as text apart.
			for i, name := range []string{"acme Industrial", "ACME INDUSTRIAL", "_acme", "Acme\x00Z", "Acme\x00A", "acme", "Äcme", "harbor"} {
				w := &wos[i*7]
				w.Customer.Name, w.ServiceLocation.SpaceName = name, name+" site"
				w.Sla, w.Schedule = nil, nil
				w.Nte.Amount = api.MustMoney([]string{"1000", "1000.00", "900", "0"}[i%4], w.Currency)
			}
			if err := s.PutWorkOrders(ctx, wos); err != nil {
				t.Fatal(err)
			}
			if mode == "FTS5" {
				s.search.mu.Lock()
				s.search.off = true
				s.search.mu.Unlock()
			} else {
				<-s.WarmSearch()
			}
			searches := []string{"n", "harbor", "o'brien", "WO-1", "WO-1012", "01234", "store #12", "roof le", "main", "zzz", "café",
				`"`, "harbor 12", "main 0 1", "acme", "a"}
			compareAll(t, s, searches)
			if mode == "FTS5" {
				return
			}
			// Writes move rows: new ones (ids before and after the others),
			// changed names, dates, statuses and amounts.
			more := synthetic(40)
			for i := range more {
				more[i].WorkOrderId = int64(i*50_000 + 7)
				more[i].WorkOrderNumber = fmt.Sprintf("NEW-%d", i)
			}
			for i := 0; i < len(wos); i += 37 {
				w := wos[i]
				w.Customer.Name = []string{"Acme", "zulu", "Harbor Point Hotels", "_"}[i%4]
				w.Status = api.StatusCheckedIn
				w.Sla, w.Schedule = nil, &api.Schedule{}
				w.Nte.Amount = api.MustMoney(fmt.Sprint(i), w.Currency)
				more = append(more, w)
			}
			if err := s.PutWorkOrders(ctx, more); err != nil {
				t.Fatal(err)
			}
			compareAll(t, s, append(searches, "new", "zulu"))
			if s.search.idx == nil {
				t.Fatal("the in-memory index was not used")
			}
		})
	}
}

// compareAll compares pages of searches with the whole sorted list, for
// every sort column and direction (under the race detector, every seventh
// of those: each search still meets several columns and each column
// several searches).
func compareAll(t *testing.T, s *Store, searches []string) {
	t.Helper()
	ctx := context.Background()
	var queries []ListQuery
	for _, search := range searches {
		for sort := SortNextDeadline; sort <= SortScheduledStart; sort++ {
			for _, desc := range []bool{false, true} {
				queries = append(queries, ListQuery{Search: search, Sort: sort, Desc: desc})
			}
		}
	}
	for _, q := range everyUnderRace(queries, 7) {
		all, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.CountList(ctx, q)
		if err != nil || n != len(all) {
			t.Fatalf("CountList(%+v) = %d, %v; List returns %d rows", q, n, err, len(all))
		}
		for _, off := range []int{0, 50, max(len(all)-7, 0), len(all) + 3} {
			pq := q
			pq.Limit, pq.Offset = 50, off
			page, err := s.List(ctx, pq)
			if err != nil {
				t.Fatal(err)
			}
			want := all[min(off, len(all)):min(off+50, len(all))]
			if fmt.Sprint(page) != fmt.Sprint(want) {
				t.Fatalf("%+v: page has %d rows, want %d:\n%v\nwant\n%v", pq, len(page), len(want), page, want)
			}
			both, total, err := s.ListAndCount(ctx, pq)
			if err != nil || total != len(all) || fmt.Sprint(both) != fmt.Sprint(want) {
				t.Fatalf("ListAndCount(%+v) = %d rows of %d, %v; List has %d rows of %d", pq, len(both), total, err, len(want), len(all))
			}
		}
	}
}

// TestSearchSeesWrites: the ids a search found are kept for the next call
// (the count, then the page), never past a change of the data.
func TestSearchSeesWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mk := func(id int64, number, customer string) api.WorkOrder {
		return api.WorkOrder{WorkOrderId: id, WorkOrderNumber: number, Status: api.StatusNew, Currency: "USD",
			Customer: api.Customer{Id: 1, Name: customer}, Nte: api.Nte{Amount: api.MustMoney("100", "USD")}}
	}
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{mk(1, "KFU100", "Northwind")}); err != nil {
		t.Fatal(err)
	}
	check := func(search string, want ...int64) {
		t.Helper()
		q := ListQuery{Search: search, Limit: 50}
		n, err := s.CountList(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, r := range rows {
			got = append(got, r.Id)
		}
		if n != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("search %q: count %d, rows %v; want %v", search, n, got, want)
		}
	}
	check("zebra")
	check("733")
	check("north", 1)
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{mk(2, "KFU7331", "Zebra Stores"), mk(1, "KFU100", "Southwind")}); err != nil {
		t.Fatal(err)
	}
	check("zebra", 2)
	check("733", 2)
	check("north")
}

// idListCases is TestParseIDList's table and FuzzParseIDList's seed corpus.
var idListCases = []struct{ in, want string }{
	{"1", "[1]"},
	{"12,7,300", "[12 7 300]"},
	{"-5,999999999999999999", "[-5 999999999999999999]"},
	{"", "error"},
	{"1,,2", "error"},
	{"1,x", "error"},
	{"1,-", "error"},
	{"1,2-3", "error"},
	{"1234567890123456789,-9223372036854775808", "[1234567890123456789 -9223372036854775808]"},
	{"9223372036854775808", "error"},
}

func TestParseIDList(t *testing.T) {
	t.Parallel()
	for _, c := range idListCases {
		ids, err := parseIDList(c.in)
		got := fmt.Sprint(ids)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("parseIDList(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
