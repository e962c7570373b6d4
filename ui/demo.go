package ui

import (
	"context"
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

// EventReceived is called (from any goroutine) after a verified notification
// was applied to the replica: the customer's decisions raise a desktop
// notification, since the person may be looking elsewhere.
func (d *Desk) EventReceived(ev api.Event) {
	// Read here, off the window's goroutine: the event is in the replica.
	wo, err := d.store.WorkOrder(context.Background(), ev.Header.WorkOrderId)
	if err != nil {
		wo = nil
	}
	d.do(func() {
		if title, body := notificationFor(ev, wo); title != "" {
			d.notifyCustomer(title, body)
		}
	})
}

// notificationFor words a desktop notification, or returns "" for events
// that do not deserve one. Every title is "<what> <happened>: <number>"
// ("Invoice authorized: NWR73267"), every body a sentence. wo is the work
// order as the replica has it after the event (nil when it has none):
// through the office hub an event carries no body of the customer's, so
// what it names comes from there.
func notificationFor(ev api.Event, wo *api.WorkOrder) (title, body string) {
	number, currency, customer := fmt.Sprintf("work order %d", ev.Header.WorkOrderId), "", ""
	if wo != nil {
		number, currency, customer = wo.WorkOrderNumber, wo.Currency, wo.Customer.Name
	}
	switch b := ev.Body.(type) {
	case *api.QuoteChangedEvent:
		switch b.Quote.QuoteStatus {
		case api.QuoteApproved:
			return "Quote approved: " + number, "The NTE is now " + format.Money(b.Quote.Amount.In(currency)) + "."
		case api.QuoteRejected:
			if why := format.Sentence(b.Quote.Comment); why != "" {
				return "Quote rejected: " + number, "The customer rejected the quote: " + why
			}
			return "Quote rejected: " + number, "The customer rejected the quote."
		case api.QuoteRequested:
			return "Quote requested: " + number, "The customer asks for a quote."
		}
	case *api.NteChangedEvent:
		return "NTE changed: " + number, "The customer set the NTE to " + format.Nte(b.Amount.In(currency)) + "."
	case *api.NewWorkOrderEvent:
		if b.Details.WorkOrderNumber != "" {
			number = b.Details.WorkOrderNumber
		}
		if b.Details.Customer.Name != "" {
			customer = b.Details.Customer.Name
		}
		msg := b.Details.AccompanyingMessage
		if msg == "" && wo != nil {
			msg = wo.AccompanyingMessage
		}
		body := "A customer sent a new work order."
		if customer != "" {
			body = customer + " sent a new work order."
		}
		if msg := format.Sentence(msg); msg != "" {
			body += " " + msg
		}
		return "New work order: " + number, body
	case *api.InvoiceStatusChangedEvent:
		return "Invoice " + strings.ToLower(format.Status(b.Status)) + ": " + number, invoiceNews(b)
	}
	return "", ""
}

// invoiceNews says in sentences what the customer did with the invoice.
func invoiceNews(b *api.InvoiceStatusChangedEvent) string {
	comment := format.Sentence(b.Comment)
	var s string
	switch b.Status {
	case api.InvoiceAuthorized:
		s = "The customer authorized the invoice."
		if b.AuthNumber != "" {
			s += " Authorization " + b.AuthNumber + "."
		}
	case api.InvoicePaid:
		s = "The customer paid the invoice."
		if b.CheckNumber != "" {
			s += " Check " + b.CheckNumber + "."
		}
	case api.InvoiceDisputed:
		if comment != "" {
			return "The customer disputed the invoice: " + comment
		}
		return "The customer disputed the invoice."
	case api.InvoicePendingVerification:
		s = "The customer is verifying the invoice."
	default:
		s = "The invoice is now " + strings.ToLower(format.Status(b.Status)) + "."
	}
	if comment != "" {
		s += " The customer says: " + comment
	}
	return s
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
