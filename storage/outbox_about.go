package storage

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// What the window and the office hub read of the action table. Each kind's
// entry (in its group's file) holds the data; these accessors are the only
// way other packages see it, so they keep no per-kind maps of their own.

// Route is a service call: its HTTP method and path, spelled as the client
// sends it (the service matches paths case-insensitively).
type Route struct {
	Method string // http.MethodPut, ...
	Path   string // "/api/workOrder/checkIn"
}

// Colleague is the event the office hub makes of an action forwarded
// through it, and how the window tells a colleague's doing it. Actions
// that make the same event share one Colleague.
type Colleague struct {
	// Event is the hub event's action: "CheckedIn".
	Event string
	// Verb says what they did: "checked in" ("Ben Okafor checked in").
	Verb string
	// Of joins Verb to the work order it was done to: "on" ("Ben Okafor
	// checked in on this"); "" when Verb takes it directly ("accepted this").
	Of string
	// Past is the action done, as a refusal it caused is told ("Already
	// checked in by Ben Okafor") and a bulk action's outcome ("2 work
	// orders accepted"); "" when a refusal is told with Verb instead.
	Past string
	// Whom names the request field listing whom the action was done to
	// ("AssociateIds"): the office hub copies it into its event, and the
	// window names them between Verb and Of ("Ana Ruiz assigned Kenji Sato
	// to this"); "" for an action done to the work order alone.
	Whom string
}

// DidTo is Verb joined to the work order it was done to: "checked in on".
func (c Colleague) DidTo() string {
	if c.Of == "" {
		return c.Verb
	}
	return c.Verb + " " + c.Of
}

// Form is where the window puts a refused action back to be corrected.
// It is plain data: storage names the form (each group's file declares
// its forms beside its entries), the window owns it.
type Form string

// NoForm: nothing to correct (accepting, bulk actions, files).
const NoForm Form = ""

// fix is how a refused action is corrected: the form it goes back into,
// what the person does there to queue it again, and how its stored request
// reads back as what they entered.
type fix struct {
	form  Form
	again string // "check in", "submit it"
	draft func(req json.RawMessage, currency string) (*Draft, error)
}

// Kinds lists every action kind this build knows, sorted.
func Kinds() []OutboxKind {
	out := make([]OutboxKind, 0, len(actions))
	for k := range actions {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Noun names the action in a sentence ("Check-in" in "Check-in queued
// 10:02"); "" for a kind this build does not know (a row a newer version
// wrote).
func (k OutboxKind) Noun() string {
	if a, ok := actions[k]; ok {
		return a.noun
	}
	return ""
}

// CorrectedIn is the form a refused action of kind k goes back into to be
// corrected, and what the person does there to queue it again ("check
// in"); NoForm when it has nothing to correct.
func (k OutboxKind) CorrectedIn() (Form, string) {
	if a, ok := actions[k]; ok && a.fix != nil {
		return a.fix.form, a.fix.again
	}
	return NoForm, ""
}

// Colleague is the hub's event of an action of kind k and how a
// colleague's doing it is told (zero for a kind this build does not know).
func (k OutboxKind) Colleague() Colleague {
	if a, ok := actions[k]; ok {
		return a.colleague
	}
	return Colleague{}
}

// Conflicts are the hub events of what a colleague may have done first
// that explain a refusal of an action of kind k: "Accepted" and
// "RejectedByContractor" for an acceptance; none for a message or a file.
func (k OutboxKind) Conflicts() []string {
	a, ok := actions[k]
	if !ok {
		return nil
	}
	var out []string
	for _, c := range a.conflicts {
		if e := c.Colleague().Event; e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// ColleagueWording is how the window tells the hub event named event;
// false for an event no outbox action makes.
func ColleagueWording(event string) (Colleague, bool) {
	for _, a := range actions {
		if a.colleague.Event == event {
			return a.colleague, true
		}
	}
	return Colleague{}, false
}

// WriteRoute is a service route the outbox writes with, the event the
// office hub makes of a write forwarded on it (never one of the service's
// notification actions), and the kind and group of its action: the hub
// asks Landed of that kind whether a write in doubt took effect, and its
// event carries the part of the work order the group is about.
type WriteRoute struct {
	Route
	Event string
	Kind  OutboxKind
	Group OutboxGroup
	// Whom is the request field the event carries (Colleague.Whom).
	Whom string
}

// WriteRoutes lists every route the outbox writes with, once each, sorted
// by path and method: exactly the writes a desktop sends through the hub.
func WriteRoutes() []WriteRoute {
	var out []WriteRoute
	for k, a := range actions {
		r := WriteRoute{Route: a.route, Event: a.colleague.Event, Kind: k, Group: a.group, Whom: a.colleague.Whom}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b WriteRoute) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return out
}

// WriteSubject is what the office hub's event of a write of kind k carries
// besides its action ("Subject"): the part of its request (the service
// call's body) that says what exactly was done, for ColleagueDid; nil for
// a kind whose action says it all.
func WriteSubject(k OutboxKind, request json.RawMessage) json.RawMessage {
	a, ok := actions[k]
	if !ok || a.subject == nil {
		return nil
	}
	return a.subject(request)
}

// ColleagueDid says what a colleague did through the office hub, from its
// event's action and subject and the work order as the replica has it:
// "completed step 3 of Roof inspection"; the event's Colleague.Verb when
// nothing more can be said ("edited the internal note"); "" for an event
// no outbox action makes.
func ColleagueDid(ev api.Event, wo *api.WorkOrder) string {
	for _, a := range actions {
		if a.colleague.Event != ev.Header.Action {
			continue
		}
		if a.tell != nil && wo != nil {
			var d struct{ Subject json.RawMessage }
			if json.Unmarshal(ev.Raw, &d) == nil && len(d.Subject) > 0 {
				if s := a.tell(d.Subject, wo); s != "" {
					return s
				}
			}
		}
		return a.colleague.Verb
	}
	return ""
}
