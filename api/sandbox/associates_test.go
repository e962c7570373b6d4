package sandbox

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// Each branch lists a crew of technicians and a few subcontractors; a
// branch the company does not have, or no branch at all, is refused.
func TestAssociatesPerBranch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, c := range crews {
		list, err := e.client.GetAssociates(e.ctx, c.branch)
		if err != nil {
			t.Fatal(err)
		}
		var crew, subs int
		for _, a := range list {
			switch a.Type {
			case api.AssociateCruMember:
				crew++
			case api.AssociateSubcontractor:
				subs++
			}
		}
		if crew < 3 || subs < 1 || crew+subs != len(list) {
			t.Errorf("branch %d lists %d technicians and %d subcontractors of %d: %+v", c.branch, crew, subs, len(list), list)
		}
	}
	_, err := e.client.GetAssociates(e.ctx, 999)
	wantCode(t, err, api.CodeNoSuchEntity)
	if code, _ := e.raw(http.MethodGet, "/api/associates", nil); code != http.StatusBadRequest {
		t.Errorf("no branchId: HTTP %d; want 400", code)
	}
}

// The documented rules of bulk assign and unassign, held one case at a
// time: each work order on its own, the answer one result per work order
// (or one error object per bad associate), an associate of another branch
// assigning nothing to that work order, an associate already assigned a
// silent no-op, and nothing else of the record changing: "Assignment does
// not affect work order status or other properties that can be retrieved
// by GET /api/workOrder" (service-facts §16), LastUpdate included.
func TestBulkAssignKeepsTheDocumentedRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	us, uk := branchAssociates()[492042], branchAssociates()[492051]
	kenji, miguel, hannah := us[0], us[1], uk[0]
	fresh := func(customer string, status api.WorkOrderStatus) int64 {
		return e.setup(customer, status, func(o *order) { o.wo.SetAssigned(nil) })
	}
	assigned := func(id int64) []int64 {
		wo := e.read(id)
		who, known := wo.Assigned()
		if !known {
			t.Fatalf("work order %d does not say who is assigned", id)
		}
		var ids []int64
		for _, a := range who {
			ids = append(ids, a.Id)
		}
		return ids
	}

	usOrder, ukOrder := fresh("Northwind Retail", api.StatusAccepted), fresh("Kensington Foods UK", api.StatusCheckedIn)
	before := e.read(usOrder)
	rs, err := e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{usOrder, ukOrder}, AssociateIds: []int64{kenji.Id}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || !rs[0].Succeeded() || rs[0].WorkOrderId != usOrder || rs[1].Succeeded() || rs[1].WorkOrderId != ukOrder {
		t.Fatalf("a technician of the US branch on a US and a UK work order: %+v", rs)
	}
	if got := assigned(usOrder); !slices.Equal(got, []int64{kenji.Id}) {
		t.Errorf("the US work order is assigned %v; want Kenji", got)
	}
	if got := assigned(ukOrder); len(got) != 0 {
		t.Errorf("the UK work order is assigned %v; want nobody", got)
	}
	if e.read(usOrder).Status != api.StatusAccepted || e.read(ukOrder).Status != api.StatusCheckedIn {
		t.Error("an assignment changed a status")
	}
	if got, want := recordBeside(t, e.read(usOrder)), recordBeside(t, before); got != want {
		t.Errorf("an assignment changed the record beside who is assigned:\n%s\nwas\n%s", got, want)
	}

	// Two associates, one of another branch: nothing is assigned, and the
	// answer has an error object for the bad one.
	rs, err = e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{usOrder}, AssociateIds: []int64{miguel.Id, hannah.Id}})
	if err != nil || len(rs) != 1 || rs[0].Succeeded() {
		t.Fatalf("Miguel and Hannah (UK) on a US work order: %+v, %v", rs, err)
	}
	if got := assigned(usOrder); !slices.Equal(got, []int64{kenji.Id}) {
		t.Errorf("after a refused assignment the work order is assigned %v; want Kenji alone", got)
	}
	code, body := e.raw(http.MethodPut, "/api/bulk/assign", api.AssignRequest{WorkOrderIds: []int64{usOrder}, AssociateIds: []int64{hannah.Id, uk[1].Id}})
	if code != http.StatusOK || countObjects(t, body) != 2 {
		t.Errorf("two associates of another branch: HTTP %d %s; want one error object each", code, body)
	}

	// Kenji again, with Miguel: Kenji's is a no-op, Miguel is added.
	if rs, err := e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{usOrder}, AssociateIds: []int64{kenji.Id, miguel.Id}}); err != nil || !rs[0].Succeeded() {
		t.Fatalf("Kenji again with Miguel: %+v, %v", rs, err)
	}
	if got := assigned(usOrder); !slices.Equal(got, []int64{kenji.Id, miguel.Id}) {
		t.Errorf("assigned %v; want Kenji and Miguel, once each", got)
	}
	stamp := e.read(usOrder)
	if rs, err := e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{usOrder}, AssociateIds: []int64{miguel.Id}}); err != nil || !rs[0].Succeeded() {
		t.Fatalf("Miguel again: %+v, %v", rs, err)
	}
	if got, want := recordOf(e.read(usOrder)), recordOf(stamp); got != want {
		t.Errorf("assigning someone already assigned changed the work order:\n%s\nwas\n%s", got, want)
	}

	// Unassign: Kenji goes; someone not assigned is a no-op.
	if rs, err := e.client.BulkUnassign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{usOrder}, AssociateIds: []int64{kenji.Id, us[2].Id}}); err != nil || !rs[0].Succeeded() {
		t.Fatalf("unassign Kenji and Sarah: %+v, %v", rs, err)
	}
	if got := assigned(usOrder); !slices.Equal(got, []int64{miguel.Id}) {
		t.Errorf("after unassigning Kenji: %v; want Miguel", got)
	}
	if got, want := recordBeside(t, e.read(usOrder)), recordBeside(t, before); got != want {
		t.Errorf("an unassignment changed the record beside who is assigned:\n%s\nwas\n%s", got, want)
	}

	// Unknown and closed work orders are refused each on its own.
	rejected := fresh("Northwind Retail", api.StatusRejected)
	rs, err = e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{424242, rejected, usOrder}, AssociateIds: []int64{kenji.Id}})
	if err != nil || len(rs) != 3 || rs[0].Code != api.CodeNotFoundOrRecalled || rs[1].Code != api.CodeWrongStatus || !rs[2].Succeeded() {
		t.Fatalf("an unknown, a rejected and an open work order: %+v, %v", rs, err)
	}
	for _, bad := range []api.AssignRequest{{AssociateIds: []int64{kenji.Id}}, {WorkOrderIds: []int64{usOrder}}} {
		if code, _ := e.raw(http.MethodPut, "/api/bulk/assign", bad); code != http.StatusBadRequest {
			t.Errorf("%+v: HTTP %d; want 400", bad, code)
		}
	}
}

