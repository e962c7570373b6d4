package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

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
	// Bo's own action on the same work order comes back from the hub too.
	mine, err := api.ParseEvent([]byte(fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"MessageSent","ActionDate":%q,"MessageId":"hub-3"},"PerformedBy":{"Name":"Bo Chen"}}`,
		row.Id, fixedNow.Add(-time.Minute).Format("2006-01-02T15:04:05Z"))))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(context.Background(), mine); err != nil {
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
	for _, line := range shown {
		if strings.Contains(line, "Bo Chen") {
			t.Fatalf("Activity lists Bo's own action as a colleague's: %q", shown)
		}
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

// File › Connect to office hub… refuses an address that is not one, in
// plain words and without connecting; with a good one it hands over the
// hub, the client id and the secret, and saves the first two (never the
// secret) in the preferences.
func TestConnectToOfficeHubDialog(t *testing.T) {
	h := newHarness(t)
	var got []string
	h.desk.deps.ConnectOffice = func(s OfficeSettings, secret string) error {
		got = append(got, s.HubURL, s.ClientID, secret)
		s.Save(h.desk.app.Preferences())
		return nil
	}
	h.win.SetMainMenu(h.desk.mainMenu())
	h.menuItem("Connect to office hub…").Action()
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()
	test.Type(formEntry(t, dlg, "Hub address"), "hub.office.example")
	test.Type(formEntry(t, dlg, "Your client id"), "bo")
	test.Type(formEntry(t, dlg, "Your client secret"), "s3cret")
	test.Tap(buttonIn(t, dlg, "Connect"))
	if got != nil || !strings.Contains(h.overlayText(), "must start with https://") {
		t.Fatalf("a bad address: connected with %q; dialog says %q", got, h.overlayText())
	}
	formEntry(t, dlg, "Hub address").SetText("https://hub.office.example/")
	test.Tap(buttonIn(t, dlg, "Connect"))
	if !slices.Equal(got, []string{"https://hub.office.example", "bo", "s3cret"}) {
		t.Fatalf("connected with %q", got)
	}
	if h.win.Canvas().Overlays().Top() != nil {
		t.Fatal("the dialog stays open after connecting")
	}
	saved := LoadOfficeSettings(h.desk.app.Preferences())
	if saved.HubURL != "https://hub.office.example" || saved.ClientID != "bo" {
		t.Fatalf("saved %+v", saved)
	}
}
