package hub

import (
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/storage"
)

// writeRoute is a write the hub forwards: the service call of one kind of
// the outbox's action table (storage.WriteRoutes: its route, its kind,
// whose landed check settles a write in doubt, and the hub event a
// colleague's doing it becomes), and what of the work order that event
// carries re-read besides its record.
type writeRoute struct {
	storage.WriteRoute
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
)

// groupParts is what a write of each group of the action table changes
// besides the work order's record: the part of it the group is about (a
// check-out or completion details reach the invoice).
var groupParts = map[storage.OutboxGroup]rereadParts{
	storage.GroupMessage: rereadMessages,
	storage.GroupFile:    rereadAttachments,
	storage.GroupInvoice: rereadInvoice | rereadInvoiceAttachments,
	storage.GroupVisit:   rereadInvoice,
	storage.GroupNote:    rereadNotes,
}

// writeRoutes indexes the action table's routes by method and route.
var writeRoutes = func() map[readRoute]writeRoute {
	m := map[readRoute]writeRoute{}
	for _, w := range storage.WriteRoutes() {
		m[readRoute{w.Method, serve.Route(w.Path)}] = writeRoute{WriteRoute: w, Reread: groupParts[w.Group]}
	}
	return m
}()

// writeRouteOf is the write a method and route (serve.Route) name, if the
// hub forwards it.
func writeRouteOf(method, route string) (writeRoute, bool) {
	w, ok := writeRoutes[readRoute{method, route}]
	return w, ok
}
