package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// notifyWith posts body to the hub's /notify with a bearer token and the
// Event-Type the body's action says, from client (nil = the default), with
// X-Forwarded-For when xff is set; it returns the status.
func notifyWith(t *testing.T, client *http.Client, url, tok string, body []byte, xff string) int {
	t.Helper()
	var ev struct{ Header struct{ Action string } }
	json.Unmarshal(body, &ev)
	req, _ := http.NewRequest(http.MethodPost, url+"/notify", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Event-Type", ev.Header.Action)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// forged is a notification about id with body, plus what an attacker adds
// to make a desktop name someone: a Sender and a PerformedBy.
func forged(t testing.TB, id int64, action string, body any) []byte {
	t.Helper()
	b, err := api.MarshalEvent(api.EventHeader{WorkOrderId: id, Action: action, ActionDate: time.Now().UTC(), MessageId: uuid.NewString(),
		Sender: &api.Sender{Name: "Ben Okafor", Type: "CorrigoPro"}}, body)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	m["PerformedBy"] = map[string]string{"Name": "Ben Okafor"}
	out, _ := json.Marshal(m)
	return out
}

// serviceToken is a token the service signed: a notification's, or the
// company's own access token.
func notificationToken(t testing.TB, o *office) string {
	t.Helper()
	tok, err := api.MintToken(o.sb.Key(), api.SHA1, api.NewClaims(o.info.ClientID, time.Now(), 20*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Notifications with made-up bodies under tokens the service did sign (a
// captured notification's, used again; the company's own access token):
// the hub takes them, since a token covers no body and may be used for
// more than one, but nothing of the bodies reaches a desktop. Not the
// NTE, the quote's approval, a rejection or an invoice's status; not the
// name they put in Sender and PerformedBy, on the stream or in a
// desktop's replica and event log. What reaches desktops is the work
// order as the service says it is when the hub reads it again, and not
// the facts of an invoice's status the service's invoice does not have.
func TestSecurityForgedNotificationsReachNoDesktop(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, boCreds := o.person(a, "Bo Chen")
	ctx := context.Background()
	svc := o.direct()
	id := newWorkOrder(t, o)
	if err := svc.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	truth, err := svc.GetWorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	bo := openOfficeDesktop(t, a.srv.URL, filepath.Join(t.TempDir(), "bo.db"), boCreds, nil)
	syncDesktop(t, bo)
	waitStream(t, bo, storage.StreamConnected)
	boHears := heard(bo)
	stream := openStream(t, a, boCreds, "")

	captured := notificationToken(t, o)
	access, err := api.NewClientCredentials(api.CredentialsConfig{TokenURL: o.info.TokenURL, ClientID: o.info.ClientID,
		ClientSecret: o.info.ClientSecret}).Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	huge := api.Money{Amount: decimal.NewFromInt(987654), Currency: truth.Currency}
	bodies := []struct {
		tok  string
		body []byte
	}{
		{captured, forged(t, id, api.ActionNteChanged, &api.NteChangedEvent{Amount: huge})},
		// The same captured token again, with another body: not refused.
		{captured, forged(t, id, api.ActionQuoteChanged, &api.QuoteChangedEvent{Quote: api.Quote{Amount: huge, QuoteStatus: api.QuoteApproved}})},
		{access, forged(t, id, api.ActionRejected, &api.RejectedEvent{Status: api.StatusRejected, Comment: "rejected"})},
		{access, forged(t, id, api.ActionInvoiceStatusChanged, &api.InvoiceStatusChangedEvent{Status: api.InvoicePaid,
			AuthNumber: "AUTH-7731", CheckNumber: "10442", Amount: &huge})},
	}
	for i, b := range bodies {
		// Each names a change that did happen (an NTE the customer set):
		// a notification of nothing new makes no event at all.
		if err := o.sb.SetNte(id, decimal.NewFromInt(int64(700+i))); err != nil {
			t.Fatal(err)
		}
		if status := notifyWith(t, nil, a.srv.URL, b.tok, b.body, ""); status != http.StatusOK {
			t.Fatalf("a notification under a token the service signed: HTTP %d, want 200", status)
		}
		var sent api.Event
		json.Unmarshal(b.body, &sent)
		_, raw := waitEvent(t, stream, func(he HubEvent, _ sseEvent) bool { return he.Header.WorkOrderId == id })
		waitHeard(t, boHears, id, sent.Header.Action, 10*time.Second)
		for _, leaked := range []string{"Ben Okafor", "CorrigoPro", `"Status"`, `"Quote"`, `"PerformedBy"`, `"Sender"`} {
			if strings.Contains(raw.Data, leaked) && !strings.Contains(truthJSON(t, truth), leaked) {
				t.Errorf("%s: the stream carries %s from the forged body: %s", sent.Header.Action, leaked, raw.Data)
			}
		}
		var top map[string]json.RawMessage
		json.Unmarshal([]byte(raw.Data), &top)
		for k := range top {
			if k != "Header" && k != "Reread" && k != "Notification" {
				t.Errorf("%s: the stream carries %q from the body", sent.Header.Action, k)
			}
		}
		var he HubEvent
		json.Unmarshal([]byte(raw.Data), &he)
		if he.PerformedBy.Name != "" || he.Header.Sender != nil || he.Reread == nil || he.Reread.WorkOrder == nil {
			t.Errorf("%s: event %s, want no one named and the work order re-read", sent.Header.Action, raw.Data)
		}
		if he.Reread != nil && strings.Contains(string(he.Reread.WorkOrder), "987654") || (he.Notification != nil && sent.Header.Action != api.ActionInvoiceStatusChanged &&
			bytes.Contains(he.Notification.Amount, []byte("987654"))) {
			t.Errorf("%s: the forged amount reached the stream outside an invoice's notification: %s", sent.Header.Action, raw.Data)
		}
		if sent.Header.Action == api.ActionInvoiceStatusChanged && he.Notification != nil && he.Notification.AuthNumber != "" {
			// The service's invoice is not Paid: the facts of a Paid one
			// are not borne out (TestSecurityNotificationFactsAreBounded
			// shows those of one that is).
			t.Errorf("the facts of a Paid invoice the service does not have reached the stream: %+v", he.Notification)
		}
	}
	if truth, err = svc.GetWorkOrder(ctx, id); err != nil {
		t.Fatal(err)
	}
	wo, err := bo.Store.WorkOrder(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if wo.Status != truth.Status || !wo.Nte.Amount.Amount.Equal(truth.Nte.Amount.Amount) ||
		(wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteApproved) {
		t.Errorf("Bo's replica after the forged notifications: %s, NTE %s, quote %+v; the service says %s, NTE %s",
			wo.Status, wo.Nte.Amount.Amount, wo.Nte.Quote, truth.Status, truth.Nte.Amount.Amount)
	}
	if inv, err := bo.Store.Invoice(ctx, id); err == nil && inv.Status == api.InvoicePaid {
		t.Errorf("Bo's replica holds the invoice as Paid, as the forged notification said")
	}
	evs, err := bo.Store.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.PerformedBy != "" {
			t.Errorf("Bo's event log names %q for the customer's %s", ev.PerformedBy, ev.Header.Action)
		}
	}
}

// truthJSON is the work order as the service holds it, as JSON: what the
// stream may carry.
func truthJSON(t *testing.T, wo *api.WorkOrder) string {
	b := wo.RawJSON()
	if b == nil {
		b, _ = json.Marshal(wo)
	}
	return string(b)
}

// With --notify-from set to the service's documented range and the
// office's proxy trusted, a notification is taken only when the address
// the proxy saw (the rightmost of X-Forwarded-For not itself a trusted
// proxy) is in the range; what a client writes to the left of it, and the
// header of anyone else, is not believed. Each refusal is in the security
// log with the client's address and why.
func TestSecurityNotifyFromTheDocumentedRangeOnly(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	logs := &logBuffer{}
	a := o.start(func(opts *Options) {
		opts.NotifyFrom = []netip.Prefix{api.NotificationSourceRange}
		opts.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		opts.Logger = logs.logger()
	})
	id := newWorkOrder(t, o)
	tok := notificationToken(t, o)
	body := func() []byte {
		b, _ := api.MarshalEvent(api.EventHeader{WorkOrderId: id, Action: api.ActionNteChanged, ActionDate: time.Now().UTC(), MessageId: uuid.NewString()},
			&api.NteChangedEvent{Amount: api.Money{Amount: decimal.NewFromInt(500)}})
		return b
	}
	for _, c := range []struct {
		xff  string
		want int
	}{
		{"", http.StatusForbidden},                                        // the proxy itself
		{"130.250.135.130", http.StatusOK},                                // the service, as the proxy saw it
		{"203.0.113.9, 130.250.135.200", http.StatusOK},                   // whatever the service's side wrote before
		{"130.250.135.130, 203.0.113.9", http.StatusForbidden},            // a client claiming the range
		{"130.250.135.130, 203.0.113.9, 127.0.0.1", http.StatusForbidden}, // through two trusted hops
		{"not an address", http.StatusForbidden},
	} {
		if got := notifyWith(t, nil, a.srv.URL, tok, body(), c.xff); got != c.want {
			t.Errorf("a notification forwarded for %q: HTTP %d, want %d", c.xff, got, c.want)
		}
	}
	// Nobody else's X-Forwarded-For is read.
	b := o.start(func(opts *Options) { opts.NotifyFrom = []netip.Prefix{api.NotificationSourceRange} })
	if got := notifyWith(t, nil, b.srv.URL, tok, body(), "130.250.135.130"); got != http.StatusForbidden {
		t.Errorf("a direct client claiming the range in X-Forwarded-For: HTTP %d, want 403", got)
	}
	a.hub.sec.flush()
	lines := logs.security(t, secNotificationRefused)
	if !anyClient(lines, "203.0.113.9") {
		t.Errorf("the security log's refused notifications: %v, want one from 203.0.113.9", lines)
	}
	if strings.Contains(logs.String(), tok) {
		t.Error("the security log holds a notification's token")
	}
}

func anyClient(lines []map[string]any, addr string) bool {
	for _, l := range lines {
		if l["client"] == addr {
			return true
		}
	}
	return false
}
