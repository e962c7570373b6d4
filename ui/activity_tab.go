package ui

import "github.com/workorderdesk/workdesk/storage"

// The Activity tab (ui/activity) retries and discards our refused actions
// through the window's outbox, and asks it what a colleague did first.

func (h host) Retry(rowID int64)   { h.d.detail.outbox.Retry(rowID) }
func (h host) Discard(rowID int64) { h.d.detail.outbox.Discard(rowID) }

func (h host) ColleagueFirst(woID int64, r storage.OutboxRow) string {
	return h.d.colleagueFirst(woID, r)
}

func (h host) OfficePerson() string { return h.d.officePerson() }
