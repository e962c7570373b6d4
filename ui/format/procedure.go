package format

import (
	"fmt"

	"github.com/workorderdesk/workdesk/api"
)

// Procedure is how far a procedure is, as the Summary and Procedures tabs
// say it. A step marked N/A counts as dealt with: "2 of 4 steps done
// (1 N/A)", not "1 of 4" as if it were still to do.
func Procedure(p api.Procedure) string {
	if p.IsMarkedNa {
		return fmt.Sprintf("Marked N/A: none of its %d steps is needed", len(p.Steps))
	}
	done, na := 0, 0
	for _, s := range p.Steps {
		if s.DealtWith() {
			done++
		}
		if s.Status == api.StepNA {
			na++
		}
	}
	s := fmt.Sprintf("%d of %d steps done", done, len(p.Steps))
	if na > 0 {
		s += fmt.Sprintf(" (%d N/A)", na)
	}
	if p.IsReadOnly {
		s += " · read-only"
	}
	return s
}
