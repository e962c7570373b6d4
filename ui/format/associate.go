package format

import "github.com/workorderdesk/workdesk/api"

// Associate names an associate with what they are, as the Visit tab and
// the Assign dialog say it: "Kenji Sato (technician)", "Delta Roofing
// (subcontractor)".
func Associate(a api.Associate) string {
	switch a.Type {
	case api.AssociateCruMember:
		return a.Name + " (technician)"
	case api.AssociateSubcontractor:
		return a.Name + " (subcontractor)"
	case "":
		return a.Name
	}
	return a.Name + " (" + string(a.Type) + ")"
}

// Associates names who, each with what they are, "A, B and C".
func Associates(who []api.Associate) string {
	names := make([]string, 0, len(who))
	for _, a := range who {
		names = append(names, Associate(a))
	}
	return List(names)
}
