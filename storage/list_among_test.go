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
	t.Parallel()
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

// TestListedAmongAgreesWithTheInMemorySearch: during a bulk sync the
// replica's full-text index lags (its triggers are off) while the list's
// in-memory search already finds the new work orders; a ticked one the list
// shows is kept, as the list shows it.
func TestListedAmongAgreesWithTheInMemorySearch(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	ctx := context.Background()
	put(t, s, woSpec{id: 1, number: "WO-1", customer: "Northwind Retail"})
	<-s.WarmSearch()
	if _, err := s.deferFTS(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, s, woSpec{id: 2, number: "WO-2", customer: "Sakura Foods"}, woSpec{id: 3, number: "WO-3", customer: "Sakura Foods"})
	q := ListQuery{Search: "sakura", Limit: 50}
	rows, n, err := s.ListAndCount(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || !slices.Equal(ids(rows), []int64{2, 3}) {
		t.Fatalf("the list shows %v (%d) for %q; want the new work orders", ids(rows), n, q.Search)
	}
	got, err := s.ListedAmong(ctx, q, []int64{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int64{2, 3}) {
		t.Errorf("ListedAmong = %v; the list shows [2 3]", got)
	}
}
