package ui

import "github.com/workorderdesk/workdesk/api"

// The demo's Customer menu and File › Reset demo… (ui/demo) act on the
// work order the detail shows and say what the customer did in the
// status bar.

func (h host) WorkOrderShown() *api.WorkOrder { return h.d.detail.wo }
func (h host) Flash(text string)              { h.d.status.Flash(text) }
