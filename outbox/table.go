// Package outbox is the action table: one entry per kind of write a person
// makes (accept, check in, send a message, ...), with every column any
// layer needs of it. The desktop's outbox (storage) queues, sends and
// reconciles rows through it; the office hub decodes, forwards, audits and
// tells colleagues through it; the window names, corrects and asks through
// it. None of them keeps a map of kinds of its own, and neither ui/ nor hub/
// names a kind. It imports api and nothing else of the project.
//
// A new kind is one entry in its group's file (def), using the api call and
// rule that go with it.
package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// Kind names the operation of an outbox row or a forwarded write. The
// strings are stored in replicas and the hub's database: never rename one.
type Kind string

// Group is which part of a work order an action is about; the window shows
// each group's actions where it shows that part.
type Group string

const (
	GroupWorkOrder Group = "workOrder" // accept, reject, bulk, appointment
	GroupVisit     Group = "visit"
	GroupQuote     Group = "quote"
	GroupInvoice   Group = "invoice" // the invoice and its attachments
	GroupMessage   Group = "message"
	GroupFile      Group = "file" // work order attachments
	GroupStep      Group = "step" // procedure step attachments
	// GroupProcedure: completing steps and marking procedures N/A.
	GroupProcedure Group = "procedure"
	GroupNote      Group = "note" // the internal note
	GroupCrew      Group = "crew" // who goes: assigning associates
)

// Parts are the parts of a work order a write changes besides its record
// (which every write is followed by a re-read of): the desktop refreshes
// them in its replica, the hub re-reads them into its event.
type Parts uint8

const (
	Messages Parts = 1 << iota
	Attachments
	Invoice
	InvoiceAttachments
	Note
)

// Has reports whether p includes q.
func (p Parts) Has(q Parts) bool { return p&q != 0 }

// Entry is one kind's row of the table. Its plain columns are read
// directly; its typed columns (the request and what is done with it)
// through its methods, which decode the request once.
type Entry struct {
	Kind  Kind
	Group Group
	// Rule is the api action whose rule judges this one before it is
	// queued; the conformance test holds the sandbox to every rule.
	Rule api.Action
	// Noun names it in a sentence: "Check-in" in "Check-in queued 10:02".
	Noun string
	// Route is the service call it writes with.
	Route Route
	// Colleague is the hub's event of it and how a colleague's doing it is
	// told.
	Colleague Colleague
	// Conflicts are the kinds a colleague may have done first that explain
	// a refusal of this one (none: a message is no reason for another's
	// refusal).
	Conflicts []Kind
	// Fix is how a refused one is corrected (nil: nothing to correct).
	Fix *Fix
	// Status is the work order status it leads to ("" = none): what the
	// window shows while it waits.
	Status api.WorkOrderStatus
	// Rereads are the parts it changes besides the record; Forgets, those
	// the replica drops when it is done (a deleted invoice).
	Rereads, Forgets Parts
	// Judged says how "landed" is judged after an answer was lost, and why
	// the check cannot mistake someone else's write for ours ("" when it
	// has no check: sending it again changes nothing twice).
	Judged string
	// Question is what the person is asked when the write cannot go on
	// without them (nil: it never stops to ask).
	Question *Question

	typed typed
}

// typed is an entry's columns that read its request; def makes them from
// a spec over the request's own type.
type typed interface {
	decode(raw []byte, strict bool) (any, error)
	targets(req any) []int64
	wire(req any) any // the service call's body of req (given a new request, its type)
	send(ctx context.Context, c *api.Client, req any, env Env) (any, error)
	landed(ctx context.Context, c *api.Client, req any, q *LandedQuery) (bool, any, error)
	hasLanded() bool
	hasBefore() bool
	before(ctx context.Context, c *api.Client, req any) (json.RawMessage, error)
	subject(req any) Subject
	tell(s Subject, wo *api.WorkOrder) string
	effect(ctx context.Context, wo *api.WorkOrder, req any, env Env)
	draft(req any, currency string) (*Draft, bool)
	guard(ctx context.Context, c *api.Client, req any) (bool, error)
	rebase(ctx context.Context, req any, env Env) error
	required() []string
	zero() any
}

// table holds every entry; each group's file adds its kinds.
var table = map[Kind]*Entry{}

func register(group Group, entries ...*Entry) bool {
	for _, e := range entries {
		if _, dup := table[e.Kind]; dup {
			panic("outbox: kind " + string(e.Kind) + " registered twice")
		}
		e.Group = group
		table[e.Kind] = e
	}
	return true
}

// Of is the entry of kind k; false for a kind this build does not know (a
// row a newer version wrote).
func Of(k Kind) (*Entry, bool) {
	e, ok := table[k]
	return e, ok
}

// MustOf is the entry of kind k, or a local error for a kind this build
// does not know.
func MustOf(k Kind) (*Entry, error) {
	if e, ok := table[k]; ok {
		return e, nil
	}
	return nil, LocalError{fmt.Errorf("unknown action kind %q", k)}
}

