package outbox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// kindsDeclared reads this package's files for every Kind constant, so a
// kind declared without its entry fails the tests below.
func kindsDeclared(t *testing.T) []Kind {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []Kind
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				v := sp.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
					continue
				}
				for _, val := range v.Values {
					if lit, ok := val.(*ast.BasicLit); ok {
						s, _ := strconv.Unquote(lit.Value)
						kinds = append(kinds, Kind(s))
					}
				}
			}
		}
	}
	if len(kinds) == 0 {
		t.Fatal("found no Kind constants")
	}
	return kinds
}

// TestEveryKindHasItsWholeEntry holds each entry of the table to what the
// window, the hub and the conformance test read of it: a kind registered
// without its noun, rule, route, hub event or wording would show a raw
// summary, escape the conformance test, or reach the hub as a write it
// cannot name.
func TestEveryKindHasItsWholeEntry(t *testing.T) {
	declared := kindsDeclared(t)
	for _, k := range declared {
		if _, ok := Of(k); !ok {
			t.Errorf("kind %q is declared but has no entry in the table", k)
		}
	}
	events := map[string]Colleague{}
	routes := map[Route]string{}
	for _, e := range Entries() {
		k := e.Kind
		if !slices.Contains(declared, k) {
			t.Errorf("%q has an entry but is not declared as a Kind constant", k)
		}
		if e.Group == "" || e.typed == nil {
			t.Errorf("%q: no group or no typed columns", k)
		}
		if e.Noun == "" {
			t.Errorf("%q: no noun: the header would fall back to its summary", k)
		}
		// The conformance test walks api.Actions: a rule outside it is a
		// rule the sandbox is never held to.
		if !slices.Contains(api.Actions, e.Rule) {
			t.Errorf("%q: its rule %q is not among api.Actions, which the conformance test walks", k, e.Rule)
		}
		if !slices.Contains([]string{http.MethodPut, http.MethodPost, http.MethodDelete}, e.Route.Method) || !strings.HasPrefix(e.Route.Path, "/api/") {
			t.Errorf("%q: route %q %q is not a service write", k, e.Route.Method, e.Route.Path)
		}
		if other, ok := routes[e.Route]; ok && other != e.Colleague.Event {
			t.Errorf("%s %s makes the hub event %q for one kind and %q for another", e.Route.Method, e.Route.Path, other, e.Colleague.Event)
		}
		routes[e.Route] = e.Colleague.Event
		c := e.Colleague
		if c.Event == "" || c.Verb == "" {
			t.Errorf("%q: no hub event or colleague verb: a colleague's doing it would read %q", k, "changed")
		}
		if seen, ok := events[c.Event]; ok && seen != c {
			t.Errorf("the hub event %q is worded two ways: %+v and %+v", c.Event, seen, c)
		}
		events[c.Event] = c
		for _, o := range e.Conflicts {
			if _, ok := Of(o); !ok {
				t.Errorf("%q conflicts with %q, which has no entry", k, o)
			}
		}
		if f := e.Fix; f != nil && (f.Form == NoForm || f.Again == "") {
			t.Errorf("%q: correctable but its form or what is done there is missing: %+v", k, *f)
		}
		if f := e.Fix; f != nil {
			if _, ok := e.typed.draft(e.typed.zero(), "USD"); !ok {
				t.Errorf("%q: correctable but its request does not read back as a draft", k)
			}
		}
		// Every write that can be in doubt says how that is settled, and
		// why the check cannot take another's write for ours.
		if e.HasLanded() != (e.Judged != "") {
			t.Errorf("%q: a landed check %v but its Judged column says %q", k, e.HasLanded(), e.Judged)
		}
		if e.Question != nil && (e.Question.Keep == "" || e.Question.Take == "" || e.Question.Merge == "" || e.Question.Title == "") {
			t.Errorf("%q: its question lacks words: %+v", k, *e.Question)
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
	for _, e := range Entries() {
		if !slices.Contains(got, WriteRoute{Route: e.Route, Event: e.Colleague.Event, Kind: e.Kind, Group: e.Group, Rereads: e.Rereads}) {
			t.Errorf("the route of %q (%s %s) is missing from WriteRoutes", e.Kind, e.Route.Method, e.Route.Path)
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
