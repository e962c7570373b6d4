package ui

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// filePlace is where files live, as the panel needs to know it: what the
// rules allow, how the files are read, and how changes are queued. The
// functions run off the main goroutine unless they say otherwise, so they
// capture what they need when the place is made.
type filePlace struct {
	key   string // another key is another place: its files are listed afresh
	woID  int64  // the work order whose outbox holds our changes
	what  string // what files are added to, in the "queued" note: "SMJ73264", "the step"
	from  string // what a file is removed from: "the invoice"
	noun  string // the files, for "Loading the step's files…"
	note  string // shown above the buttons: a hint, or why nothing may change
	warn  bool   // the note is a warning
	empty string // said while there are no files: "No files on this step."

	whyNot    string // why files cannot be added now; "" when they can
	canRemove bool   // the rules let the files be removed now

	// live: listed from the service each time the place is shown anew and
	// after one of our changes to it was answered; otherwise list reads
	// the replica, on the main goroutine (see background.go).
	live bool
	list func(ctx context.Context) ([]api.Attachment, error)
	// add is called on the main goroutine (it may read the tab's widgets)
	// and returns the store write that copies the file and queues it.
	add func(path string) func(ctx context.Context) error
	// remove, likewise; nil when the service never removes these files.
	remove func(id string) func(ctx context.Context) error
	link   func(ctx context.Context, id string) (api.DownloadURL, error)
	mine   func(storage.OutboxRow) bool // our changes to these files
}
