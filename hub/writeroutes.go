package hub

import (
	"net/http"

	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/storage"
)

// writeRoute is a write the hub forwards: the service call of one kind of
// the outbox's action table, the event a colleague's doing it becomes, and
// what of the work order the event carries re-read besides its record.
//
// The routes and events belong to storage's action table (one entry per
// action); until its WriteRoutes accessor is on main, this small table
// stands in for it, one row per route, and writeRouteOf is the only way the
// hub reads it.
type writeRoute struct {
	Method, Path string
	Kind         storage.OutboxKind
	// Event is the action of the hub's own event for it: never one of the
	// service's notification actions (§9.3), so a desktop never takes a
	// colleague's write for the customer's notification or the reverse.
	Event string
	// Reread is what the event carries besides the work order's record.
	Reread rereadParts
}

// rereadParts are the parts of a work order an event carries as re-read.
type rereadParts uint8

const (
	rereadMessages rereadParts = 1 << iota
	rereadAttachments
	rereadInvoice
	rereadInvoiceAttachments
)

var writeTable = []writeRoute{
	{http.MethodPut, "/api/workOrder/accept", storage.KindAccept, "AcceptedByContractor", 0},
	{http.MethodPut, "/api/workOrder/reject", storage.KindReject, "RejectedByContractor", 0},
	{http.MethodPut, "/api/bulk/accept", storage.KindBulkAccept, "AcceptedByContractor", 0},
	{http.MethodPut, "/api/bulk/reject", storage.KindBulkReject, "RejectedByContractor", 0},
	{http.MethodPut, "/api/workOrder/appointmentInfo", storage.KindAppointment, "AppointmentSet", 0},
	{http.MethodPut, "/api/workOrder/checkIn", storage.KindCheckIn, "CheckedInByContractor", 0},
	{http.MethodPut, "/api/workOrder/pause", storage.KindPause, "PausedByContractor", 0},
	{http.MethodPut, "/api/workOrder/checkOut", storage.KindCheckOut, "CheckedOutByContractor", rereadInvoice},
	{http.MethodPut, "/api/workOrder/workDoneDetails", storage.KindWorkDoneDetails, "WorkDoneDetailsSent", rereadInvoice},
	{http.MethodPut, "/api/workOrder/quoteSubmit", storage.KindQuote, "QuoteSubmitted", 0},
	{http.MethodPost, "/api/messages", storage.KindMessage, "MessageSentByContractor", rereadMessages},
	{http.MethodPost, "/api/attachments", storage.KindAttachment, "AttachmentAddedByContractor", rereadAttachments},
	{http.MethodPut, "/api/invoice", storage.KindInvoiceSave, "InvoiceSaved", rereadInvoice},
	{http.MethodDelete, "/api/invoice", storage.KindInvoiceDelete, "InvoiceDeleted", rereadInvoice},
	{http.MethodPut, "/api/invoice/submit", storage.KindInvoiceSubmit, "InvoiceSubmitted", rereadInvoice},
	{http.MethodPost, "/api/invoice/attachments", storage.KindInvoiceAttachmentAdd, "InvoiceAttachmentAdded", rereadInvoiceAttachments},
	{http.MethodDelete, "/api/invoice/attachments", storage.KindInvoiceAttachmentRemove, "InvoiceAttachmentDeleted", rereadInvoiceAttachments},
	{http.MethodPost, "/api/procedure/step/attachments", storage.KindStepAttachmentAdd, "StepAttachmentAdded", 0},
	{http.MethodDelete, "/api/procedure/step/attachments", storage.KindStepAttachmentRemove, "StepAttachmentDeleted", 0},
}

// writeRoutes indexes writeTable by method and route.
var writeRoutes = func() map[readRoute]writeRoute {
	m := make(map[readRoute]writeRoute, len(writeTable))
	for _, w := range writeTable {
		m[readRoute{w.Method, serve.Route(w.Path)}] = w
	}
	return m
}()

// writeRouteOf is the write a method and route (serve.Route) name, if the
// hub forwards it.
func writeRouteOf(method, route string) (writeRoute, bool) {
	w, ok := writeRoutes[readRoute{method, route}]
	return w, ok
}
