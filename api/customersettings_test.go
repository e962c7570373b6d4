package api

import (
	"errors"
	"strings"
	"testing"
)

func demoSettings() *CustomerSettings {
	return &CustomerSettings{
		CustomerId: 9, RepairInfoRequired: Yes,
		RepairCodes: []RepairInfo{{CodeId: 1, Code: "Replaced part", CategoryId: 10, Category: "HVAC"}},
		CustomFields: []CustomFieldDescriptor{
			{Id: "5", Label: "Guest room affected", Values: []string{"Yes", "No"}, IsRequired: Yes},
			{Id: "6", Label: "Engineer on duty", IsRequired: Yes, DataLength: 20},
			{Id: "7", Label: "Notes"},
			{Id: "8", Label: "Old question", IsRequired: Yes, IsDeleted: true},
		},
	}
}

func TestCheckOutProblemNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	s := demoSettings()
	req := &WorkOrder{Type: WorkOrderTypeRequest, Customer: Customer{Name: "Harbor Point Hotels"}}
	err := CheckOutProblem(req, s, Completion{})
	var ce *CompletionError
	if !errors.As(err, &ce) {
		t.Fatalf("a bare check-out at a customer requiring details: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"Harbor Point Hotels", "a repair code", `"Guest room affected"`, `"Engineer on duty"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not name %s", msg, want)
		}
	}
	if strings.Contains(msg, "Old question") || strings.Contains(msg, "Notes") {
		t.Errorf("message asks for what is not required: %q", msg)
	}
	ok := Completion{RepairInfo: &s.RepairCodes[0], CustomFields: []CustomField{{Id: "5", Value: "No"}, {Id: "6", Value: "Elena"}}}
	if err := CheckOutProblem(req, s, ok); err != nil {
		t.Fatalf("a complete check-out: %v", err)
	}
	// Values are case-sensitive: "no" is not "No".
	wrongCase := ok
	wrongCase.CustomFields = []CustomField{{Id: "5", Value: "no"}, {Id: "6", Value: "Elena"}}
	if err := CheckOutProblem(req, s, wrongCase); err == nil || !strings.Contains(err.Error(), `"no" is not an answer`) {
		t.Fatalf("lower-case answer: %v", err)
	}
	// A PMRM work order goes out without them and waits for the details.
	pm := &WorkOrder{Type: WorkOrderTypePMRM}
	if err := CheckOutProblem(pm, s, Completion{}); err != nil {
		t.Fatalf("PMRM check-out without details: %v", err)
	}
	if got := CheckOutOutcome(pm, s, Completion{}); got != StatusNeedsCompletionDetails {
		t.Fatalf("PMRM without details leads to %s", got)
	}
	if err := WorkDoneDetailsProblem(pm, s, Completion{}); err == nil {
		t.Fatal("completing details with nothing was accepted")
	}
	// Unknown settings leave the judgement to the service.
	if err := CheckOutProblem(req, nil, Completion{}); err != nil {
		t.Fatalf("no settings known: %v", err)
	}
}

// A customer that requires a repair code, whose codes were not found under
// the name we guessed (RepairCodes): nothing to choose from, so check-out
// is not refused for "a repair code"; the service judges. With the flag
// itself under another name (unknown), nothing is required either.
func TestRepairCodesNotFoundLockNothing(t *testing.T) {
	t.Parallel()
	req := &WorkOrder{Type: WorkOrderTypeRequest, Customer: Customer{Name: "Harbor Point Hotels"}}
	for name, s := range map[string]*CustomerSettings{
		"required, no codes":     {RepairInfoRequired: Yes},
		"required, codes absent": {RepairInfoRequired: Yes, RepairCodes: nil},
		"flag unknown, codes":    {RepairCodes: []RepairInfo{{CodeId: 1, Code: "Replaced part"}}},
	} {
		if err := CheckOutProblem(req, s, Completion{}); err != nil {
			t.Errorf("%s: check-out refused: %v", name, err)
		}
		if s.RequiresCompletion() || s.RepairRequired() {
			t.Errorf("%s: the form would ask for a repair code", name)
		}
		if got := CheckOutOutcome(&WorkOrder{Type: WorkOrderTypePMRM}, s, Completion{}); got != StatusCheckedOut {
			t.Errorf("%s: a PMRM check-out leads to %s", name, got)
		}
	}
	var none *CustomerSettings
	if none.RepairRequired() {
		t.Errorf("unknown settings require a repair code")
	}
}
