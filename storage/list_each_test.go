package storage

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestEachRowIsTheList: what an export reads is what the list shows, row
// for row and in its order, for a search (read as the table reads it), a
// filter, both, and every sort either way.
func TestEachRowIsTheList(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "replica.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.PutWorkOrders(ctx, synthetic(5000)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []ListQuery{
		{},
		{Search: "harbor"},
		{Search: "warehouse 12"},
		{Statuses: []api.WorkOrderStatus{api.StatusAccepted}, Sort: SortCustomer, Desc: true},
		{Search: "faucet", Statuses: []api.WorkOrderStatus{api.StatusCheckedOut}, Sort: SortNte},
		{NeedsAttention: true, Sort: SortScheduledStart, Desc: true},
		{Search: "northwind", Sort: SortNextDeadline, Desc: true},
	} {
		// The list as the table reads it: its length, then page after page.
		n, err := s.CountList(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var shown []int64
		for off := 0; off < n; off += 50 {
			p := q
			p.Limit, p.Offset = 50, off
			rows, err := s.List(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				shown = append(shown, r.Id)
			}
		}
		var each []int64
		if err := s.EachRow(ctx, q, func(r Row) error { each = append(each, r.Id); return nil }); err != nil {
			t.Fatal(err)
		}
		if n == 0 || n == 5000 && (q.Search != "" || len(q.Statuses) > 0 || q.NeedsAttention) {
			t.Fatalf("%+v finds %d rows: the case tests nothing", q, n)
		}
		if !slices.Equal(each, shown) {
			t.Errorf("%+v: EachRow gave %d rows, the list shows %d (or another order)", q, len(each), len(shown))
		}
	}
	// fn's error ends the walk and comes back.
	stop := errors.New("stop")
	calls := 0
	if err := s.EachRow(ctx, ListQuery{}, func(Row) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("EachRow = %v after %d calls", err, calls)
	}
}
