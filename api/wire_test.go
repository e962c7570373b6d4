package api

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// wireDateTime is a date-time as the service writes them: UTC, a Z, and at
// most 7 fractional digits.
var wireDateTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?Z$`)

// TestWireDateTimesAreUTCWithAtMostSevenDigits sends requests holding times
// in another zone with nanoseconds, and checks every date-time on the wire.
func TestWireDateTimesAreUTCWithAtMostSevenDigits(t *testing.T) {
	t.Parallel()
	cet := time.FixedZone("CET", 3600)
	when := time.Date(2026, 11, 23, 10, 15, 30, 123456789, cet)
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	calls := map[string]func(ctx context.Context) error{
		"check in": func(ctx context.Context) error {
			return c.CheckIn(ctx, &VisitRequest{WorkOrderId: 1, ActualActionDate: &when})
		},
		"appointment": func(ctx context.Context) error {
			return c.UpdateAppointment(ctx, &AppointmentRequest{WorkOrderId: 1, ScheduledStart: when})
		},
		"search": func(ctx context.Context) error {
			_, err := c.SearchWorkOrders(ctx, SearchParameters{LastUpdate: &DateRange{From: &when, To: &when}})
			return err
		},
		"invoice": func(ctx context.Context) error {
			_, err := c.SaveInvoice(ctx, &SaveInvoiceRequest{WorkOrderId: 1, Invoice: Invoice{InvoiceDate: &when, SubmissionDeadline: &when}})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			fs.answerJSON(200, `{"MessageId":"x"}`)
			if err := call(bg); err != nil {
				t.Fatal(err)
			}
			body := string(fs.lastCall(t).Body)
			found := regexp.MustCompile(`"(\d{4}-[^"]*)"`).FindAllStringSubmatch(body, -1)
			if len(found) == 0 {
				t.Fatalf("no date-time in %s", body)
			}
			for _, m := range found {
				if !wireDateTime.MatchString(m[1]) {
					t.Errorf("date-time %q on the wire; want UTC with Z and at most 7 fractional digits", m[1])
				}
				if got, _ := time.Parse(time.RFC3339Nano, m[1]); !got.Equal(when.Truncate(100 * time.Nanosecond)) {
					t.Errorf("date-time %q is not the instant sent (%v)", m[1], when)
				}
			}
		})
	}
	if want := "2026-11-23T09:15:30.1234567Z"; !strings.Contains(string(fs.lastCall(t).Body), want) {
		t.Errorf("the last request does not carry %s: %s", want, fs.lastCall(t).Body)
	}
}

// TestQuantityIsAJSONNumber: a line's quantity goes out as a number, like
// every decimal property of the service, and reads back from either form.
func TestQuantityIsAJSONNumber(t *testing.T) {
	t.Parallel()
	l := LineItem{Type: LineLabor, Description: "Labour", Quantity: decimal.RequireFromString("1.25"), Rate: MustMoney("95.00", "USD")}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Quantity":1.25`) {
		t.Fatalf("line on the wire: %s", b)
	}
	var back LineItem
	for _, in := range []string{`{"Quantity":1.25}`, `{"Quantity":"1.25"}`} {
		if err := json.Unmarshal([]byte(in), &back); err != nil || !back.Quantity.Equal(l.Quantity) {
			t.Fatalf("%s read back as %v (%v)", in, back.Quantity, err)
		}
	}
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	fs.answerJSON(200, `{"MessageId":"x"}`)
	if _, err := c.SaveInvoice(bg, &SaveInvoiceRequest{WorkOrderId: 1, Invoice: Invoice{LineItems: []LineItem{l}}}); err != nil {
		t.Fatal(err)
	}
	if body := string(fs.lastCall(t).Body); !strings.Contains(body, `"Quantity":1.25`) {
		t.Fatalf("saved invoice on the wire: %s", body)
	}
}

// TestRealTimeVisitOmitsActualActionDate: a visit sent as it happens carries
// no ActualActionDate key at all (not even null), a back-dated one does.
func TestRealTimeVisitOmitsActualActionDate(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	fs.answerJSON(200, `{"MessageId":"x"}`)
	if err := c.CheckOut(bg, &CheckOutRequest{VisitRequest: VisitRequest{WorkOrderId: 1}}); err != nil {
		t.Fatal(err)
	}
	if body := string(fs.lastCall(t).Body); strings.Contains(body, "ActualActionDate") {
		t.Fatalf("a real-time check-out carries ActualActionDate: %s", body)
	}
}

func TestActualActionDateFor(t *testing.T) {
	t.Parallel()
	tap := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	chosen := tap.Add(-3 * time.Hour)
	tests := []struct {
		name      string
		backDated *time.Time
		sending   time.Time
		allows    bool
		want      *time.Time
	}{
		{"real time", nil, tap.Add(5 * time.Second), true, nil},
		{"real time, two minutes exactly", nil, tap.Add(LateDelivery), true, nil},
		{"late, customer allows back-dating", nil, tap.Add(LateDelivery + time.Second), true, &tap},
		{"late, customer forbids back-dating", nil, tap.Add(time.Hour), false, nil},
		{"back-dated by the person", &chosen, tap.Add(time.Second), true, &chosen},
		{"back-dated, sent late", &chosen, tap.Add(time.Hour), true, &chosen},
	}
	for _, tt := range tests {
		got := ActualActionDateFor(tap, tt.backDated, tt.sending, tt.allows)
		if (got == nil) != (tt.want == nil) || got != nil && !got.Equal(*tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestUnknownInvoiceStatusDoesNotLock(t *testing.T) {
	t.Parallel()
	// PendingVerification: not submitted yet (service-facts §15).
	for _, s := range []InvoiceStatus{"", InvoiceDraft, InvoiceDisputed, InvoicePendingVerification, "Returned", "Rejected"} {
		if !s.Editable() {
			t.Errorf("%q locks the invoice", s)
		}
	}
	for _, s := range []InvoiceStatus{InvoiceSubmitted, InvoiceAuthorized, InvoicePaid} {
		if s.Editable() {
			t.Errorf("%q lets the invoice be edited", s)
		}
	}
	err := &Error{StatusCode: 400, Code: CodeInvoiceNotEditable, Message: "Invoice is not editable."}
	if !strings.Contains(Explain(err), "in its current status") {
		t.Errorf("3036 explained as %q", Explain(err))
	}
	// Verification comes before submission: the words must not put it
	// after (an invoice "being verified" reads as one submitted).
	why := Explain(err)
	if strings.Contains(why, "being verified") || !strings.Contains(why, "verify the work, which comes before it can be submitted") {
		t.Errorf("3036 explained as %q; verification must read as before submission", why)
	}
}

// TestServiceStatusNamesReadAsWords: a refusal quoting a status by its raw
// name reads as a sentence; words that merely look alike stay.
func TestServiceStatusNamesReadAsWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Work order NWR1 is CheckedIn; check in is only possible when it is Accepted or Paused.": "Work order NWR1 is checked in; check in is only possible when it is Accepted or Paused.",
		"The invoice of work order X is PendingVerification and can no longer be edited.":        "The invoice of work order X is pending verification and can no longer be edited.",
		"Work order X is NeedsCompletionDetails.":                                                "Work order X is waiting for completion details.",
		"OnHold, CheckedOut": "on hold, checked out",
		"CheckedInAt is not a status; The customer's desk is closed": "CheckedInAt is not a status; The customer's desk is closed",
	} {
		if got := PlainStatusNames(in); got != want {
			t.Errorf("PlainStatusNames(%q) = %q, want %q", in, got, want)
		}
	}
}
