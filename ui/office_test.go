package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// In office mode the status bar says which hub and whose window it is and
// whether the event stream is up; a colleague's accept, as the hub's stream
// carries it, is named on the Activity tab and marks the work order's header.
func TestOfficeWindowNamesTheColleague(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.Demo, d.Office, d.Customer = false, true, nil
		d.Service = "https://hub.office.example"
		d.Health = func() Health {
			hh := harnessHealth()
			hh.Stream, hh.Person = storage.StreamConnected, "Bo Chen"
			return hh
		}
	}})
	h.desk.status.refresh()
	if got := h.desk.status.mode.Text; got != "Office · hub.office.example · Bo Chen" {
		t.Fatalf("status bar mode %q", got)
	}
	if got := h.desk.status.receiver.Text; got != "Events connected" {
		t.Fatalf("status bar stream %q", got)
	}

	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	at := fixedNow.Add(-8 * time.Minute)
	raw := fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"Accepted","ActionDate":%q,"MessageId":"hub-1"},"PerformedBy":{"Name":"Ben Okafor"}}`,
		row.Id, at.Format("2006-01-02T15:04:05Z"))
	ev, err := api.ParseEvent([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.open(row.Id)
	if header := strings.Join(texts(h.desk.detail.header), "\n"); !strings.Contains(header, "Ben Okafor accepted this · "+localTime(at)) {
		t.Fatalf("the header does not say a colleague accepted it:\n%s", header)
	}
	h.selectTab("Activity")
	h.flush()
	var shown []string
	for _, tb := range h.desk.detail.tabs {
		if at, ok := tb.(*activityTab); ok {
			for _, a := range at.items {
				shown = append(shown, localTime(a.at)+" · "+a.title)
			}
		}
	}
	if !slices.Contains(shown, localTime(at)+" · Ben Okafor accepted") {
		t.Fatalf("Activity shows %q, want Ben Okafor's accept", shown)
	}
}
