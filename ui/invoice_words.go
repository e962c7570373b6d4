package ui

import (
	"context"
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

// storedInvoice is the replica's copy of the work order's invoice; nil when
// it was never fetched.
func (d *Desk) storedInvoice(woID int64) *api.Invoice {
	inv, err := d.store.Invoice(context.Background(), woID)
	if err != nil {
		return nil
	}
	return inv
}
