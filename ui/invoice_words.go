package ui

import (
	"image/color"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// invoiceBadge is the header pill for where the work order's invoice stands
// once it has left the draft: the work order itself stays Checked out at the
// service while the customer verifies, authorizes, pays or disputes the
// invoice, so without it the header would not move on. "" (no pill) while
// the invoice is a draft or was never fetched.
func invoiceBadge(inv *api.Invoice) (string, color.Color) {
	if inv == nil || inv.Status == "" || inv.Status == api.InvoiceDraft {
		return "", nil
	}
	return "Invoice " + strings.ToLower(format.Status(inv.Status)), palette.Invoice(inv.Status) // "Invoice disputed", as "Checked out"
}

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
