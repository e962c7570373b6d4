package format

import "github.com/workorderdesk/workdesk/api"

// ShortStatus fits a status into the list's status column.
func ShortStatus(s api.WorkOrderStatus) string {
	if s == api.StatusNeedsCompletionDetails {
		return "Needs details"
	}
	return Status(s)
}

// InvoiceWaits says what an invoice that has left the contractor's hands
// waits for; "" for a status the contractor acts on (draft, disputed) or
// one it does not know.
func InvoiceWaits(s api.InvoiceStatus) string {
	switch s {
	case api.InvoiceSubmitted:
		return "waiting for the customer to authorize it"
	case api.InvoicePendingVerification:
		return "waiting for the customer to verify the work"
	case api.InvoiceAuthorized:
		return "nothing more to do; payment follows"
	case api.InvoicePaid:
		return "nothing more to do"
	}
	return ""
}
