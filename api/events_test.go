package api

import (
	"testing"
	"time"
)

// The bodies below follow the documented notification samples (service-facts
// §9.2-9.3): header envelope, event properties at the top level. They are
// TestParseEventBodies' table and FuzzParseEvent's seeds.
const eventHeaderJSON = `"Header":{"WorkOrderId":42,"BranchId":7,"Sender":{"Name":"Facilities","Type":"Customer"},
	"ActionDate":"2018-09-04T10:12:08.1671613Z","ApiVersion":"1.1","MessageId":"m-1","Action":`

var eventCases = []struct {
	action string
	body   string
	check  func(t *testing.T, body any)
}{
	{ActionRejected, `"Status":"Rejected","Comment":"No capacity"`, func(t *testing.T, b any) {
		e := b.(*RejectedEvent)
		if e.Status != StatusRejected || e.Comment != "No capacity" {
			t.Errorf("rejected = %+v", e)
		}
	}},
	{ActionQuoteChanged, `"Quote":{"Amount":1250.5,"QuoteStatus":"Approved","Comment":"Compressor"}`, func(t *testing.T, b any) {
		e := b.(*QuoteChangedEvent)
		if e.Quote.QuoteStatus != QuoteApproved || e.Quote.Amount.Amount.String() != "1250.5" || e.Quote.Comment != "Compressor" {
			t.Errorf("quote = %+v", e.Quote)
		}
	}},
	{ActionNteChanged, `"Amount":800`, func(t *testing.T, b any) {
		if e := b.(*NteChangedEvent); e.Amount.Amount.String() != "800" {
			t.Errorf("NTE = %s", e.Amount.Amount)
		}
	}},
	{ActionInvoiceStatusChanged, `"Status":"Paid","CheckNumber":"CHK-991","PaidDate":"2024-03-01T00:00:00Z","Amount":412.75`, func(t *testing.T, b any) {
		e := b.(*InvoiceStatusChangedEvent)
		if e.Status != InvoicePaid || e.CheckNumber != "CHK-991" || e.Amount == nil || e.Amount.Amount.String() != "412.75" ||
			e.PaidDate == nil || !e.PaidDate.Equal(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("invoice status = %+v", e)
		}
	}},
	{ActionAppointmentInfoChanged, `"Appointment":{"ScheduledStart":"2024-05-02T13:30:00Z","Pte":"Appointment"}`, func(t *testing.T, b any) {
		e := b.(*AppointmentInfoChangedEvent)
		if e.Appointment.ScheduledStart == nil || !e.Appointment.ScheduledStart.Equal(time.Date(2024, 5, 2, 13, 30, 0, 0, time.UTC)) || e.Appointment.Pte != "Appointment" {
			t.Errorf("appointment = %+v", e.Appointment)
		}
	}},
	{ActionNewWorkOrder, `"Details":{"WorkOrderId":42,"WorkOrderNumber":"WN73243","Currency":"EUR","Nte":{"Amount":300}}`, func(t *testing.T, b any) {
		e := b.(*NewWorkOrderEvent)
		if e.Details.WorkOrderNumber != "WN73243" || e.Details.Nte.Amount.Format() != "€300.00" {
			t.Errorf("new work order = %s, NTE %s", e.Details.WorkOrderNumber, e.Details.Nte.Amount.Format())
		}
	}},
}

func TestParseEventBodies(t *testing.T) {
	t.Parallel()
	tests := eventCases
	header := eventHeaderJSON
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			ev, err := ParseEvent([]byte(`{` + header + `"` + tt.action + `"},` + tt.body + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Header.WorkOrderId != 42 || ev.Header.MessageId != "m-1" || ev.Header.Action != tt.action {
				t.Errorf("header = %+v", ev.Header)
			}
			if ev.Body == nil {
				t.Fatalf("%s decoded without a typed body", tt.action)
			}
			tt.check(t, ev.Body)
		})
	}
}
