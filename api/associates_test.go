package api

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// A work order that does not say who is assigned is unknown, never
// unassigned; one that lists nobody is unassigned; and that survives the
// replica's round trip through JSON.
func TestAssignedIsUnknownUnlessTheServiceSaid(t *testing.T) {
	cases := []struct {
		body      string
		known     bool
		assignees int
	}{
		{`{"WorkOrderId":1}`, false, 0},
		{`{"WorkOrderId":1,"Associates":null}`, false, 0},
		{`{"WorkOrderId":1,"Associates":[]}`, true, 0},
		{`{"WorkOrderId":1,"Associates":[{"Id":7,"Name":"Kenji Sato","Type":"CruMember"}]}`, true, 1},
	}
	for _, c := range cases {
		var wo WorkOrder
		if err := json.Unmarshal([]byte(c.body), &wo); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(&wo)
		var back WorkOrder
		if err := json.Unmarshal(again, &back); err != nil {
			t.Fatal(err)
		}
		for _, w := range []*WorkOrder{&wo, &back} {
			who, known := w.Assigned()
			if known != c.known || len(who) != c.assignees {
				t.Errorf("%s: assigned %v (known %v); want %d, known %v", c.body, who, known, c.assignees, c.known)
			}
		}
	}
	var wo WorkOrder
	wo.SetAssigned(nil)
	if who, known := wo.Assigned(); !known || len(who) != 0 {
		t.Errorf("SetAssigned(nil) reads as %v, known %v; want nobody, known", who, known)
	}
}

func TestInitials(t *testing.T) {
	for name, want := range map[string]string{"Kenji Sato": "KS", "ana  ruiz": "AR", "Northside Electrical Ltd": "NEL", "": "", "Émile": "É"} {
		if got := (Associate{Name: name}).Initials(); got != want {
			t.Errorf("%q: %q; want %q", name, got, want)
		}
	}
}

// The branch rule: an associate the work order's branch does not list is
// refused, naming them; an unknown branch (or list) refuses nothing.
func TestCheckAssociatesByBranch(t *testing.T) {
	kenji, mia, sub := Associate{Id: 1, Name: "Kenji Sato"}, Associate{Id: 2, Name: "Mia Novak"}, Associate{Id: 9, Name: "Delta Roofing"}
	byID := map[int64]Associate{1: kenji, 2: mia, 9: sub}
	wo := &WorkOrder{WorkOrderNumber: "WN1", BranchId: 492042}
	branch := []Associate{kenji, sub}
	if err := wo.CheckAssociates([]int64{1, 9}, branch, byID); err != nil {
		t.Errorf("associates of the branch: %v", err)
	}
	err := wo.CheckAssociates([]int64{1, 2}, branch, byID)
	if err == nil || !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), "Mia Novak does not work for the branch of WN1") {
		t.Errorf("an associate of another branch: %v", err)
	}
	if err := wo.CheckAssociates([]int64{2}, nil, byID); err != nil {
		t.Errorf("the branch's list unknown: %v; want the service to judge", err)
	}
	if err := (&WorkOrder{WorkOrderNumber: "WN2"}).CheckAssociates([]int64{2}, branch, byID); err != nil {
		t.Errorf("the work order's branch unknown: %v; want the service to judge", err)
	}
	if err := wo.CheckAssociates(nil, branch, byID); err == nil {
		t.Error("assigning nobody was allowed")
	}
}

// One work order's several error objects make one failed result; its
// success beside an error is a failure; the order is kept.
func TestMergeResultsOnePerWorkOrder(t *testing.T) {
	got := MergeResults([]BulkResult{
		{WorkOrderId: 5},
		{WorkOrderId: 6, Code: 3000, Message: "Associate 2 is not valid for the branch."},
		{WorkOrderId: 6, Code: 3000, Message: "Associate 3 is not valid for the branch."},
		{WorkOrderId: 7},
		{WorkOrderId: 7, Code: 3005, Message: "Work order 7 was not found."},
	})
	want := []BulkResult{
		{WorkOrderId: 5},
		{WorkOrderId: 6, Code: 3000, Message: "Associate 2 is not valid for the branch.; Associate 3 is not valid for the branch."},
		{WorkOrderId: 7, Code: 3005, Message: "Work order 7 was not found."},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d: %+v; want %+v", i, got[i], want[i])
		}
	}
}

// What the board says before it queues a visit.
func TestCheckVisit(t *testing.T) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	onSite := day.Add(14 * time.Hour)
	wo := &WorkOrder{WorkOrderId: 1, WorkOrderNumber: "WN1", Status: StatusAccepted, Sla: &Sla{OnSiteBy: &onSite}}
	booked := []Booked{{WorkOrderId: 2, Name: "WN2", Start: day.Add(9 * time.Hour)}, {WorkOrderId: 1, Name: "WN1", Start: day.Add(10 * time.Hour)}}
	cases := []struct {
		name     string
		status   WorkOrderStatus
		start    time.Duration
		refused  bool
		late     bool
		overlaps int
	}{
		{"free and in time", StatusAccepted, 12 * time.Hour, false, false, 0},
		{"overlaps the 9:00 visit", StatusAccepted, 10 * time.Hour, false, false, 1},
		{"just after the 9:00 visit", StatusAccepted, 11 * time.Hour, false, false, 0},
		{"after on-site-by", StatusAccepted, 15 * time.Hour, false, true, 0},
		{"checked out", StatusCheckedOut, 12 * time.Hour, true, false, 0},
	}
	for _, c := range cases {
		wo.Status = c.status
		p := wo.CheckVisit(day.Add(c.start), DefaultVisitLength, booked)
		if (p.Refused != nil) != c.refused || p.Late != c.late || len(p.Overlaps) != c.overlaps || p.Any() != (c.refused || c.late || c.overlaps > 0) {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
}

// The associates list is read under its guessed key; under another key it
// is an error that names the keys, never an empty branch (which would
// refuse everyone); an answer without any list is nobody.
func TestAssociatesListKeys(t *testing.T) {
	cases := []struct {
		body  string
		names []string
		err   string
	}{
		{`{"Associates":[{"Id":1,"Name":"Kenji Sato","Type":"CruMember"}],"MessageId":"m"}`, []string{"Kenji Sato"}, ""},
		{`{"associates":[{"Id":1,"Name":"Kenji Sato"}]}`, []string{"Kenji Sato"}, ""},
		{`{"Associates":null}`, nil, ""},
		{`{"MessageId":"m"}`, nil, ""},
		{`{"Members":[{"Id":1,"Name":"Kenji Sato"}],"Branches":[],"MessageId":"m"}`, nil, "keys Branches, Members"},
	}
	for _, c := range cases {
		var answer map[string]json.RawMessage
		if err := json.Unmarshal([]byte(c.body), &answer); err != nil {
			t.Fatal(err)
		}
		list, err := associatesIn(answer)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, %v; want an error naming %s", c.body, list, err, c.err)
			}
			continue
		}
		var names []string
		for _, a := range list {
			names = append(names, a.Name)
		}
		if err != nil || list == nil || strings.Join(names, ",") != strings.Join(c.names, ",") {
			t.Errorf("%s: %v, %v; want %v", c.body, names, err, c.names)
		}
	}
}
