package ui

import (
	"context"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
)

// lastActionText describes the newest of our actions on work order woID.
func lastActionText(store *storage.Store, woID int64) string {
	rows, err := store.OutboxRows(context.Background(), woID)
	if err != nil || len(rows) == 0 {
		return ""
	}
	latest := rows[0]
	for _, r := range rows {
		if r.Created.After(latest.Created) || (r.Created.Equal(latest.Created) && r.Id > latest.Id) {
			latest = r
		}
	}
	return "Last action: " + actiontext.What(latest) + " — " + actiontext.State(latest)
}
