package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestCountListAndPagesAgreeWithList: the window reads the list as a count
// and pages; together they must show exactly what one List call returns.
func TestCountListAndPagesAgreeWithList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wos []api.WorkOrder
	for i := 0; i < 250; i++ {
		st := api.StatusNew
		if i%3 == 0 {
			st = api.StatusAccepted
		}
		name := "Northwind Retail"
		if i%5 == 0 {
			name = "Harbor Point Hotels"
		}
		wos = append(wos, api.WorkOrder{WorkOrderId: int64(1000 + i), WorkOrderNumber: "WN" + string(rune('A'+i%26)) + string(rune('0'+i%10)),
			Status: st, Currency: "USD", Customer: api.Customer{Id: 1, Name: name}, Nte: api.Nte{Amount: api.MustMoney("100", "USD")}})
	}
	if err := s.PutWorkOrders(ctx, wos); err != nil {
		t.Fatal(err)
	}
	for _, q := range []ListQuery{
		{},
		{Search: "harbor"},
		{Statuses: []api.WorkOrderStatus{api.StatusAccepted}},
		{Search: "northwind", Statuses: []api.WorkOrderStatus{api.StatusNew}, Sort: SortNumber, Desc: true},
		{NeedsAttention: true},
		{Search: "WO-42 O'Brien"},
	} {
		all, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.CountList(ctx, q)
		if err != nil || n != len(all) {
			t.Fatalf("CountList(%+v) = %d, %v; List returns %d rows", q, n, err, len(all))
		}
		var paged []Row
		for off := 0; off < n; off += 40 {
			pq := q
			pq.Limit, pq.Offset = 40, off
			page, err := s.List(ctx, pq)
			if err != nil {
				t.Fatal(err)
			}
			paged = append(paged, page...)
		}
		if len(paged) != len(all) {
			t.Fatalf("pages of %+v hold %d rows, List %d", q, len(paged), len(all))
		}
		for i := range all {
			if paged[i].Id != all[i].Id {
				t.Fatalf("row %d of %+v: page shows %d, List %d", i, q, paged[i].Id, all[i].Id)
			}
		}
	}
}

// TestSearchFindsDigitsInsideANumber: "73227" finds KFU73227, as people type
// the digits printed on a sheet, also beside a word ("kensington 3227");
// LIKE wildcards in the input are literal.
func TestSearchFindsDigitsInsideANumber(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mk := func(id int64, number string) api.WorkOrder {
		return api.WorkOrder{WorkOrderId: id, WorkOrderNumber: number, Status: api.StatusNew, Currency: "GBP",
			Customer: api.Customer{Id: 1, Name: "Kensington Foods UK"}, Nte: api.Nte{Amount: api.MustMoney("100", "GBP")}}
	}
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{mk(1, "KFU73227"), mk(2, "KFU73300"), mk(3, "NWR1%00")}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		search string
		want   []int64
	}{
		{"73227", []int64{1}},
		{"7322", []int64{1}},
		{"KFU7", []int64{1, 2}},
		{"1%0", []int64{3}},
		{"3_3", nil},
		// A word and a number together, as the empty list's hint invites:
		// the word must match and the digits lie inside the number.
		{"kensington 3227", []int64{1}},
		{"foods 73", []int64{1, 2}},
		{"3227 kensington", []int64{1}},
		{"kensington 999", nil},
		{"northwind 3227", nil},
	} {
		rows, err := s.List(ctx, ListQuery{Search: c.search, Sort: SortNumber})
		if err != nil {
			t.Fatalf("%q: %v", c.search, err)
		}
		var got []int64
		for _, r := range rows {
			got = append(got, r.Id)
		}
		n, _ := s.CountList(ctx, ListQuery{Search: c.search})
		if fmt.Sprint(got) != fmt.Sprint(c.want) || n != len(c.want) {
			t.Errorf("search %q found %v (count %d), want %v", c.search, got, n, c.want)
		}
	}
}
