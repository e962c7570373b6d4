package api

import (
	"encoding/json"
	"testing"
)

// What a sync reads of a search (SearchWorkOrderVersions) is what the
// full answer says of each work order: its id, version and customer, in
// every shape the answer comes in; an answer that names its work orders
// under another key is an error, never "nothing changed".
func TestSearchVersionsReadWhatTheFullAnswerSays(t *testing.T) {
	wos := realisticWorkOrders(3)
	items, err := json.Marshal(wos)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, answer string
		want         int
		err          bool
	}{
		{"wrapped", `{"WorkOrders":` + string(items) + `,"MessageId":"m"}`, 3, false},
		{"a bare list", string(items), 3, false},
		{"other letters", `{"workorders":` + string(items) + `}`, 3, false},
		{"none", `{"WorkOrders":[],"MessageId":"m"}`, 0, false},
		{"under another key", `{"Items":` + string(items) + `}`, 0, true},
		{"not JSON", `{"WorkOrders":[{"WorkOrderId":`, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full, ferr := decodeWorkOrders([]byte(tc.answer), "search")
			found, err := decodeWorkOrdersAs[Found]([]byte(tc.answer), "search")
			if (err != nil) != tc.err || (ferr != nil) != tc.err {
				t.Fatalf("errors %v and %v, want an error: %v", ferr, err, tc.err)
			}
			if len(found) != tc.want || len(full) != tc.want {
				t.Fatalf("%d and %d work orders, want %d", len(full), len(found), tc.want)
			}
			for i, f := range found {
				w := full[i]
				if f.WorkOrderId != w.WorkOrderId || !f.LastUpdate.Equal(w.LastUpdate) || f.Customer.Id != w.Customer.Id {
					t.Errorf("work order %d read as %+v, the full answer says %d, %v, customer %d",
						i, f, w.WorkOrderId, w.LastUpdate, w.Customer.Id)
				}
			}
		})
	}
}
