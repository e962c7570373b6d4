package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// putRaw sends body to the hub as the person whose token tok is.
func putRaw(t *testing.T, in *instance, tok, path string, body []byte) (int, api.Error) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, in.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e api.Error
	json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e
}

// Ben's desktop writes the internal note naming Ana as who acts: the hub
// sets who acts from the person signed in, so the service records Ben, and
// every desktop's Note tab shows Ben.
func TestSecurityNobodyActsAsSomeoneElse(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ben, creds := o.person(a, "Ben Okafor")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := ben.Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"WorkOrderId":` + strconv.FormatInt(id, 10) + `,"InternalNote":"gate code 4711","PerformedBy":{"Name":"Ana Ruiz"}}`)
	if status, e := putRaw(t, a, token(t, a, creds), "/api/workOrder/note", body); status != http.StatusOK {
		t.Fatalf("the note: HTTP %d %+v", status, e)
	}
	h, err := ben.NoteHistory(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if cur := api.CurrentNote(h); cur.InternalNote != "gate code 4711" || cur.UpdatedBy != "Ben Okafor" {
		t.Fatalf("the service records the note as %+v; want it by Ben Okafor, whoever the body named", cur)
	}
}

// A body is decoded once, strictly: a body that names work orders two
// ways, a key twice in two cases, a field the write does not have, a field
// it must have left out (MarkAsNa), or text that is not UTF-8 is refused 400 before anything is written or sent, and
// nothing of it is audited against either work order.
func TestSecurityABodyIsReadOneWayOnly(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	_, creds := o.person(a, "Ben Okafor")
	x, z := newWorkOrder(t, o), newWorkOrder(t, o)
	tok := token(t, a, creds)
	X, Z := strconv.FormatInt(x, 10), strconv.FormatInt(z, 10)
	cases := []struct{ name, path, body string }{
		{"work orders two ways", "/api/bulk/assign", `{"WorkOrderId":` + Z + `,"WorkOrderIds":[` + X + `],"AssociateIds":[1]}`},
		{"a key twice in two cases", "/api/bulk/assign", `{"WorkOrderIds":[` + X + `],"AssociateIds":[1],"associateIds":[2]}`},
		{"the work order twice", "/api/workOrder/accept", `{"WorkOrderId":` + X + `,"workorderid":` + Z + `}`},
		{"a field it does not have", "/api/workOrder/accept", `{"WorkOrderId":` + X + `,"WorkOrderIds":[` + Z + `]}`},
		{"two values", "/api/workOrder/accept", `{"WorkOrderId":` + X + `} {"WorkOrderId":` + Z + `}`},
		{"not UTF-8", "/api/workOrder/reject", "{\"WorkOrderId\":" + X + ",\"Comment\":\"caf\xe9\"}"},
		{"no work order", "/api/workOrder/accept", `{"Comment":"which one?"}`},
		{"a negative id", "/api/bulk/accept", `{"WorkOrderIds":[` + X + `,-5]}`},
		// Absent is not false: a default would clear a customer's mark.
		{"a required field absent", "/api/procedure/markAsNA", `{"WorkOrderId":` + X + `,"ProcedureId":1}`},
	}
	before := o.writes.Load()
	for _, c := range cases {
		status, e := putRaw(t, a, tok, c.path, []byte(c.body))
		if status != http.StatusBadRequest || e.Code != api.CodeInvalidModel {
			t.Errorf("%s: HTTP %d %+v, want 400 code 2100", c.name, status, e)
		}
	}
	if n := o.writes.Load() - before; n != 0 {
		t.Fatalf("%d refused writes reached the service", n)
	}
	for _, id := range []int64{x, z} {
		if audit := readAudit(t, a, creds, id); len(audit) != 0 {
			t.Errorf("work order %d has audit rows %+v of writes refused before they were read", id, audit)
		}
	}
}
