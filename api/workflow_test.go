package api

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// A status the service may add later must never lock a feature: the
// service judges it.
func TestUnknownStatusLocksNothing(t *testing.T) {
	t.Parallel()
	wo := &WorkOrder{WorkOrderId: 7, WorkOrderNumber: "SMJ1", Status: "AwaitingParts"}
	for _, a := range Actions {
		if err := wo.Can(a); err != nil {
			t.Errorf("%s in an unknown status: %v", a, err)
		}
	}
	wo.WorkDetails = &WorkDetails{Procedures: []Procedure{{Id: 1, Name: "Filters", Steps: []Step{{Id: 2}}}}}
	if err := wo.CanChangeStep(AddStepAttachment, StepRef{WorkOrderId: 7, ProcedureId: 1, StepId: 2}); err != nil {
		t.Errorf("step attachment in an unknown status: %v", err)
	}
}

// Refusals are sentences for a person: the status in words, never the
// service's identifier, and what to do instead.
func TestRefusalsSpeakPlainly(t *testing.T) {
	t.Parallel()
	wo := &WorkOrder{WorkOrderNumber: "SMJ73264", Status: StatusCheckedIn}
	err := wo.Can(CheckIn)
	if err == nil || err.Error() != "SMJ73264 is checked in already: pause it or check out first" {
		t.Fatalf("check in while checked in: %v", err)
	}
	for _, st := range AllStatuses {
		wo.Status = st
		for _, a := range Actions {
			err := wo.Can(a)
			if err == nil {
				continue
			}
			for _, raw := range []string{"CheckedIn", "CheckedOut", "OnHold", "NeedsCompletionDetails"} {
				if strings.Contains(err.Error(), raw) {
					t.Errorf("%s/%s: %q names the status %s", st, a, err, raw)
				}
			}
		}
	}
	wo.Status = StatusPaused
	if err := wo.Can(CheckOut); err == nil || !strings.Contains(err.Error(), "check in again") {
		t.Errorf("check out while paused: %v", err)
	}
}

func TestCheckTextIsTheOneLimit(t *testing.T) {
	t.Parallel()
	if err := CheckText("reason", "  ", true); err == nil || err.Error() != "a reason is required" {
		t.Errorf("blank required reason: %v", err)
	}
	if err := CheckText("comment", strings.Repeat("é", MaxCommentLength), false); err != nil {
		t.Errorf("%d characters (more bytes) refused: %v", MaxCommentLength, err)
	}
	if err := CheckText("comment", strings.Repeat("a", MaxCommentLength+1), false); err == nil {
		t.Error("a comment over the limit was accepted")
	}
}

func TestSubmitChecksNeedNumberAndDate(t *testing.T) {
	t.Parallel()
	wo := &WorkOrder{WorkOrderNumber: "RHO1", Status: StatusCheckedOut, Currency: "EUR", Created: Version41Date.AddDate(1, 0, 0)}
	inv := &Invoice{Status: InvoiceDraft, LineItems: []LineItem{{Description: "Labour", Type: LineLabor, Quantity: decimal.NewFromInt(1),
		Rate: Money{Amount: decimal.NewFromInt(10), Currency: "EUR"}}}}
	err := wo.CheckSubmit(inv, nil)
	if err == nil || !strings.Contains(err.Error(), "enter the invoice number") || !strings.Contains(err.Error(), "pick the invoice date") {
		t.Fatalf("an invoice with no number or date: %v", err)
	}
}