// recordBeside is the work order as GET /api/workOrder answered it,
// without the list of who is assigned (our guess of where it is).
func recordBeside(t *testing.T, wo api.WorkOrder) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(recordOf(wo)), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "Associates")
	b, _ := json.Marshal(m)
	return string(b)
}

// The renamed dialect lists a work order's associates nowhere, as a
// service whose record does not say; assigning still works there, and
// nothing of the record changes.
func TestRenamedDialectListsNoAssociates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.Dialect = DialectRenamed })
	kenji := branchAssociates()[492042][0]
	id := e.setup("Northwind Retail", api.StatusAccepted, nil)
	get := func() *api.WorkOrder {
		t.Helper()
		wo, err := e.client.GetWorkOrder(e.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return wo
	}
	before := get()
	if _, known := before.Assigned(); known {
		t.Fatalf("the renamed dialect says who is assigned: %s", before.RawJSON())
	}
	rs, err := e.client.BulkAssign(e.ctx, &api.AssignRequest{WorkOrderIds: []int64{id}, AssociateIds: []int64{kenji.Id}})
	if err != nil || len(rs) != 1 || !rs[0].Succeeded() {
		t.Fatalf("assigning Kenji: %+v, %v", rs, err)
	}
	if after := get(); string(after.RawJSON()) != string(before.RawJSON()) {
		t.Errorf("an assignment changed the record:\n%s\nwas\n%s", after.RawJSON(), before.RawJSON())
	}
	if kept := e.read(id); !slices.ContainsFunc(*kept.Associates, func(a api.Associate) bool { return a.Id == kenji.Id }) {
		t.Errorf("the sandbox keeps %+v assigned; want Kenji among them", *kept.Associates)
	}
}

