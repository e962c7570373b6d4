package demo

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// customer is the Customer menu's actions, acting as c over win.
type customer struct {
	c   Customer
	win Window
}

// Menu is the demo's "Customer" menu. Each action is tried on the open
// work order; the sandbox alone judges whether it applies, and a refusal
// is shown in its own words.
func Menu(c Customer, win Window) *fyne.Menu {
	d := &customer{c: c, win: win}
	onOpen := func(what string, act func(wo *api.WorkOrder) error) func() {
		return func() {
			wo := d.win.WorkOrderShown()
			if wo == nil {
				d.win.Info("No work order open", "Open a work order first: the customer acts on the work order shown on the right.")
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
func (d *customer) asCustomer(what string, call func() error) {
	d.win.Background(func() {
		err := call()
		d.win.Do(func() {
			if err != nil {
				d.win.Info("The customer could not do that", format.Capital(format.Error(err)))
				return
			}
			d.win.Flash(what + " — watch for the notification")
		})
	})
}

func (d *customer) askNte() {
	wo := d.win.WorkOrderShown()
	if wo == nil {
		d.win.Info("No work order open", "Open a work order first: the customer changes the NTE of the work order shown on the right.")
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
				d.win.Info("Not a valid NTE", fmt.Sprintf("%q is not a valid %s amount: type %s, or 0 for no limit.", entry.Text, wo.Currency, form))
				return
			}
			id := wo.WorkOrderId
			d.asCustomer("NTE changed on "+wo.WorkOrderNumber, func() error { return d.c.SetNte(id, m.Amount) })
		}, d.win.Window())
}

func (d *customer) askProcedureNA() {
	wo := d.win.WorkOrderShown()
	if wo == nil {
		d.win.Info("No work order open", "Open a work order that has procedures first.")
		return
	}
	if len(wo.Procedures()) == 0 {
		d.win.Info("No procedures", "This work order has no procedures to mark N/A.")
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
			d.asCustomer(p.Name+" marked N/A", func() error { return d.c.MarkProcedure(woID, p.Id, true, p.IsReadOnly) })
		}, d.win.Window())
}

// ConfirmReset asks, over win, before File › Reset demo forgets the
// demo's work (reset): it survives restarts, so starting over is a
// choice, not an accident.
func ConfirmReset(win fyne.Window, reset func()) {
	dialogs.Final("Reset the demo?",
		"The demo keeps what was done in it across restarts. Resetting forgets every change and starts again from the original work orders.",
		"Reset demo", true, func(ok bool) {
			if ok {
				reset()
			}
		}, win)
}
