package ui

import (
	"net/url"

	"github.com/workorderdesk/workdesk/api"
)

// The Summary tab (ui/summary) asks the window for the job sheet
// (ui/jobsheetview), which it heads; the sheet is opened in the system's
// PDF viewer as main chose (Deps.OpenURL), else as the app opens links.

func (h host) ShowJobSheet(wo *api.WorkOrder) { h.d.jobSheet.Show(wo) }

func (h host) OpenFile(u *url.URL) error {
	if h.d.deps.OpenURL != nil {
		return h.d.deps.OpenURL(u)
	}
	return h.d.app.OpenURL(u)
}