// recordOf is the work order as the service answered it.
func recordOf(wo api.WorkOrder) string { return string(wo.RawJSON()) }

func countObjects(t *testing.T, body []byte) int {
	t.Helper()
	var rs []api.BulkResult
	if err := json.Unmarshal(body, &rs); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return len(rs)
}

// The generated world: every work order names its branch; open visits and
// finished work mostly have a technician of that branch, new work nobody;
// the scripted customer's doings (and its new work orders) leave
// assignments alone.
func TestWorldCrewsAndTheCustomerLeavesThemAlone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.WorkOrders = 200 })
	byBranch := branchAssociates()
	snapshot := map[int64][]api.Associate{}
	withTech := 0
	for _, wo := range e.world() {
		who, known := wo.Assigned()
		if wo.BranchId == 0 || !known {
			t.Fatalf("%s: branch %d, associates known %v", wo.WorkOrderNumber, wo.BranchId, known)
		}
		for _, a := range who {
			if !slices.Contains(byBranch[wo.BranchId], a) {
				t.Errorf("%s (branch %d) is assigned %s of another branch", wo.WorkOrderNumber, wo.BranchId, a.Name)
			}
		}
		if wo.Status == api.StatusNew && len(who) > 0 {
			t.Errorf("%s is new and already assigned %v", wo.WorkOrderNumber, who)
		}
		if wo.Status == api.StatusAccepted && len(who) > 0 {
			withTech++
		}
		snapshot[wo.WorkOrderId] = who
	}
	if withTech < 5 {
		t.Errorf("only %d accepted work orders have a technician", withTech)
	}
	for range 40 {
		if _, err := e.sb.CustomerTick(); err != nil {
			t.Fatal(err)
		}
	}
	for _, wo := range e.world() {
		who, known := wo.Assigned()
		if before, ok := snapshot[wo.WorkOrderId]; ok && !slices.Equal(who, before) {
			t.Errorf("the customer changed who is assigned to %s: %v → %v", wo.WorkOrderNumber, before, who)
		}
		if _, ok := snapshot[wo.WorkOrderId]; !ok && (!known || len(who) > 0 || wo.BranchId == 0) {
			t.Errorf("a dispatched work order %s: branch %d, assigned %v (known %v); want its branch and nobody", wo.WorkOrderNumber, wo.BranchId, who, known)
		}
	}
}

// world is a copy of the sandbox's work orders, ordered by id.
func (e *env) world() []api.WorkOrder {
	e.sb.mu.RLock()
	defer e.sb.mu.RUnlock()
	return (&World{st: e.sb.st}).WorkOrders()
}

// The branch rule of the client (api.WorkOrder.CheckAssociates, asked with
// the branch's list as storage asks) and the sandbox agree for every
// associate of every branch, on a work order of each branch.
func TestAssignBranchRuleConforms(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := branchAssociates()
	for _, customer := range []string{"Northwind Retail", "Kensington Foods UK", "Sakura Mart Japan"} {
		id := e.setup(customer, api.StatusAccepted, func(o *order) { o.wo.SetAssigned(nil) })
		wo := e.read(id)
		list, err := e.client.GetAssociates(e.ctx, wo.BranchId)
		if err != nil {
			t.Fatal(err)
		}
		for _, branch := range all {
			for _, a := range branch {
				for _, call := range []func(*api.AssignRequest) ([]api.BulkResult, error){
					func(r *api.AssignRequest) ([]api.BulkResult, error) { return e.client.BulkAssign(e.ctx, r) },
					func(r *api.AssignRequest) ([]api.BulkResult, error) { return e.client.BulkUnassign(e.ctx, r) },
				} {
					rule := wo.CheckAssociates([]int64{a.Id}, list, nil)
					got := bulkError(call(&api.AssignRequest{WorkOrderIds: []int64{id}, AssociateIds: []int64{a.Id}}))
					if (rule == nil) != (got == nil) {
						t.Errorf("%s on %s (branch %d): the rules say %v, the sandbox %v", a.Name, wo.WorkOrderNumber, wo.BranchId, rule, got)
					}
				}
			}
		}
	}
}
