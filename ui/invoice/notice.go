package invoice

import (
	"context"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// invoiceNoticeText says what the customer's latest invoice notification
// said, as it said it: "Paid Thu 3 Dec 2026, check 10442, $1,240.00". ""
// when none arrived.
func invoiceNoticeText(n *storage.InvoiceNotice, currency string) string {
	if n == nil {
		return ""
	}
	var parts []string
	switch {
	// Through the office hub the notification's status is not passed on
	// (only the facts no re-read has): a payment date says it was paid.
	case n.PaidDate != nil && (n.Status == api.InvoicePaid || n.Status == ""):
		parts = append(parts, "Paid "+format.Day(*n.PaidDate))
	case n.Status != "":
		parts = append(parts, format.Status(n.Status))
	}
	if n.AuthNumber != "" {
		parts = append(parts, "authorization "+n.AuthNumber)
	}
	if n.CheckNumber != "" {
		parts = append(parts, "check "+n.CheckNumber)
	}
	if n.Amount != nil {
		parts = append(parts, format.Money(n.Amount.In(currency)))
	}
	text := strings.Join(parts, ", ")
	switch {
	case n.Comment != "" && text == "":
		text = n.Comment
	case n.Comment != "":
		text += " — " + n.Comment
	case text == "":
		return "" // it said nothing the invoice does not show
	}
	return "The customer's notification: " + text
}

// notice is the open work order's latest invoice notification, in words.
func (t *Tab) notice() string {
	n, err := t.replica.InvoiceNotice(context.Background(), t.wo.WorkOrderId)
	if err != nil {
		return ""
	}
	return invoiceNoticeText(n, t.wo.Currency)
}
