package ui

import (
	"errors"
	"net/url"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// openURL asks the system to open a download link in a browser; an error
// says it did not (no browser, no opener), in plain words. It may wait on
// the system: call it off the main goroutine.
func (d *Desk) openURL(link api.DownloadURL) error {
	u, err := url.Parse(link.URL)
	if err != nil {
		return errors.New("the service returned an invalid download link")
	}
	open := d.deps.OpenURL
	if open == nil {
		open = d.app.OpenURL
	}
	return open(u)
}

// Accept and Reject… (ui/decision) act on the work order the detail shows
// or on the list's ticked rows, and show a bulk action's results.

func (h host) Shown() (*api.WorkOrder, fyne.Disableable, fyne.Disableable) {
	return h.d.detail.wo, h.d.detail.accept, h.d.detail.reject
}
func (h host) BulkControls() []fyne.Disableable { return h.d.list.BulkControls() }
func (h host) KeepInList(ids ...int64)          { h.d.list.Keep(ids...) }

func (h host) ShowResults(title string, row *storage.OutboxRow, ids []int64) {
	h.d.results.Show(title, row, ids)
}

// A refused rejection is corrected in its reason dialog.
var _ = correctIn(outbox.FormReason, "in the reason dialog", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	start(func() { d.decision.ShowRejectWith([]int64{v.wo.WorkOrderId}, draft.Text, d.stopCorrecting) })
	return true
})
