package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/list"
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
	h.desk.status.Refresh()
	if got := h.desk.status.ModeLabel().Text; got != "Office · hub.office.example · Bo Chen" {
		t.Fatalf("status bar mode %q", got)
	}
	if got := h.desk.status.ReceiverLabel().Text; got != "Events connected" {
		t.Fatalf("status bar stream %q", got)
	}
	if shown := strings.Join(texts(h.desk.status.Row()), " | "); strings.Contains(shown, "Token") {
		t.Fatalf("the status bar spends its room on the person's hub token: %s", shown)
	}

	row := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	at := fixedNow.Add(-8 * time.Minute)
	raw := fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"AcceptedByContractor","ActionDate":%q,"MessageId":"hub-1"},"PerformedBy":{"Name":"Ben Okafor"}}`,
		row.Id, at.Format("2006-01-02T15:04:05Z"))
	ev, err := api.ParseEvent([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	// Bo's own action on the same work order comes back from the hub too.
	mine, err := api.ParseEvent([]byte(fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"MessageSentByContractor","ActionDate":%q,"MessageId":"hub-3"},"PerformedBy":{"Name":"Bo Chen"}}`,
		row.Id, fixedNow.Add(-time.Minute).Format("2006-01-02T15:04:05Z"))))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(context.Background(), mine); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.open(row.Id)
	if header := strings.Join(texts(h.desk.detail.header), "\n"); !strings.Contains(header, "Ben Okafor accepted this · "+format.Time(at)) {
		t.Fatalf("the header does not say a colleague accepted it:\n%s", header)
	}
	h.selectTab("Activity")
	h.flush()
	var shown []string
	for _, it := range h.activityLines() {
		shown = append(shown, it.title)
	}
	if !slices.Contains(shown, format.Time(at)+" · Ben Okafor accepted") {
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
// who got there first and when: Ben's accept, not the message he sent
// after it.
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
		TokenURL: h.info.TokenURL, ClientID: h.info.ClientID, ClientSecret: h.info.ClientSecret, Now: fixedClock}))
	if err != nil {
		t.Fatal(err)
	}
	if err := ben.Accept(ctx, &api.AcceptRequest{WorkOrderId: row.Id}); err != nil {
		t.Fatal(err)
	}
	at := fixedNow.Add(-3 * time.Minute)
	raw := fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"AcceptedByContractor","ActionDate":%q,"MessageId":"hub-2"},"PerformedBy":{"Name":"Ben Okafor"}}`,
		row.Id, at.Format("2006-01-02T15:04:05Z"))
	ev, err := api.ParseEvent([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	// Ben's message after his accept is newer, but no reason for the refusal.
	msg, err := api.ParseEvent([]byte(fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":"MessageSentByContractor","ActionDate":%q,"MessageId":"hub-4"},"PerformedBy":{"Name":"Ben Okafor"}}`,
		row.Id, fixedNow.Add(-time.Minute).Format("2006-01-02T15:04:05Z"))))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.eng.HandleEvent(ctx, msg); err != nil {
		t.Fatal(err)
	}
	h.send()
	h.open(row.Id)
	h.selectTab("Activity")
	h.flush()
	want := "Already accepted by Ben Okafor at " + format.Time(at) + "."
	var shown []string
	for _, it := range h.activityLines() {
		shown = append(shown, it.what()+": "+it.text)
	}
	for _, s := range shown {
		if strings.HasPrefix(s, "You: ") && strings.Contains(s, "Refused by the service") && strings.HasSuffix(s, want) {
			return
		}
	}
	t.Fatalf("Activity shows %q; want Bo's refused accept to end %q", shown, want)
}

// shownMark is the colleague's mark the list draws beside the work order's
// number ("" for none), scrolling its row into view as a person would.
func (h *harness) shownMark(id int64) string {
	h.t.Helper()
	row := slices.IndexFunc(h.rows(), func(r storage.Row) bool { return r.Id == id })
	if row < 0 {
		h.t.Fatalf("work order %d is not in the list", id)
	}
	number := h.rows()[row].Number
	h.desk.list.Table().ScrollTo(widget.TableCellID{Row: row, Col: 1}) // Number
	mark, found := "", false
	walk(h.desk.list.Table(), func(o fyne.CanvasObject) {
		if c, ok := o.(*list.Cell); ok {
			if d := drawnIn(c); d.text == number {
				found, mark = true, d.mark
			}
		}
	})
	if !found {
		h.t.Fatalf("the list does not show %s", number)
	}
	return mark
}

// A work order a colleague changed through the hub is marked in the list
// with their initials; the person's own actions are not, and opening the
// work order (whose header says who did what) clears the mark.
func TestOfficeListMarksAColleaguesChange(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.Demo, d.Office, d.Customer = false, true, nil
		d.Health = func() Health {
			hh := harnessHealth()
			hh.Stream, hh.Person = storage.StreamConnected, "Bo Chen"
			return hh
		}
	}})
	rows := h.rowsWhere(3, func(r storage.Row) bool { return r.Status == api.StatusNew })
	hear := func(id int64, action, msgID, by string) {
		t.Helper()
		ev, err := api.ParseEvent([]byte(fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":%q,"ActionDate":%q,"MessageId":%q},"PerformedBy":{"Name":%q}}`,
			id, action, fixedNow.Add(-8*time.Minute).Format(time.RFC3339), msgID, by)))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.eng.HandleEvent(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	hear(rows[0].Id, "AcceptedByContractor", "hub-1", "Ben Okafor")
	hear(rows[1].Id, "MessageSent", "hub-2", "Bo Chen") // Bo's own
	h.desk.changed([]int64{rows[0].Id, rows[1].Id})     // as the stream tells the window once it logged them
	h.flush()
	if got := h.shownMark(rows[0].Id); got != "BO" {
		t.Fatalf("Ben's accept is marked %q in the list, want his initials BO", got)
	}
	if got := h.shownMark(rows[1].Id); got != "" {
		t.Fatalf("Bo's own message marks his list: %q", got)
	}
	if got := h.shownMark(rows[2].Id); got != "" {
		t.Fatalf("a work order nobody touched is marked %q", got)
	}
	h.open(rows[0].Id)
	if header := strings.Join(texts(h.desk.detail.header), "\n"); !strings.Contains(header, "Ben Okafor accepted this") {
		t.Fatalf("the header does not say who changed it:\n%s", header)
	}
	if got := h.shownMark(rows[0].Id); got != "" {
		t.Fatalf("the mark stays after Bo opened the work order: %q", got)
	}
	// A later sync or notification does not bring it back.
	h.desk.changed(nil)
	if got := h.shownMark(rows[0].Id); got != "" {
		t.Fatalf("the mark came back on the next reload: %q", got)
	}

	// A colleague's change to the work order Bo has open is said in its
	// header, not marked on its row (E01), nor once he moves on.
	hear(rows[2].Id, "AcceptedByContractor", "hub-3", "Ana Ruiz")
	h.open(rows[2].Id)
	hear(rows[2].Id, "MessageSent", "hub-4", "Ana Ruiz")
	h.desk.changed([]int64{rows[2].Id})
	h.flush()
	if got := h.shownMark(rows[2].Id); got != "" {
		t.Errorf("Ana's message on the work order Bo has open marks its row %q", got)
	}
	h.open(rows[0].Id)
	if got := h.shownMark(rows[2].Id); got != "" {
		t.Errorf("after Bo moved on, the change he saw open marks its row %q", got)
	}
}
