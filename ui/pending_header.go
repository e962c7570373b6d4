package ui

import (
	"slices"

	"github.com/workorderdesk/workdesk/storage"
)

// The header's lines about the open work order's waiting and refused
// actions (ui/pending) ask the window to show work orders again once an
// action is answered, and about the correction of a refused action; the
// notice of a refusal tells the desktop and the status bar; a bulk
// action's results follow the replica.

func (h host) Changed(ids []int64)                       { h.d.changed(ids) }
func (h host) CorrectingHint(r storage.OutboxRow) string { return correctingHint(r) }

func (h host) Alert(rowID int64, msg string)  { h.d.status.Alert(rowID, msg) }
func (h host) Settled(refused map[int64]bool) { h.d.status.Settled(refused) }

func (h host) NotifyDesktop(title, body string) {
	if n := h.d.notifier(); n != nil {
		n.Notify(title, body, false)
	}
}

func (h host) Subscribe(f func(ids []int64)) (cancel func()) {
	return h.d.store.Subscribe(h.d.coalesced(f))
}

func (h host) EndCorrecting(rowID int64) {
	if c := h.d.correcting; c != nil && c.row == rowID {
		h.d.correcting = nil
	}
}

// renderOutbox shows the open work order's waiting and refused actions in
// its header.
func (v *detailView) renderOutbox() {
	p := v.pending
	if p == nil {
		return
	}
	if c := v.d.correcting; c != nil && c.wo == p.Expected.WorkOrderId && !slices.ContainsFunc(p.Refused, func(r storage.OutboxRow) bool { return r.Id == c.row }) {
		v.d.correcting = nil // corrected (replaced), retried or discarded
	}
	v.outbox.Show(p)
}
