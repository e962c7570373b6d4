package hub

import (
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/outbox"
)

// writeRoute is a write the hub forwards: the service call of one kind of
// the outbox's action table (outbox.WriteRoutes: its route, its kind,
// whose landed check settles a write in doubt, and the hub event a
// colleague's doing it becomes), and what of the work order that event
// carries re-read besides its record.
type writeRoute struct {
	outbox.WriteRoute
	Reread rereadParts
}

// rereadParts are the parts of a work order an event carries as re-read.
type rereadParts uint8

const (
	rereadMessages rereadParts = 1 << iota
	rereadAttachments
	rereadInvoice
	rereadInvoiceAttachments
	rereadNotes
	rereadProcedures
)

// partsOf are the parts of the work order the hub re-reads into the event
// of a write that changes parts (the action table's Rereads).
func partsOf(p outbox.Parts) rereadParts {
	var out rereadParts
	for _, m := range []struct {
		of   outbox.Parts
		part rereadParts
	}{
		{outbox.Messages, rereadMessages}, {outbox.Attachments, rereadAttachments}, {outbox.Invoice, rereadInvoice},
		{outbox.InvoiceAttachments, rereadInvoiceAttachments}, {outbox.Note, rereadNotes},
	} {
		if p.Has(m.of) {
			out |= m.part
		}
	}
	return out
}

// writeRoutes indexes the action table's routes by method and route.
var writeRoutes = func() map[readRoute]writeRoute {
	m := map[readRoute]writeRoute{}
	for _, w := range outbox.WriteRoutes() {
		m[readRoute{w.Method, serve.Route(w.Path)}] = writeRoute{WriteRoute: w, Reread: partsOf(w.Rereads)}
	}
	return m
}()

// writeRouteOf is the write a method and route (serve.Route) name, if the
// hub forwards it.
func writeRouteOf(method, route string) (writeRoute, bool) {
	w, ok := writeRoutes[readRoute{method, route}]
	return w, ok
}
