package storage

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestListedAmongKeepsWhatTheListShows: of some ids, ListedAmong returns
// exactly those the list shows for a query, for a search, a status filter,
// both, the attention filter and no filter.
func TestListedAmongKeepsWhatTheListShows(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wos []api.WorkOrder
	for i := 0; i < 60; i++ {
		st := api.StatusNew
		if i%3 == 0 {
			st = api.StatusAccepted
		}
		name := "Northwind Retail"
		if i%5 == 0 {
			name = "Harbor Point Hotels"
		}
		wos = append(wos, api.WorkOrder{WorkOrderId: int64(1000 + i), WorkOrderNumber: "WN7" + string(rune('0'+i/10)) + string(rune('0'+i%10)),
			Status: st, Currency: "USD", Customer: api.Customer{Id: 1, Name: name}, Nte: api.Nte{Amount: api.MustMoney("100", "USD")}})
	}
	if err := s.PutWorkOrders(ctx, wos); err != nil {
		t.Fatal(err)
	}
	ticked := []int64{1000, 1001, 1003, 1005, 1010, 1042, 9999}
	for _, q := range []ListQuery{
		{},
		{Search: "harbor"},
		{Statuses: []api.WorkOrderStatus{api.StatusAccepted}},
		{Search: "northwind", Statuses: []api.WorkOrderStatus{api.StatusNew}},
		{Search: "harbor 42"},
		{NeedsAttention: true},
	} {
		rows, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, r := range rows {
			if slices.Contains(ticked, r.Id) {
				want = append(want, r.Id)
			}
		}
		slices.Sort(want)
		got, err := s.ListedAmong(ctx, q, ticked)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("ListedAmong(%+v) = %v, the list shows %v of them", q, got, want)
		}
	}
}
