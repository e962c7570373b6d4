// Package invoice is the Invoice tab of a work order: the invoice built
// from the customer's price list and the contractor's own lines, weighed
// against the NTE, saved, submitted or deleted through the outbox, with
// its files. It depends only on the small interfaces below, never on the
// window that shows it, so it is tested against a fake (fake_test.go).
package invoice

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/files"
)

// Replica is what the tab reads of the local replica (a *storage.Store).
// Reads run on the main goroutine: each is one row by index.
type Replica interface {
	Invoice(ctx context.Context, woID int64) (*api.Invoice, error)
	PriceList(ctx context.Context, woID int64) (*api.PriceList, error)
	// InvoiceNotice is what the customer's latest invoice notification said.
	InvoiceNotice(ctx context.Context, woID int64) (*storage.InvoiceNotice, error)
	InvoiceAttachments(ctx context.Context, woID int64) ([]api.Attachment, error)
	// OutboxRow and OutboxRows are our queued actions: a save the draft
	// waits for, the last invoice action, files on their way.
	OutboxRow(ctx context.Context, id int64) (*storage.OutboxRow, error)
	OutboxRows(ctx context.Context, woID int64) ([]storage.OutboxRow, error)
}

// Queue turns the person's invoice actions into outbox rows (a
// *storage.Store). Its calls may wait for the replica's writer: the tab
// makes them only inside Window.Act's or the file panel's writes, off the
// main goroutine.
type Queue interface {
	SaveInvoice(ctx context.Context, woID int64, inv api.Invoice) (*storage.OutboxRow, error)
	SubmitInvoice(ctx context.Context, woID int64, submitAnyway bool) (*storage.OutboxRow, error)
	DeleteInvoice(ctx context.Context, woID int64) (*storage.OutboxRow, error)
	AddInvoiceAttachment(ctx context.Context, woID int64, path string) (*storage.OutboxRow, error)
	RemoveInvoiceAttachment(ctx context.Context, woID int64, attachmentID string) (*storage.OutboxRow, error)
}

// Links asks the service for a temporary link to one of the invoice's
// files (the window's connection; called off the main goroutine, and only
// while files.Host says it is connected).
type Links interface {
	InvoiceAttachmentLink(ctx context.Context, woID int64, attachmentID string) (api.DownloadURL, error)
}

// Window is what the tab needs of the window around it: its file panel's
// needs (files.Host: dialogs, errors, the queued note), and the actions it
// starts.
type Window interface {
	files.Host
	// Act queues an action the controls started: write runs off the main
	// goroutine, done gets its error back on it. The controls stay
	// disabled until then, whatever the rules say meanwhile (Enable), and
	// a tap on one whose action is still being queued is ignored.
	Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error))
	// Busy reports whether an action w started is still being queued.
	Busy(w fyne.Disableable) bool
	// Enable sets w as the rules have it, unless an action w started is
	// still being queued: then it takes that state once the action is back.
	Enable(w fyne.Disableable, on bool)
	// Replacing is the context to queue an action on work order woID from
	// the form of group with: while the person corrects a refused action
	// there, the new one replaces it. Read it when the person acts.
	Replacing(woID int64, group outbox.Group) context.Context
}

// Elsewhere is what the tab asks of the other views of the work order.
type Elsewhere interface {
	// QuoteAllowed says whether a quote can be submitted now, and why not,
	// as the Quote tab words it.
	QuoteAllowed(wo *api.WorkOrder) (ok bool, why string)
	// RequestNte opens the Quote tab filled with total and lines, and
	// reason, for the person to submit as an NTE increase.
	RequestNte(total api.Money, lines []api.LineItem, reason string)
	// WriteToCustomer opens the Messages tab with text addressed to the
	// customer, for the person to read over and send.
	WriteToCustomer(text string)
}
