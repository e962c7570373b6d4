package ui

import "github.com/workorderdesk/workdesk/api"

// The Summary tab (ui/summary) asks the window for the job sheet, which it
// heads.

func (h host) ShowJobSheet(wo *api.WorkOrder) { h.d.showJobSheet(wo) }
