package summary

import (
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
)

// invoiceNextStep says, for a person, what the invoice's status means for
// them next; "" while it is a draft (or unknown), when the work order's own
// status says what to do. Its wording comes from format.InvoiceWaits, as the
// Invoice tab's does.
func invoiceNextStep(inv *api.Invoice) string {
	if inv == nil {
		return ""
	}
	if inv.Status == api.InvoiceDisputed {
		s := "Invoice disputed: fix and resubmit"
		if r := strings.TrimSpace(inv.Comment); r != "" {
			s += ". The customer says: " + r
		}
		return s
	}
	waits := format.InvoiceWaits(inv.Status)
	if waits == "" {
		return ""
	}
	s := "Invoice " + strings.ToLower(format.Status(inv.Status))
	if inv.Status == api.InvoicePaid && inv.PaidDate != nil && !inv.PaidDate.IsZero() {
		s += " on " + format.Time(*inv.PaidDate)
	}
	s += " — " + waits
	if inv.Status == api.InvoiceAuthorized && inv.AuthNumber != "" {
		s += " (authorization " + inv.AuthNumber + ")"
	}
	return s
}
