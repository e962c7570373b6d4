package ui

import (
	"fmt"
	"time"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// The status bar says who is not answering within seconds, in the place
// where "Synced 03:36" would otherwise go on looking fine: the office hub,
// or the customer's service (directly, or as the hub reports it), since
// when, and how many actions wait for it. The first answer to anything
// clears it.

// silenceText words who is silent: "Customer's service not answering since
// 03:36 · 2 actions waiting".
func silenceText(s storage.Silence, office bool, waiting int) string {
	who := "Customer's service not answering"
	switch {
	case s.Who == storage.SilentHub:
		who = "Office hub not answering"
	case office:
		who = "Customer's service not answering the office hub"
	}
	text := who + " since " + format.Clock(s.Since)
	switch waiting {
	case 0:
	case 1:
		text += " · 1 action waiting"
	default:
		text += fmt.Sprintf(" · %d actions waiting", waiting)
	}
	return text
}

// ConnectivityChanged is called (from any goroutine) when who is silent
// changes. When the silent side answers again, a sync follows at once: the
// replica catches up, and a failed sync stops being the last word.
func (d *Desk) ConnectivityChanged() {
	d.do(func() {
		was, failed := d.status.silent, d.status.lastErr != nil
		d.status.refresh()
		if was != nil && d.status.silent == nil && failed {
			d.syncNow(nil)
		}
	})
}

// staleFailure reports that the last sync failed for want of an answer but
// the service (or hub) has answered since: "Offline: sync failed" is no
// longer true.
func staleFailure(failedAt, heard time.Time) bool {
	return !failedAt.IsZero() && heard.After(failedAt)
}
