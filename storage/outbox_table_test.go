package storage

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestEveryKindHasItsWholeEntry holds each entry of the action table to
// what the window, the hub and the conformance test read of it: a kind
// registered without its noun, rule, route, hub event or wording would
// show a raw summary, escape the conformance test, or reach the hub as a
// write it cannot name.
func TestEveryKindHasItsWholeEntry(t *testing.T) {
	declared := outboxKindsDeclared(t)
	for _, k := range declared {
		if _, ok := actions[k]; !ok {
			t.Errorf("outbox kind %q is declared but has no entry in the action table", k)
		}
	}
	events := map[string]Colleague{}
	routes := map[Route]string{}
	for k, a := range actions {
		if !slices.Contains(declared, k) {
			t.Errorf("%q has an entry but is not declared as an OutboxKind constant in an outbox_<group>.go file", k)
		}
		if a.group == "" || a.send == nil {
			t.Errorf("%q: no group or no send", k)
		}
		if a.noun == "" {
			t.Errorf("%q: no noun: the header would fall back to its summary", k)
		}
		// The conformance test walks api.Actions: a rule outside it is a
		// rule the sandbox is never held to.
		if !slices.Contains(api.Actions, a.rule) {
			t.Errorf("%q: its rule %q is not among api.Actions, which the conformance test walks", k, a.rule)
		}
		if !slices.Contains([]string{http.MethodPut, http.MethodPost, http.MethodDelete}, a.route.Method) || !strings.HasPrefix(a.route.Path, "/api/") {
			t.Errorf("%q: route %q %q is not a service write", k, a.route.Method, a.route.Path)
		}
		if other, ok := routes[a.route]; ok && other != a.colleague.Event {
			t.Errorf("%s %s makes the hub event %q for one kind and %q for another", a.route.Method, a.route.Path, other, a.colleague.Event)
		}
		routes[a.route] = a.colleague.Event
		c := a.colleague
		if c.Event == "" || c.Verb == "" {
			t.Errorf("%q: no hub event or colleague verb: a colleague's doing it would read %q", k, "changed")
		}
		if seen, ok := events[c.Event]; ok && seen != c {
			t.Errorf("the hub event %q is worded two ways: %+v and %+v", c.Event, seen, c)
		}
		events[c.Event] = c
		for _, o := range a.conflicts {
			if _, ok := actions[o]; !ok {
				t.Errorf("%q conflicts with %q, which has no entry", k, o)
			}
		}
		if f := a.fix; f != nil && (f.form == NoForm || f.again == "" || f.draft == nil) {
			t.Errorf("%q: correctable but its form, what is done there or how its draft reads back is missing: %+v", k, *f)
		}
	}
}

// TestWriteRoutesNameEachWriteOnce: the hub forwards and names exactly
// these, so each route is listed once, with its event.
func TestWriteRoutesNameEachWriteOnce(t *testing.T) {
	got := WriteRoutes()
	seen := map[Route]bool{}
	for _, r := range got {
		if seen[r.Route] {
			t.Errorf("%s %s is listed twice", r.Method, r.Path)
		}
		seen[r.Route] = true
	}
	for k, a := range actions {
		if !slices.Contains(got, WriteRoute{Route: a.route, Event: a.colleague.Event, Kind: k, Group: a.group, Whom: a.colleague.Whom}) {
			t.Errorf("the route of %q (%s %s) is missing from WriteRoutes", k, a.route.Method, a.route.Path)
		}
	}
	want := WriteRoute{Route: Route{http.MethodPut, "/api/workOrder/pause"}, Event: "PausedByContractor", Kind: KindPause, Group: GroupVisit}
	if !slices.Contains(got, want) {
		t.Errorf("WriteRoutes lacks %+v", want)
	}
}

// notificationActions are the service's notification actions
// (service-facts §9.3), spelled as its pages spell them.
var notificationActions = []string{
	"NewWorkOrder", "Accepted", "Rejected", "CheckedIn", "Paused", "CheckedOut", "NeedsCompletionDetails",
	"PutOnHold", "Reopened", "Recalled", "WorkVerified", "NteChanged", "QuoteChanged", "SlaChanged",
	"AppointmentInfoChanged", "MessageSent", "AttachmentAdded", "AttachmentRemoved", "CheckListUpdated",
	"CheckListMigratedToProcedure", "ProcedureStepUpdated", "ProcedureMarked", "ProcedureUpdated",
	"CompletionInfoChanged", "InvoiceStatusChanged", "InternalNoteChanged", "AdditionalFieldDescriptorUpdated",
	"AdditionalFieldsDescriptorsUpdated", "IsmStatusChanged",
}

// TestHubEventsAreNoNotifications: the event the hub makes of a
// colleague's write never has the name of one of the service's
// notifications, so a desktop never takes one for the other.
func TestHubEventsAreNoNotifications(t *testing.T) {
	for _, r := range WriteRoutes() {
		if r.Event == "" || slices.Contains(notificationActions, r.Event) {
			t.Errorf("%s %s: the hub's event %q is empty or a notification's action", r.Method, r.Path, r.Event)
		}
	}
}
