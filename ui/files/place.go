package files

import (
	"context"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// Place is where files live, as the panel needs to know it: what the
// rules allow, how the files are read, and how changes are queued. The
// functions run off the main goroutine unless they say otherwise, so they
// capture what they need when the place is made.
type Place struct {
	Key   string // another key is another place: its files are listed afresh
	WoID  int64  // the work order whose outbox holds our changes
	What  string // what files are added to, in the "queued" note: "SMJ73264", "the step"
	From  string // what a file is removed from: "the invoice"
	Noun  string // the files, for "Loading the step's files…"
	Note  string // shown above the buttons: a hint, or why nothing may change
	Warn  bool   // the note is a warning
	Empty string // said while there are no files: "No files on this step."

	WhyNot    string // why files cannot be added now; "" when they can
	CanRemove bool   // the rules let the files be removed now

	// Live: listed from the service each time the place is shown anew and
	// after one of our changes to it was answered; otherwise List reads
	// the replica, on the main goroutine (reads of the replica are quick).
	Live bool
	List func(ctx context.Context) ([]api.Attachment, error)
	// Add is called on the main goroutine (it may read the tab's widgets)
	// and returns the store write that copies the file and queues it.
	Add func(path string) func(ctx context.Context) error
	// Remove, likewise; nil when the service never removes these files.
	Remove func(id string) func(ctx context.Context) error
	Link   func(ctx context.Context, id string) (api.DownloadURL, error)
	Mine   func(storage.OutboxRow) bool // our changes to these files
}
