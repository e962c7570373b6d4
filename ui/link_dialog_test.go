package ui

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
)

// workOrderFile is a work order of the demo world with a file, and the file.
func workOrderFile(h *harness) (int64, api.Attachment) {
	h.t.Helper()
	for _, r := range h.rows() {
		if atts, err := h.eng.Client.ListAttachments(context.Background(), r.Id); err == nil && len(atts) > 0 {
			return r.Id, atts[0]
		}
	}
	h.t.Fatal("no work order of the demo world has a file")
	return 0, api.Attachment{}
}
