package ui

import (
	"context"

	"github.com/workorderdesk/workdesk/storage"
)

// An action stopped before it was sent because only the person can decide
// (storage.OutboxRow.Asked: the internal note changed since their edit
// began) waits in the header with the question its table entry words.

// keepMine sends a stopped action over what stopped it.
func (d *Desk) keepMine(r storage.OutboxRow) {
	store, id, q := d.store, r.Id, r.Asked()
	var row *storage.OutboxRow
	d.write(func(ctx context.Context) (err error) {
		row, err = store.KeepMine(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		if q != nil {
			d.status.Queued(r.Kind.Noun() + ": " + q.QueuedWords)
		}
		d.changed(row.WorkOrderIds)
	})
}

// takeTheirs gives up a stopped action: what stopped it stays.
func (d *Desk) takeTheirs(id int64) {
	if c := d.correcting; c != nil && c.row == id {
		d.correcting = nil
	}
	d.discardRow(id)
}
