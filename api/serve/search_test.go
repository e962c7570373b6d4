package serve

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// searchCases: search bodies, and whether the service takes them.
var searchCases = []struct {
	body string
	ok   bool
}{
	{"", true},
	{`{}`, true},
	{`null`, true},
	{`{"Parameters":{}}`, true},
	{`{"Parameters":{"Statuses":["New","Accepted"]},"MessageId":"m"}`, true},
	{`{"Parameters":{"LastUpdate":{"From":"2025-01-01T00:00:00Z"}}}`, true},
	{`{"Parameters":{"WorkOrderNumber":"WO-7","CustomerId":3}}`, true},
	{`{"Parameters":{"Statuses":["Nope"]}}`, false},
	{`{"Parameters":{"Statuses":["new"]}}`, false},
	{`{"Parameters":{"Statuses":[""]}}`, false},
	{`{"Parameters":{"LastUpdate":{"From":"yesterday"}}}`, false},
	{`{"Parameters":`, false},
	{` `, false},
	{`[]`, false},
}

func TestSearchParameters(t *testing.T) {
	for _, c := range searchCases {
		p, bad := SearchParameters([]byte(c.body))
		if (bad == nil) != c.ok || (bad != nil && bad.Code != api.CodeInvalidModel) {
			t.Errorf("SearchParameters(%q) = %+v %+v, want ok %v", c.body, p, bad, c.ok)
		}
	}
	p, _ := SearchParameters([]byte(`{"Parameters":{"Statuses":["New"],"WorkOrderNumber":"WO-7"}}`))
	if !slices.Equal(p.Statuses, []api.WorkOrderStatus{api.StatusNew}) || p.WorkOrderNumber != "WO-7" {
		t.Errorf("parameters read: %+v", p)
	}
}

// FuzzSearchParameters: whatever the body, a search taken asks only for
// statuses the service has; one refused is a 2100. Seeds: the table's.
func FuzzSearchParameters(f *testing.F) {
	for _, c := range searchCases {
		f.Add(c.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		p, bad := SearchParameters([]byte(body))
		if bad != nil {
			if bad.Code != api.CodeInvalidModel {
				t.Fatalf("refused with %+v", bad)
			}
			return
		}
		for _, st := range p.Statuses {
			if !slices.Contains(api.AllStatuses, st) {
				t.Fatalf("taken with status %q", st)
			}
		}
	})
}

// A search's item has the basic fields and no more (service-facts §4.1).
func TestBasic(t *testing.T) {
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	wo := &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "WO-7", Status: api.StatusNew, Created: now, LastUpdate: now, Currency: "EUR"}
	b, err := json.Marshal(Basic(wo))
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(b, &keys)
	var got []string
	for k := range keys {
		got = append(got, k)
	}
	slices.Sort(got)
	want := []string{"Created", "Currency", "Customer", "LastUpdate", "Nte", "Status", "WorkOrderId", "WorkOrderNumber"}
	if !slices.Equal(got, want) || string(keys["WorkOrderNumber"]) != `"WO-7"` {
		t.Errorf("basic work order %s", b)
	}
}
