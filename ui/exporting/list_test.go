package exporting

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestAssignedSpellsEveryName: an export's Assigned cell spells every
// name in full, where the list shows initials; it is empty for nobody,
// reads as the list does where the service did not say who goes, and
// keeps the list's mark where others may be assigned too.
func TestAssignedSpellsEveryName(t *testing.T) {
	ann, bo := api.Associate{Id: 1, Name: "Ann Lee"}, api.Associate{Id: 2, Name: "Bo Ng"}
	for _, c := range []struct {
		a    storage.Assignees
		want string
	}{
		{storage.Assignees{}, "unknown"},
		{storage.Assignees{Known: true}, ""},
		{storage.Assignees{Known: true, Who: []api.Associate{ann}}, "Ann Lee"},
		{storage.Assignees{Known: true, Who: []api.Associate{ann, bo}}, "Ann Lee, Bo Ng"},
		{storage.Assignees{Known: true, Partial: true, Who: []api.Associate{ann}}, "Ann Lee +?"},
	} {
		if got := Assigned(words{}, c.a); got != c.want {
			t.Errorf("Assigned(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}
