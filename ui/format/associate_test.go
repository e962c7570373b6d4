package format

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestAnAssociateIsNamedWithWhatTheyAre: a person reads who goes as a
// technician or a subcontractor; a kind the service did not document is
// said as it came, and none at all adds nothing.
func TestAnAssociateIsNamedWithWhatTheyAre(t *testing.T) {
	kenji := api.Associate{Id: 1, Name: "Kenji Sato", Type: api.AssociateCruMember}
	delta := api.Associate{Id: 2, Name: "Delta Roofing", Type: api.AssociateSubcontractor}
	for _, c := range []struct {
		who  []api.Associate
		want string
	}{
		{[]api.Associate{kenji}, "Kenji Sato (technician)"},
		{[]api.Associate{kenji, delta}, "Kenji Sato (technician) and Delta Roofing (subcontractor)"},
		{[]api.Associate{{Name: "Ana Ruiz", Type: "Dispatcher"}}, "Ana Ruiz (Dispatcher)"},
		{[]api.Associate{{Name: "Ana Ruiz"}}, "Ana Ruiz"},
	} {
		if got := Associates(c.who); got != c.want {
			t.Errorf("Associates(%v) = %q; want %q", c.who, got, c.want)
		}
	}
}
