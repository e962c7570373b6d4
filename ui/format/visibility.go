package format

import "github.com/workorderdesk/workdesk/api"

// visibilityLabels say who sees a message or a file, in the service's
// terms.
var visibilityLabels = map[api.MessageVisibility]string{
	api.VisibilityAll:      "Customer and crew",
	api.VisibilityCruOnly:  "Our crew only",
	api.VisibilityCruLeads: "Customer, crew leads",
	api.VisibilityCruSubs:  "Crew, subcontractors",
	api.VisibilityNone:     "Nobody (record only)",
}

// Visibility says who sees a message or a file ("Our crew only"); "" for
// a visibility the service does not document.
func Visibility(v api.MessageVisibility) string { return visibilityLabels[v] }
