package status

import (
	"fmt"
	"net/url"
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

// staleFailure reports that the last sync failed for want of an answer but
// the service (or hub) has answered since: "Offline: sync failed" is no
// longer true.
func staleFailure(failedAt, heard time.Time) bool {
	return !failedAt.IsZero() && heard.After(failedAt)
}

const officeModePrefix = "Office · "

// OfficeMode is the status bar's first words in office mode.
func OfficeMode(service, person string) string {
	mode := officeModePrefix + hostOf(service)
	if person != "" {
		mode += " · " + person
	}
	if storage.HubUnencrypted(service) {
		mode += " · unencrypted"
	}
	return mode
}

// hostOf shortens a service URL to its host for the status bar.
func hostOf(service string) string {
	if u, err := url.Parse(service); err == nil && u.Host != "" {
		return u.Host
	}
	return service
}

// queuedSuffix ends the note of an action just queued; the status bar turns
// it into sentSuffix once the outbox has nothing left to send, so the note
// never says "sending" about what was sent.
const (
	queuedSuffix = ": queued, sending…"
	sentSuffix   = ": sent"
)
