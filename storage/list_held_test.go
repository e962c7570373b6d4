package storage

import (
	"context"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// Work orders the list holds in place are left out of its rows and count,
// however the query is answered (the whole list, a filter, a search from
// the in-memory index or from FTS5, a technician), and RowsOf reads them
// whatever the filters say.
func TestHeldWorkOrdersAreLeftOutOfEveryAnswer(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	wo := pick(t, s, status(api.StatusAccepted))
	cases := []struct {
		name string
		q    ListQuery
	}{
		{"everything", ListQuery{}},
		{"by number, descending", ListQuery{Sort: SortNumber, Desc: true}},
		{"a status", ListQuery{Statuses: []api.WorkOrderStatus{api.StatusAccepted}}},
		{"needs attention, kept", ListQuery{NeedsAttention: true, Keep: []int64{wo.WorkOrderId}}},
		{"a search", ListQuery{Search: wo.Customer.Name}},
		{"a number's digits", ListQuery{Search: wo.WorkOrderNumber[3:]}},
		{"a search and a status", ListQuery{Search: wo.Customer.Name, Statuses: []api.WorkOrderStatus{api.StatusAccepted}}},
	}
	for _, warm := range []bool{false, true} {
		if warm {
			<-s.WarmSearch()
		}
		for _, c := range cases {
			all, n, err := s.ListAndCount(ctx, withPage(c.q))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(all, func(r Row) bool { return r.Id == wo.WorkOrderId }) {
				t.Fatalf("%s: %s is not listed to begin with", c.name, wo.WorkOrderNumber)
			}
			held := c.q
			held.Held = []int64{wo.WorkOrderId}
			rows, m, err := s.ListAndCount(ctx, withPage(held))
			if err != nil {
				t.Fatal(err)
			}
			count, err := s.CountList(ctx, held)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.DeleteFunc(slices.Clone(all), func(r Row) bool { return r.Id == wo.WorkOrderId })
			if m != n-1 || count != n-1 || !slices.Equal(idsOfRows(rows), idsOfRows(want)) {
				t.Errorf("%s (index warm %v): held, %d rows counted %d/%d; want %d, the same order less the held one", c.name, warm, len(rows), m, count, n-1)
			}
		}
	}
	got, err := s.RowsOf(ctx, []int64{wo.WorkOrderId, 1})
	if err != nil || len(got) != 1 || got[wo.WorkOrderId].Number != wo.WorkOrderNumber || got[wo.WorkOrderId].Status != wo.Status {
		t.Errorf("RowsOf: %+v, %v", got, err)
	}
}

func withPage(q ListQuery) ListQuery { q.Limit = 200; return q }

func idsOfRows(rows []Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.Id
	}
	return out
}
