package summary

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestEveryKnownFieldIsShownUnderItsHeading: a work order with every
// field the service gives reads, under Job sheet…, section by section:
// what it is, its service level, contact, site, IVR check-in, how far its
// procedures are and its equipment; a field the service left empty is not
// shown, nor a section with none.
func TestEveryKnownFieldIsShownUnderItsHeading(t *testing.T) {
	f := newFake(t)
	at := func(h int) *time.Time { t := fixedNow.Add(time.Duration(h) * time.Hour); return &t }
	f.wo = &api.WorkOrder{WorkOrderId: 7, WorkOrderNumber: "NWR7", Status: api.StatusAccepted, Currency: "USD",
		AccompanyingMessage: "Walk-in cooler not holding temperature.",
		Type:                "Repair", WorkType: &api.WorkType{Name: "HVAC"},
		Created: fixedNow.Add(-48 * time.Hour), LastUpdate: fixedNow.Add(-2 * time.Hour),
		Nte: api.Nte{Amount: api.MustMoney("1000.00", "USD")}, IsPreBilled: true,
		Sla:      &api.Sla{PriorityName: "HIGH", IsEmergency: true, AcknowledgeBy: at(-24), OnSiteBy: at(3), DueDate: at(51)},
		Schedule: &api.Schedule{ScheduledStart: at(2), Pte: "CallFirst"},
		Contact:  &api.Contact{FullName: "Dana Whitfield", Phones: []string{"555-0101", "555-0102"}, Emails: []string{"dana@example.com"}},
		ServiceLocation: &api.ServiceLocation{SpaceName: "Northwind Dock 4",
			Address: &api.Address{Street1: "12 Harbour Road", City: "Seattle", State: "WA", PostalCode: "98101", Country: "US"}},
		IvrInfo: &api.IvrInfo{PhoneNumber: "800-555-0199", Pin: "4471"},
		WorkDetails: &api.WorkDetails{
			Procedures: []api.Procedure{{Name: "Refrigeration checklist", Steps: []api.Step{{Status: api.StepDone}, {Status: api.StepNA}, {Status: api.StepOpen}}}},
			Assets:     []api.Asset{{AssetName: "Walk-in cooler", Path: "Back of house", Task: "Repair"}, {Path: "Roof"}},
		},
	}
	f.show()
	want := []string{
		"Description", "Walk-in cooler not holding temperature.",
		"Work order",
		"Status: Accepted: check in when on site",
		"Type: Repair · HVAC",
		"Created: Wed 18 Nov 2026 09:00",
		"Last update: Fri 20 Nov 2026 07:00",
		"Currency: USD",
		"NTE: $1,000.00 (the most you may invoice without a quote)",
		"Pre-billed: Yes",
		"Service level",
		"Priority: High · emergency",
		"Acknowledge by: Thu 19 Nov 2026 09:00",
		"On site by: Fri 20 Nov 2026 12:00  (in 3 h 00 min)",
		"Due: Sun 22 Nov 2026 12:00  (in 2 days)",
		"Scheduled start: Fri 20 Nov 2026 11:00 (Call first)",
		"Contact",
		"Name: Dana Whitfield",
		"Phone: 555-0101, 555-0102",
		"Email: dana@example.com",
		"Location",
		"Site: Northwind Dock 4",
		"Address: 12 Harbour Road\nSeattle WA 98101\nUS",
		"IVR check-in",
		"Phone: 800-555-0199",
		"PIN: 4471",
		"Procedures",
		"Refrigeration checklist: 2 of 3 steps done (1 N/A)",
		"Equipment",
		"Walk-in cooler: Back of house · Repair",
		"—: Roof",
	}
	if got := f.fields(); !slices.Equal(got, want) {
		t.Errorf("the Summary reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A work order with little known shows little, and no empty sections.
	f.wo = &api.WorkOrder{WorkOrderId: 8, WorkOrderNumber: "NWR8", Status: api.StatusNew, Currency: "USD"}
	f.show()
	want = []string{"Description", "—", "Work order",
		"Status: New: accept or reject it before the acknowledge-by time",
		"Created: —", "Last update: —", "Currency: USD",
		"NTE: no limit (the customer set no maximum)"}
	if got := f.fields(); !slices.Equal(got, want) {
		t.Errorf("a bare work order's Summary reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJobSheetHeadsTheSummary: Job sheet… is the first thing on the tab,
// and asks the window for the job sheet of the work order shown.
func TestJobSheetHeadsTheSummary(t *testing.T) {
	f := newFake(t)
	f.show()
	f.wo = &api.WorkOrder{WorkOrderId: 8, WorkOrderNumber: "NWR8", Status: api.StatusCheckedIn, Currency: "USD"}
	f.show()
	var first *widget.Button
	if row, ok := f.tab.box.Objects[0].(*fyne.Container); ok {
		for _, o := range row.Objects {
			if b, ok := o.(*widget.Button); ok {
				first = b
			}
		}
	}
	if first == nil || first.Text != "Job sheet…" {
		t.Fatal("the Summary is not headed by Job sheet…")
	}
	test.Tap(first)
	if !slices.Equal(f.jobSheets, []int64{8}) {
		t.Fatalf("Job sheet… asked for the job sheets of %v, want the work order shown (8)", f.jobSheets)
	}
}

// TestTheStatusSaysWhatComesNext: the status says what it means for the
// person now; once the invoice has left the draft (the work order stays
// Checked out at the service meanwhile), the invoice says what comes next.
func TestTheStatusSaysWhatComesNext(t *testing.T) {
	paid := time.Date(2026, 11, 18, 14, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name    string
		status  api.WorkOrderStatus
		invoice *api.Invoice
		want    string
	}{
		{"checked in", api.StatusCheckedIn, nil, "Checked in: technician on site"},
		{"checked out, draft invoice", api.StatusCheckedOut, &api.Invoice{Status: api.InvoiceDraft}, "Checked out: work done; submit the invoice"},
		{"invoice submitted", api.StatusCheckedOut, &api.Invoice{Status: api.InvoiceSubmitted}, "Checked out · Invoice submitted — "},
		{"invoice disputed", api.StatusCheckedOut, &api.Invoice{Status: api.InvoiceDisputed, Comment: "Labour hours too high"},
			"Checked out · Invoice disputed: fix and resubmit. The customer says: Labour hours too high"},
		{"invoice paid", api.StatusVerified, &api.Invoice{Status: api.InvoicePaid, PaidDate: &paid}, "Verified · Invoice paid on Wed 18 Nov 2026 14:30 — "},
		{"authorized", api.StatusCheckedOut, &api.Invoice{Status: api.InvoiceAuthorized, AuthNumber: "A-77"}, "(authorization A-77)"},
		{"recalled", api.StatusRecalled, &api.Invoice{Status: api.InvoiceSubmitted}, "Recalled: the customer recalled it; stop work"},
	} {
		f := newFake(t)
		f.wo.Status = c.status
		if c.invoice != nil {
			f.invoices[7] = c.invoice
		}
		f.show()
		if got := f.field("Status"); !strings.Contains(got, c.want) {
			t.Errorf("%s: the status reads %q, want %q", c.name, got, c.want)
		}
	}
}

// TestARejectedWorkOrderSaysWhy: the reason is the customer's
// notification's, else the one we gave with our rejection; none, and no
// line says so.
func TestARejectedWorkOrderSaysWhy(t *testing.T) {
	ours := storage.OutboxRow{Id: 1, Status: api.StatusRejected, Comment: "No crew free this week"}
	theirs := storage.EventRecord{Event: api.Event{Body: &api.RejectedEvent{Status: api.StatusRejected, Comment: "Rejected by the customer's desk"}}}
	for _, c := range []struct {
		name   string
		events []storage.EventRecord
		rows   []storage.OutboxRow
		want   string
	}{
		{"notified", []storage.EventRecord{theirs}, []storage.OutboxRow{ours}, "Rejected by the customer's desk"},
		{"ours only", nil, []storage.OutboxRow{ours}, "No crew free this week"},
		{"no reason known", nil, nil, ""},
	} {
		f := newFake(t)
		f.wo.Status = api.StatusRejected
		f.events[7], f.rows[7] = c.events, c.rows
		f.show()
		if got := f.field("Rejected because"); got != c.want {
			t.Errorf("%s: the Summary gives the reason %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDeadlinesPastTheirStageAreNotOverdue: a deadline the work order
// still has ahead says how late it is; one whose stage is behind it is
// history, never "late".
func TestDeadlinesPastTheirStageAreNotOverdue(t *testing.T) {
	past := fixedNow.Add(-72 * time.Hour)
	sla := &api.Sla{AcknowledgeBy: &past}
	if got := stageDeadline(sla, api.AcknowledgeBy, api.StatusNew); !strings.Contains(got, "late") {
		t.Errorf("a New work order past its acknowledge-by reads %q, want late", got)
	}
	if got := stageDeadline(sla, api.AcknowledgeBy, api.StatusCheckedOut); strings.Contains(got, "late") {
		t.Errorf("a checked-out work order's acknowledge-by reads %q: it was met long ago", got)
	}
}
