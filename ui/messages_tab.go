package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/messages"
)

// The Messages tab (ui/messages) has a refused message of ours put back
// in its form, sends with the window's Ctrl+Enter, and lets the window's
// other shortcuts work while the person types.

func (h host) Edit(r storage.OutboxRow)                         { h.d.editRefused(r) }
func (h host) Press(b *widget.Button, tab string, a api.Action) { h.d.press(b, tab, a) }
func (h host) Shortcut(s fyne.Shortcut) bool                    { return h.d.typedShortcut(s) }

// A refused message is corrected in the compose box.
var _ = correctIn(outbox.FormMessage, "in the Messages tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*messages.Tab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	d.unlessTyped(t.HoldsOther(draft), "The Messages tab holds a message you have not sent.", "message", func() {
		start(func() { t.EditDraft(draft.Text, draft.Visibility) })
	})
	return true
})
