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

// Bo's accept, queued before he heard that Ben accepted the same work
// order through the hub, is refused by the service; the Activity tab says
// who got there first and when.
func TestOfficeRefusalNamesTheColleagueWhoActedFirst(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.Demo, d.Office, d.Customer = false, true, nil
		d.Health = func() Health {
			hh := harnessHealth()
			hh.Stream, hh.Person = storage.StreamConnected, "Bo Chen"
			return hh
		}
	}})
	ctx := context.Background()
	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	if _, err := h.store.Accept(ctx, row.Id, ""); err != nil {
		t.Fatal(err)
	}
	// Ben's accept reaches the service through the hub first.
	ben, err := api.NewClient(h.info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: h.info.TokenURL, ClientID: h.info.ClientID, ClientSecret: h.info.ClientSecret, Now: func() time.Time { return fixedNow }}))
	if err != nil {
		t.Fatal(err)
	}
	if err := ben.Accept(ctx, &api.AcceptRequest{WorkOrderId: row.Id}); err != nil {
		t.Fatal(err)
	}
	at := fixedNow.Add(-3 * time.Minute)
	raw := fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"Accepted","ActionDate":%q,"MessageId":"hub-2"},"PerformedBy":{"Name":"Ben Okafor"}}`,
		row.Id, at.Format("2006-01-02T15:04:05Z"))
	ev, err := api.ParseEvent([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	h.send()
	h.open(row.Id)
	h.selectTab("Activity")
	h.flush()
	want := "Already accepted by Ben Okafor at " + localTime(at) + "."
	var shown []string
	for _, tb := range h.desk.detail.tabs {
		if at, ok := tb.(*activityTab); ok {
			for _, a := range at.items {
				shown = append(shown, a.title+": "+a.text)
			}
		}
	}
	for _, s := range shown {
		if strings.HasPrefix(s, "You: ") && strings.Contains(s, "Refused by the service") && strings.HasSuffix(s, want) {
			return
		}
	}
	t.Fatalf("Activity shows %q; want Bo's refused accept to end %q", shown, want)
}
