package quote

import (
	"context"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// A quote has one Comment at the service. When the customer rejects it,
// their remark takes the place of our reason there (as far as the
// notification shows), so the Quote tab labels each: the customer's
// reason, from their QuoteChanged notification, and ours, from the quote
// we sent. Shown unlabelled where ours had been, the customer's words read
// as our own.

// rejectionReasons words, for a rejected quote, the customer's reason and
// ours, each labelled; lines that are not known are left out.
func (t *Tab) rejectionReasons(wo *api.WorkOrder, q *api.Quote) string {
	ours := t.ourQuoteReason(wo.WorkOrderId)
	theirs, told := t.customerRejection(wo.WorkOrderId)
	comment := strings.TrimSpace(q.Comment)
	var lines []string
	switch {
	case told && theirs != "" && theirs != ours:
		lines = append(lines, "The customer's reason for rejecting it: "+format.Sentence(theirs))
	case told:
		lines = append(lines, "The customer gave no reason for rejecting it.")
	case ours != "" && comment != "" && comment != ours:
		lines = append(lines, "The customer's reason for rejecting it: "+format.Sentence(comment))
	case ours != "":
		lines = append(lines, "The customer gave no reason for rejecting it.")
	case comment != "":
		lines = append(lines, "Comment on the quote: "+format.Sentence(comment)) // whose, nothing here says
	}
	if ours != "" {
		lines = append(lines, "Our reason for the quote: "+format.Sentence(ours))
	}
	return strings.Join(lines, "\n")
}

// ourQuoteReason is the reason given with the newest quote sent from this
// window ("" when none was, or it cannot be read).
func (t *Tab) ourQuoteReason(woID int64) string {
	rows, err := t.replica.OutboxRows(context.Background(), woID)
	if err != nil {
		return ""
	}
	reason := ""
	var newest *storage.OutboxRow
	for i := range rows {
		r := &rows[i]
		if r.Group != outbox.GroupQuote || r.State != storage.OutboxDone {
			continue
		}
		if newest == nil || r.Created.After(newest.Created) || r.Created.Equal(newest.Created) && r.Id > newest.Id {
			if dr, ok := r.Draft(""); ok {
				newest, reason = r, strings.TrimSpace(dr.Text)
			}
		}
	}
	return reason
}

// customerRejection is the remark of the customer's newest notification
// rejecting the quote, and whether there is such a notification.
func (t *Tab) customerRejection(woID int64) (string, bool) {
	evs, err := t.replica.Events(context.Background(), woID)
	if err != nil {
		return "", false
	}
	for i := len(evs) - 1; i >= 0; i-- {
		var q *api.Quote
		switch b := evs[i].Body.(type) {
		case *api.QuoteChangedEvent:
			q = &b.Quote
		case api.QuoteChangedEvent:
			q = &b.Quote
		}
		if q != nil && q.QuoteStatus == api.QuoteRejected {
			return strings.TrimSpace(q.Comment), true
		}
	}
	return "", false
}
