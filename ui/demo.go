package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
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

// customerMenu is the demo's "Customer" menu. Each action is tried on the
// open work order; the sandbox alone judges whether it applies, and a
// refusal is shown in its own words.
func (d *Desk) customerMenu() *fyne.Menu {
	c := d.deps.Customer
	onOpen := func(what string, act func(wo *api.WorkOrder) error) func() {
		return func() {
			wo := d.detail.wo
			if wo == nil {
				d.info("No work order open", "Open a work order first: the customer acts on the work order shown on the right.")
				return
			}
			d.asCustomer(what+" on "+wo.WorkOrderNumber, func() error { return act(wo) })
		}
	}
	invoice := func(status api.InvoiceStatus, comment string) func(*api.WorkOrder) error {
		return func(wo *api.WorkOrder) error { return c.SetInvoiceStatus(wo.WorkOrderId, status, comment) }
	}
	do := func(action, comment string) func(*api.WorkOrder) error {
		return func(wo *api.WorkOrder) error { return c.Do(wo.WorkOrderId, action, comment) }
	}
	return fyne.NewMenu("Customer",
		fyne.NewMenuItem("Approve the quote", onOpen("Quote approved",
			func(wo *api.WorkOrder) error { return c.ApproveQuote(wo.WorkOrderId) })),
		fyne.NewMenuItem("Reject the quote", onOpen("Quote rejected", func(wo *api.WorkOrder) error {
			return c.RejectQuote(wo.WorkOrderId, "Please itemise the parts and get a second supplier price")
		})),
		fyne.NewMenuItem("Request a quote", onOpen("Quote requested",
			func(wo *api.WorkOrder) error { return c.RequestQuote(wo.WorkOrderId) })),
		fyne.NewMenuItem("Change the NTE…", d.askNte),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Dispatch a new work order", func() {
			d.asCustomer("New work order dispatched", func() error { _, err := c.DispatchWorkOrder(); return err })
		}),
		fyne.NewMenuItemSeparator(),
		// A customer that verifies the work first holds its invoice in
		// PendingVerification until it has.
		fyne.NewMenuItem("Verify the work", onOpen("Work verified", do(api.ActionWorkVerified, ""))),
		fyne.NewMenuItem("Authorize the invoice", onOpen("Invoice authorized", invoice(api.InvoiceAuthorized, ""))),
		fyne.NewMenuItem("Pay the invoice", onOpen("Invoice paid", invoice(api.InvoicePaid, ""))),
		fyne.NewMenuItem("Dispute the invoice", onOpen("Invoice disputed",
			invoice(api.InvoiceDisputed, "Total exceeds the approved NTE"))),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Mark a procedure N/A…", d.askProcedureNA),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Send a message", onOpen("Customer wrote", do(api.ActionMessageSent, ""))),
		fyne.NewMenuItem("Attach a file", onOpen("Customer attached a file", do(api.ActionAttachmentAdded, ""))),
		fyne.NewMenuItem("Move the deadlines a day later", onOpen("Deadlines moved", do(api.ActionSlaChanged, ""))),
		fyne.NewMenuItem("Put on hold", onOpen("Put on hold", do(api.ActionPutOnHold, ""))),
		fyne.NewMenuItem("Reopen", onOpen("Reopened", do(api.ActionReopened, ""))),
		fyne.NewMenuItem("Recall", onOpen("Recalled", do(api.ActionRecalled, "Sent to us twice; the other work order stays."))),
	)
}

// asCustomer runs a control call off the main goroutine; its effect arrives
// later as a notification, which refreshes the window. A refusal is shown
// in the sandbox's own words under a plain title.
func (d *Desk) asCustomer(what string, call func() error) {
	d.deps.Background(func() {
		err := call()
		d.do(func() {
			if err != nil {
				d.info("The customer could not do that", format.Capital(format.Error(err)))
				return
			}
			d.status.Flash(what + " — watch for the notification")
		})
	})
}

func (d *Desk) askNte() {
	wo := d.detail.wo
	if wo == nil {
		d.info("No work order open", "Open a work order first: the customer changes the NTE of the work order shown on the right.")
		return
	}
	entry := dialogs.NewEntry()
	entry.SetText(wo.Nte.Amount.Amount.StringFixed(int32(api.MinorUnits(wo.Currency))))
	dialogs.ShowForm("Customer changes the NTE of "+wo.WorkOrderNumber, "Change", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("New NTE ("+wo.Currency+", 0 = no limit)", entry)},
		func(ok bool) {
			if !ok {
				return
			}
			m, err := api.NewMoney(strings.ReplaceAll(entry.Text, ",", ""), wo.Currency)
			if err != nil || m.Amount.IsNegative() || !m.FitsMinorUnits() {
				form := "a whole number"
				if minor := api.MinorUnits(wo.Currency); minor > 0 {
					form = fmt.Sprintf("a number with at most %d decimals", minor)
				}
				d.info("Not a valid NTE", fmt.Sprintf("%q is not a valid %s amount: type %s, or 0 for no limit.", entry.Text, wo.Currency, form))
				return
			}
			id := wo.WorkOrderId
			d.asCustomer("NTE changed on "+wo.WorkOrderNumber, func() error { return d.deps.Customer.SetNte(id, m.Amount) })
		}, d.win)
}

func (d *Desk) askProcedureNA() {
	wo := d.detail.wo
	if wo == nil {
		d.info("No work order open", "Open a work order that has procedures first.")
		return
	}
	if len(wo.Procedures()) == 0 {
		d.info("No procedures", "This work order has no procedures to mark N/A.")
		return
	}
	var names []string
	for _, p := range wo.Procedures() {
		names = append(names, p.Name)
	}
	sel := widget.NewSelect(names, nil)
	sel.SetSelectedIndex(0)
	dialogs.ShowForm("Customer marks a procedure N/A", "Mark N/A", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Procedure", sel)},
		func(ok bool) {
			if !ok || sel.SelectedIndex() < 0 {
				return
			}
			p := wo.Procedures()[sel.SelectedIndex()]
			woID := wo.WorkOrderId
			d.asCustomer(p.Name+" marked N/A", func() error { return d.deps.Customer.MarkProcedure(woID, p.Id, true, p.IsReadOnly) })
		}, d.win)
}

// confirmResetDemo asks before File › Reset demo forgets the demo's work:
// it survives restarts, so starting over is a choice, not an accident.
func (d *Desk) confirmResetDemo() {
	dialogs.Final("Reset the demo?",
		"The demo keeps what was done in it across restarts. Resetting forgets every change and starts again from the original work orders.",
		"Reset demo", true, func(ok bool) {
			if ok {
				d.deps.ResetDemo()
			}
		}, d.win)
}