// Kinds lists every kind this build knows, sorted.
func Kinds() []Kind {
	out := make([]Kind, 0, len(table))
	for k := range table {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Entries lists every entry, sorted by kind.
func Entries() []*Entry {
	out := make([]*Entry, 0, len(table))
	for _, k := range Kinds() {
		out = append(out, table[k])
	}
	return out
}

// Noun names the action of kind k in a sentence; "" for a kind this build
// does not know.
func (k Kind) Noun() string {
	if e, ok := table[k]; ok {
		return e.Noun
	}
	return ""
}

// CorrectedIn is the form a refused action of kind k goes back into, and
// what the person does there to queue it again ("check in"); NoForm when
// it has nothing to correct.
func (k Kind) CorrectedIn() (Form, string) {
	if e, ok := table[k]; ok && e.Fix != nil {
		return e.Fix.Form, e.Fix.Again
	}
	return NoForm, ""
}

// Colleague is the hub's event of kind k and its wording (zero for a kind
// this build does not know).
func (k Kind) Colleague() Colleague {
	if e, ok := table[k]; ok {
		return e.Colleague
	}
	return Colleague{}
}

// Conflicts are the hub events of what a colleague may have done first
// that explain a refusal of an action of kind k.
func (k Kind) Conflicts() []string {
	e, ok := table[k]
	if !ok {
		return nil
	}
	var out []string
	for _, c := range e.Conflicts {
		if ev := c.Colleague().Event; ev != "" && !slices.Contains(out, ev) {
			out = append(out, ev)
		}
	}
	return out
}

// ColleagueWording is how the window tells the hub event named event;
// false for an event no action makes.
func ColleagueWording(event string) (Colleague, bool) {
	for _, e := range table {
		if e.Colleague.Event == event {
			return e.Colleague, true
		}
	}
	return Colleague{}, false
}

// WriteRoute is a service route an action writes with, and the event the
// office hub makes of a write forwarded on it (never one of the service's
// notification actions).
type WriteRoute struct {
	Route
	Event string
	Kind  Kind
	Group Group
	// Rereads are the parts the hub re-reads into its event.
	Rereads Parts
}

// WriteRoutes lists every route the table writes with, once each, sorted
// by path and method: exactly the writes a desktop sends through the hub.
func WriteRoutes() []WriteRoute {
	var out []WriteRoute
	for _, e := range table {
		r := WriteRoute{Route: e.Route, Event: e.Colleague.Event, Kind: e.Kind, Group: e.Group, Rereads: e.Rereads}
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

// ColleagueDid says what a colleague did through the office hub, from its
// event and the work order as the replica has it: "completed step 3 of
// Roof inspection"; the event's Colleague.Verb when nothing more can be
// said; "" for an event no action makes.
func ColleagueDid(ev api.Event, wo *api.WorkOrder) string {
	for _, e := range table {
		if e.Colleague.Event != ev.Header.Action {
			continue
		}
		if wo != nil {
			if s := e.typed.tell(ReadSubject(ev.Raw), wo); s != "" {
				return s
			}
		}
		return e.Colleague.Verb
	}
	return ""
}

// Decode reads a request of this kind as the outbox stored it (its own
// bytes: fields it does not know are ignored).
func (e *Entry) Decode(raw []byte) (any, error) { return e.typed.decode(raw, false) }

// DecodeStrict reads a request of this kind as a desktop sent it, the
// sender's claim: invalid UTF-8, a key given twice (in any case), a field
// the request does not have, a required field left out, a work order id
// that is not positive or ids that disagree are refused (*InvalidRequest).
func (e *Entry) DecodeStrict(raw []byte) (any, error) { return e.typed.decode(raw, true) }

// Targets are every work order the request names, without repeats.
func (e *Entry) Targets(req any) []int64 { return e.typed.targets(req) }

// Wire is the service call's body of a decoded request: what is sent,
// re-encoded from the typed value rather than the bytes received.
func (e *Entry) Wire(req any) ([]byte, error) { return json.Marshal(e.typed.wire(req)) }

// Send performs the service call of a request with messageID; result is
// what the caller records (an invoice, an attachment, bulk results).
func (e *Entry) Send(ctx context.Context, c *api.Client, req any, messageID string, env Env) (any, error) {
	setMessageID(req, messageID)
	// The guard's reads are its own, not under the write's MessageId.
	if done, err := e.typed.guard(api.WithMessageId(ctx, ""), c, req); err != nil || done {
		return nil, err
	}
	return e.typed.send(api.WithMessageId(ctx, messageID), c, req, env)
}

// HasLanded reports whether the kind has a landed check (see Landed).
func (e *Entry) HasLanded() bool { return e.typed.hasLanded() }

// NeedsBefore reports whether the kind's landed check compares against
// what the service held before the write was first sent (Before).
func (e *Entry) NeedsBefore() bool { return e.typed.hasBefore() }

// Before reads what the landed check of a request will compare against:
// called before it is first sent, its answer kept with the write (the
// outbox's row, the hub's intent) and handed back as LandedQuery.Before.
// nil for a kind that needs none.
func (e *Entry) Before(ctx context.Context, c *api.Client, req any) (json.RawMessage, error) {
	if !e.typed.hasBefore() {
		return nil, nil
	}
	return e.typed.before(api.WithMessageId(ctx, ""), c, req)
}

// Subject is what of a request the hub's event carries besides its action.
func (e *Entry) Subject(req any) Subject { return e.typed.subject(req) }

// Effect changes wo as the person sees it while a request of this kind
// waits to be sent: its Status, and what its effect column says.
func (e *Entry) Effect(ctx context.Context, wo *api.WorkOrder, req any, env Env) {
	if e.Status != "" {
		wo.Status = e.Status
	}
	e.typed.effect(ctx, wo, req, env)
}

// Draft reads back what the person entered, for the form a refused one is
// corrected in; false for kinds with nothing to correct.
func (e *Entry) Draft(req any, currency string) (*Draft, bool) {
	if e.Fix == nil {
		return nil, false
	}
	return e.typed.draft(req, currency)
}

// Rebase makes a request stopped to ask the person (Question) go over
// what stopped it, as the replica holds it now, when sent again: the
// person chose theirs.
func (e *Entry) Rebase(ctx context.Context, req any, env Env) error {
	return e.typed.rebase(ctx, req, env)
}

// Required are the fields a request of this kind must carry (see
// DecodeStrict).
func (e *Entry) Required() []string { return e.typed.required() }
