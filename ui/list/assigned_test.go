package list

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// The list's Assigned column names who goes (initials when several), and
// says "unknown" where the service did not say, never unassigned; its
// filter keeps one technician's work orders, or the unassigned ones.
func TestTheListShowsAndFiltersWhoIsAssigned(t *testing.T) {
	store := demoReplica(t)
	f := newFixture(t, store, 1300) // where the list has room for the column
	ctx := context.Background()
	v := f.v
	cellText := func(id int64) string {
		t.Helper()
		row := f.rowOf(id)
		col := slices.Index(v.cols, colAssigned)
		if row < 0 || col < 0 {
			t.Fatalf("work order %d (row %d) or the Assigned column (%d) is not shown", id, row, col)
		}
		return f.cellAt(row, col).text.Text
	}
	var one, none, two *api.WorkOrder
	for _, r := range f.rows() {
		wo, err := store.WorkOrder(ctx, r.Id)
		if err != nil {
			t.Fatal(err)
		}
		who, known := wo.Assigned()
		switch {
		case known && len(who) == 1 && one == nil:
			one = wo
		case known && len(who) == 0 && none == nil:
			none = wo
		case len(who) == 2 && two == nil:
			two = wo
		}
	}
	if one == nil || none == nil {
		t.Fatal("the demo has no work order with one technician, or none without")
	}
	who, _ := one.Assigned()
	if got := cellText(one.WorkOrderId); got != who[0].Name && got != who[0].Initials() {
		t.Errorf("one technician: %q; want %s", got, who[0].Name)
	}
	if got := cellText(none.WorkOrderId); got != "—" {
		t.Errorf("nobody assigned: %q; want —", got)
	}
	if two != nil {
		pair, _ := two.Assigned()
		if got := cellText(two.WorkOrderId); got != pair[0].Initials()+", "+pair[1].Initials() {
			t.Errorf("two technicians: %q", got)
		}
	}
	// A record that does not say who is assigned.
	silent := *none
	silent.Associates = nil
	if err := store.PutWorkOrders(ctx, []api.WorkOrder{silent}); err != nil {
		t.Fatal(err)
	}
	v.ReloadLater() // as the window does after a sync
	if got := cellText(none.WorkOrderId); got != "unknown" {
		t.Errorf("a record that does not say: %q; want unknown", got)
	}
	// This office assigns someone to it: the cell names them, marked as
	// what is known of it, never as the whole crew nor as unassigned.
	crew, _, _ := store.Associates(ctx, none.BranchId)
	if len(crew) == 0 {
		t.Fatal("the demo lists nobody for the branch")
	}
	if _, err := store.Assign(ctx, []int64{none.WorkOrderId}, []int64{crew[0].Id}); err != nil {
		t.Fatal(err)
	}
	v.Reload()
	if got := cellText(none.WorkOrderId); got != crew[0].Name+partlyKnown && got != crew[0].Initials()+partlyKnown {
		t.Errorf("assigned here, the record silent: %q; want %q", got, crew[0].Name+partlyKnown)
	}

	// The filter: the technician's work orders, then the unassigned ones.
	pick := func(option string) {
		t.Helper()
		i := slices.Index(v.assigneeSel.Options, option)
		if i < 0 {
			t.Fatalf("the filter offers no %q: %v", option, v.assigneeSel.Options)
		}
		v.assigneeSel.SetSelectedIndex(i)
	}
	pick(who[0].Name)
	rows := f.rows()
	if len(rows) == 0 || !strings.Contains(v.count.Text, " of ") {
		t.Fatalf("filtered by %s: %d rows, count %q", who[0].Name, len(rows), v.count.Text)
	}
	for _, r := range rows {
		a, _ := store.AssigneesOf(ctx, []int64{r.Id})
		if !slices.ContainsFunc(a[r.Id].Who, func(x api.Associate) bool { return x.Id == who[0].Id }) {
			t.Errorf("%s is listed under %s but assigned %v", r.Number, who[0].Name, a[r.Id].Who)
		}
	}
	pick(assigneeNobody)
	for _, r := range f.rows() {
		if got := cellText(r.Id); got != "—" {
			t.Errorf("%s is listed as unassigned but shows %q", r.Number, got)
		}
		if r.Id == none.WorkOrderId {
			t.Errorf("%s, whose record does not say, is listed as unassigned", r.Number)
		}
	}
}
