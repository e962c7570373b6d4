package storage

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// doctor --contract shows the shape of every write the app sends
// (api.WriteShapes): each route the action table writes with is among them, and
// none is there that the app does not send.
func TestTheContractCheckShowsEveryWrite(t *testing.T) {
	t.Parallel()
	shown := map[outbox.Route]bool{}
	for _, w := range api.WriteShapes() {
		r := outbox.Route{Method: w.Method, Path: w.Path}
		if shown[r] {
			t.Errorf("%s %s is shown twice", w.Method, w.Path)
		}
		shown[r] = true
		if w.Body == "" && len(w.Form) == 0 && len(w.Query) == 0 {
			t.Errorf("%s %s shows no shape", w.Method, w.Path)
		}
	}
	sent := map[outbox.Route]bool{}
	for _, w := range outbox.WriteRoutes() {
		sent[w.Route] = true
		if !shown[w.Route] {
			t.Errorf("the outbox writes with %s %s, which the contract check does not show", w.Method, w.Path)
		}
	}
	for r := range shown {
		if !sent[r] {
			t.Errorf("the contract check shows %s %s, which the app does not send", r.Method, r.Path)
		}
	}
}
