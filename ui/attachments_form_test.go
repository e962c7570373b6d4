package ui

import (
	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/ui/attachments"
	"github.com/workorderdesk/workdesk/ui/files"
)

// The Attachments tab lives in ui/attachments, tested there against a
// fake; the whole-window tests of flows that cross views (files dropped
// on the window, the outbox sending them, the file pickers) reach its
// file panel as a person sees it.

// attachmentsOf is the window's Attachments tab's file panel.
func attachmentsOf(h *harness) *files.Panel {
	h.t.Helper()
	for i, tb := range h.desk.detail.tabs {
		if _, ok := tb.(*attachments.Tab); !ok {
			continue
		}
		var found *files.Panel
		everything(h.desk.detail.appTabs.Items[i].Content, func(o fyne.CanvasObject) bool {
			if p, ok := o.(*files.Panel); ok && found == nil {
				found = p
			}
			return found != nil
		})
		if found == nil {
			h.t.Fatal("the Attachments tab shows no files")
		}
		return found
	}
	h.t.Fatal("no Attachments tab")
	return nil
}
