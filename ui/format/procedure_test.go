package format

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestAStepMarkedNACountsAsDealtWith: the Summary's and the Procedures
// tab's count of a procedure counts a step marked N/A with those done
// (it is nothing left to do), and says how many are N/A.
func TestAStepMarkedNACountsAsDealtWith(t *testing.T) {
	steps := func(statuses ...string) []api.Step {
		var out []api.Step
		for _, s := range statuses {
			out = append(out, api.Step{Status: s})
		}
		return out
	}
	for _, c := range []struct {
		p    api.Procedure
		want string
	}{
		{api.Procedure{Steps: steps(api.StepDone, api.StepNA, api.StepOpen, api.StepUnknown)}, "2 of 4 steps done (1 N/A)"},
		{api.Procedure{Steps: steps(api.StepDone, api.StepOpen)}, "1 of 2 steps done"},
		{api.Procedure{Steps: steps(api.StepNA, api.StepNA), IsReadOnly: true}, "2 of 2 steps done (2 N/A) · read-only"},
		{api.Procedure{Steps: steps(api.StepOpen, api.StepOpen, api.StepOpen), IsMarkedNa: true}, "Marked N/A: none of its 3 steps is needed"},
	} {
		if got := Procedure(c.p); got != c.want {
			t.Errorf("Procedure(%v) = %q, want %q", c.p.Steps, got, c.want)
		}
	}
}
