package pending

import (
	"context"

	"github.com/workorderdesk/workdesk/storage"
)

// An action stopped before it was sent because only the person can decide
// (storage.OutboxRow.Asked: the internal note changed since their edit
// began) waits in the header with the question its table entry words.

// keepMine sends a stopped action over what stopped it.
func (h *Header) keepMine(r storage.OutboxRow) {
	store, id, q := h.queue, r.Id, r.Asked()
	var row *storage.OutboxRow
	h.win.Write(func(ctx context.Context) (err error) {
		row, err = store.KeepMine(ctx, id)
		return err
	}, func(err error) {
		if err != nil {
			h.win.ShowError(err)
			return
		}
		if q != nil {
			h.win.Queued(r.Kind.Noun() + ": " + q.QueuedWords)
		}
		h.win.Changed(row.WorkOrderIds)
	})
}

// takeTheirs gives up a stopped action: what stopped it stays.
func (h *Header) takeTheirs(id int64) {
	h.win.EndCorrecting(id)
	h.discardRow(id)
}
