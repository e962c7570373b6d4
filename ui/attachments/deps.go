// Package attachments is the Attachments tab of a work order: its files,
// listed from the replica, added (with who may see them) through the
// outbox, and opened through a temporary link from the service. There is
// no remove: the service does not let contractors delete them. It
// depends only on the small interfaces below, never on the window that
// shows it, so it is tested against a fake (fake_test.go).
package attachments

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/files"
)

// Replica is what the tab reads of the local replica (a *storage.Store):
// the work order's files, and our queued actions, so that files on their
// way are shown.
type Replica interface {
	files.Outbox
	Attachments(ctx context.Context, woID int64) ([]api.Attachment, error)
}

// Queue copies a file and queues it for the work order (a
// *storage.Store). It may wait for the replica's writer: the file panel
// calls it only inside files.Host's Write, off the main goroutine.
type Queue interface {
	AttachFile(ctx context.Context, woID int64, path string, vis api.MessageVisibility) (*storage.OutboxRow, error)
}

// Links asks the service for a temporary link to one of the work order's
// files (the window's connection). It is called off the main goroutine,
// and only while files.Host says it is connected.
type Links interface {
	AttachmentLink(ctx context.Context, woID int64, attachmentID string) (api.DownloadURL, error)
}

// Window is what the tab needs of the window around it: its file panel's
// needs (dialogs, errors, the queued note, work off the main goroutine).
type Window interface {
	files.Host
}
