package ui

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// shownNotes records what the window asks the desktop to show.
type shownNotes struct {
	mu   sync.Mutex
	sent []shownNote
}

type shownNote struct {
	title, body string
	replace     bool
}

func (s *shownNotes) Notify(title, body string, replace bool) {
	s.mu.Lock()
	s.sent = append(s.sent, shownNote{title, body, replace})
	s.mu.Unlock()
}

func (s *shownNotes) all() []shownNote {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]shownNote(nil), s.sent...)
}

// TestSeveralUpdatesInAMinuteBecomeOne: the customer changes three NTEs
// within a minute. The first shows alone; the next ones take its place as
// one notification, "3 updates from your customers", naming each; a
// minute later the next one shows alone again.
func TestSeveralUpdatesInAMinuteBecomeOne(t *testing.T) {
	notes := &shownNotes{}
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) { d.Notifier = notes }})
	rows := h.rowsWhere(4, func(r storage.Row) bool { return r.Status == api.StatusAccepted && r.Nte.Currency == "USD" })
	change := func(i int) {
		t.Helper()
		before := len(notes.all())
		if err := h.sb.SetNte(rows[i].Id, decimal.NewFromInt(int64(1000+i))); err != nil {
			t.Fatal(err)
		}
		h.waitFor("the notification", func() bool { return len(notes.all()) > before })
	}
	for i := range 3 {
		change(i)
	}
	got := notes.all()
	if len(got) != 3 || got[0].replace || got[0].title != "NTE changed: "+rows[0].Number {
		t.Fatalf("the first update did not show alone: %+v", got)
	}
	last := got[2]
	if !last.replace || last.title != "3 updates from your customers" {
		t.Fatalf("three updates in a minute show as %+v, want one notification in place of the last", last)
	}
	for i := range 3 {
		if !strings.Contains(last.body, "NTE changed on "+rows[i].Number+".") {
			t.Errorf("the grouped notification does not name %s: %q", rows[i].Number, last.body)
		}
	}

	setNow(t, fixedNow.Add(61*time.Second))
	change(3)
	if got := notes.all(); got[3].replace || got[3].title != "NTE changed: "+rows[3].Number {
		t.Fatalf("a minute later the next update did not show alone: %+v", got[3])
	}
}

// TestNotificationsAreWordedAlike: every title reads "<what> <happened>:
// <number>" with one capital ("Invoice authorized: NWR73267"), and every
// body is a sentence.
func TestNotificationsAreWordedAlike(t *testing.T) {
	amount := api.MustMoney("1200", "USD")
	events := []any{
		&api.QuoteChangedEvent{Quote: api.Quote{QuoteStatus: api.QuoteApproved, Amount: amount}},
		&api.QuoteChangedEvent{Quote: api.Quote{QuoteStatus: api.QuoteRejected, Amount: amount, Comment: "too dear"}},
		&api.QuoteChangedEvent{Quote: api.Quote{QuoteStatus: api.QuoteRejected, Amount: amount}},
		&api.QuoteChangedEvent{Quote: api.Quote{QuoteStatus: api.QuoteRequested}},
		&api.NteChangedEvent{Amount: amount},
		&api.NewWorkOrderEvent{Details: api.WorkOrder{WorkOrderNumber: "NWR73300", Customer: api.Customer{Name: "Northwind Retail"}, AccompanyingMessage: "freezer warm"}},
	}
	for _, s := range []api.InvoiceStatus{api.InvoiceAuthorized, api.InvoicePaid, api.InvoiceDisputed, api.InvoicePendingVerification, api.InvoiceSubmitted} {
		events = append(events, &api.InvoiceStatusChangedEvent{Status: s, AuthNumber: "A-17", Comment: "see note"})
	}
	title := regexp.MustCompile(`^[A-Z][A-Za-z]* [a-z ]+: NWR\d{5}$`)
	wo := &api.WorkOrder{WorkOrderNumber: "NWR73267", Currency: "USD"}
	for _, body := range events {
		tt, b := notificationFor(api.Event{Body: body}, wo)
		if !title.MatchString(tt) && !strings.HasPrefix(tt, "NTE changed: ") {
			t.Errorf("%T: title %q", body, tt)
		}
		if r := []rune(b); len(r) == 0 || !unicode.IsUpper(r[0]) || !strings.HasSuffix(b, ".") {
			t.Errorf("%T: body %q is not a sentence", body, b)
		}
	}
	if tt, b := notificationFor(api.Event{Body: &api.InvoiceStatusChangedEvent{Status: api.InvoiceAuthorized, AuthNumber: "A-17"}}, wo); tt != "Invoice authorized: NWR73267" || b != "The customer authorized the invoice. Authorization A-17." {
		t.Errorf("an authorized invoice: %q, %q", tt, b)
	}
	// Through the office hub a new work order's event carries no body of
	// the customer's: it is named from the replica, never with a dash.
	arrived := &api.WorkOrder{WorkOrderNumber: "KFU73227", Customer: api.Customer{Name: "Sakura Mart"}, AccompanyingMessage: "Door sticks"}
	if tt, b := notificationFor(api.Event{Header: api.EventHeader{WorkOrderId: 9}, Body: &api.NewWorkOrderEvent{}}, arrived); tt != "New work order: KFU73227" || b != "Sakura Mart sent a new work order. Door sticks." {
		t.Errorf("a new work order heard through the hub: %q, %q", tt, b)
	}
	if tt, b := notificationFor(api.Event{Header: api.EventHeader{WorkOrderId: 9}, Body: &api.NewWorkOrderEvent{}}, nil); tt != "New work order: work order 9" || strings.Contains(b, "—") {
		t.Errorf("a new work order the replica lacks: %q, %q", tt, b)
	}
}
