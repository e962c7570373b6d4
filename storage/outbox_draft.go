package storage

import (
	"encoding/json"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Draft is what the person entered for an action, read back from its
// stored request so that a refused action can be put back into its form,
// corrected and queued again (see Replacing). The window never decodes a
// request itself.
type Draft struct {
	// Text is a message, a rejection reason, a quote's reason or a visit's comment.
	Text       string
	Visibility api.MessageVisibility // a message's
	Amount     api.Money             // a quote's
	Lines      []api.LineItem        // a quote's
	// Invoice is a saved invoice's content; nil for a submission, which
	// carries none (it submits the invoice as saved).
	Invoice *api.Invoice
	// At is what a visit was back-dated to (nil: it was recorded as
	// happening when sent), or an appointment's scheduled start.
	At *time.Time
	// Completion is a check-out's repair code and answers to the
	// customer's questions.
	Completion api.Completion
	// Pte is an appointment's access type ("" = none given).
	Pte string
}

// Draft reads what the person entered for the row's action, its amounts
// in currency (the work order's: the stored request carries none); false
// for actions with nothing to correct (accepting, bulk actions, files) or a
// request this build cannot read.
func (r OutboxRow) Draft(currency string) (*Draft, bool) {
	d := &Draft{}
	var err error
	switch r.Kind {
	case KindReject:
		var q api.RejectRequest
		err = json.Unmarshal(r.Request, &q)
		d.Text = q.Comment
	case KindMessage:
		var q api.MessageRequest
		err = json.Unmarshal(r.Request, &q)
		d.Text, d.Visibility = q.Text, q.MessageVisibility
	case KindQuote:
		var q api.QuoteRequest
		err = json.Unmarshal(r.Request, &q)
		d.Text, d.Amount, d.Lines = q.Comment, q.Amount.In(currency), q.LineItems
		for i := range d.Lines {
			d.Lines[i].Rate = d.Lines[i].Rate.In(currency)
			d.Lines[i].Subtotal = d.Lines[i].Subtotal.In(currency)
		}
	case KindAppointment:
		var q api.AppointmentRequest
		err = json.Unmarshal(r.Request, &q)
		start := q.ScheduledStart.UTC()
		d.At, d.Pte = &start, q.Pte
	case KindCheckIn, KindPause, KindCheckOut:
		var p visitPayload
		err = json.Unmarshal(r.Request, &p)
		d.Text = p.Comment
		d.Completion = api.Completion{RepairInfo: p.RepairInfo, CustomFields: p.CustomFields}
		if _, back := p.timing(); back != nil {
			at := back.UTC()
			d.At = &at
		}
	case KindInvoiceSave:
		var q api.SaveInvoiceRequest
		err = json.Unmarshal(r.Request, &q)
		q.Invoice.Currency = currency
		q.Invoice.StampCurrency()
		d.Invoice = &q.Invoice
	case KindInvoiceSubmit:
	default:
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	return d, true
}

// Correctable reports whether the row's action has content to put back
// into a form (see Draft).
func (r OutboxRow) Correctable() bool {
	_, ok := r.Draft("")
	return ok && len(r.WorkOrderIds) == 1
}
