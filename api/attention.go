package api

import "time"

// Attention is why a work order needs the office now, or NoAttention. The
// list's "Needs attention" filter keeps the work orders that have one and
// each row says which. The replica computes the same set in SQL and in its
// in-memory search index (storage); a storage test holds both to Of.
type Attention int

const (
	NoAttention Attention = iota
	// AttentionOverdue: the next deadline has passed.
	AttentionOverdue
	// AttentionRefused: the service refused an action of ours on it; it
	// waits to be corrected, retried or discarded.
	AttentionRefused
	// AttentionDueSoon: the next deadline is within AttentionWindow.
	AttentionDueSoon
	// AttentionQuoteRequested: the customer asked for a quote and the work
	// is not finished.
	AttentionQuoteRequested
	// AttentionInvoiceOverNte: the invoice, not yet settled, totals more
	// than the (non-zero) NTE: the customer may refuse it.
	AttentionInvoiceOverNte
)

// AttentionWindow is how close a deadline must be for a work order to need
// attention.
const AttentionWindow = 24 * time.Hour

// Word is the reason as a row of the list says it.
func (a Attention) Word() string {
	switch a {
	case AttentionOverdue:
		return "Overdue"
	case AttentionRefused:
		return "Action refused"
	case AttentionDueSoon:
		return "Due soon"
	case AttentionQuoteRequested:
		return "Quote requested"
	case AttentionInvoiceOverNte:
		return "Invoice over NTE"
	}
	return ""
}

// Deadline reports whether the reason is the next deadline: the list's
// deadline then says it by itself ("On site · 2 h late").
func (a Attention) Deadline() bool { return a == AttentionOverdue || a == AttentionDueSoon }

// AttentionFacts are what the rule looks at; the replica has them per row.
type AttentionFacts struct {
	Status      WorkOrderStatus
	QuoteStatus QuoteStatus
	// Deadline is the date of the status's NextDeadline (for InvoiceBy, the
	// invoice's while it can be submitted); zero when none.
	Deadline time.Time
	// Refused: one of our actions on it was refused by the service and is
	// still in the outbox.
	Refused bool
	// InvoiceOverNte: its invoice, neither authorized nor paid, totals more
	// than its non-zero NTE, in the same currency.
	InvoiceOverNte bool
}

// quoteAwaited lists the statuses in which a requested quote is ours to
// answer: the work is ahead, under way or checked out with the invoice
// still to come. A verified work order is finished (service-facts §7), and
// a closed one takes nothing (§4.1): a request left on them is history.
var quoteAwaited = map[WorkOrderStatus]bool{
	StatusNew: true, StatusAccepted: true, StatusCheckedIn: true, StatusPaused: true,
	StatusOnHold: true, StatusNeedsCompletionDetails: true, StatusCheckedOut: true,
}

// Of is the first reason, in the order above, why the work order needs
// attention at now. A rejected or recalled one needs none but a refusal of
// ours to clear. A status the service does not document is judged by its
// facts: unknown never hides work.
func (f AttentionFacts) Of(now time.Time) Attention {
	closed := f.Status == StatusRejected || f.Status == StatusRecalled
	switch {
	case !closed && !f.Deadline.IsZero() && f.Deadline.Before(now):
		return AttentionOverdue
	case f.Refused:
		return AttentionRefused
	case closed:
		return NoAttention
	case !f.Deadline.IsZero() && f.Deadline.Before(now.Add(AttentionWindow)):
		return AttentionDueSoon
	case f.QuoteStatus == QuoteRequested && (quoteAwaited[f.Status] || !f.Status.Known()):
		return AttentionQuoteRequested
	case f.InvoiceOverNte:
		return AttentionInvoiceOverNte
	}
	return NoAttention
}

// QuoteNotAwaited lists the documented statuses in which a requested quote
// needs no attention, for the replica's SQL (a status it does not list
// needs it: unknown never hides work).
func QuoteNotAwaited() []WorkOrderStatus {
	var out []WorkOrderStatus
	for _, s := range AllStatuses {
		if !quoteAwaited[s] {
			out = append(out, s)
		}
	}
	return out
}
