// Package demo is what the demo adds to the window: the Customer menu,
// which acts as the customer (or a colleague outside the app) on the
// open work order through the sandbox's control API, each action
// reaching the app as a signed notification would in production, and
// File › Reset demo…'s question. It depends only on the small interfaces
// below, never on the window that shows it, so it is tested against a
// fake (fake_test.go).
package demo

import (
	"fyne.io/fyne/v2"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
)

// Customer acts as the customer in demo mode, through the sandbox's control
// API. main hands one in demo mode and nil in live mode, so ui never
// imports the sandbox. Each action reaches the app the way it would in
// production: as a signed notification to the receiver.
type Customer interface {
	ApproveQuote(id int64) error
	RejectQuote(id int64, reason string) error
	RequestQuote(id int64) error
	SetNte(id int64, amount decimal.Decimal) error
	DispatchWorkOrder() (api.WorkOrder, error)
	SetInvoiceStatus(id int64, status api.InvoiceStatus, comment string) error
	MarkProcedure(woID, procID int64, na bool, readOnly bool) error
	// Do makes one of the service's documented notification actions happen
	// (api.DocumentedActions), as the customer or a colleague outside the
	// app would, with comment as its reason or text ("" picks one).
	Do(id int64, action, comment string) error
}

// Window is what the Customer menu needs of the window around it.
type Window interface {
	// Window is the window its dialogs are shown over.
	Window() fyne.Window
	// WorkOrderShown is the work order the detail shows (nil: none): the
	// customer acts on it.
	WorkOrderShown() *api.WorkOrder
	// Info tells the person something, titled, in a dialog.
	Info(title, msg string)
	// Background runs f off the main goroutine; Do hands f back to it.
	Background(f func())
	Do(f func())
	// Flash says, in the status bar, what the customer did.
	Flash(text string)
}
