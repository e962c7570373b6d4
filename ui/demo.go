package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
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
}

// customerMenu is the demo's "Customer" menu. An action that cannot apply
// to the open work order says why in a plain dialog before anything is sent.
func (d *Desk) customerMenu() *fyne.Menu {
	c := d.deps.Customer
	// onOpen acts on the open work order once cannot (the sandbox's own
	// rules, read from the replica) finds nothing in the way.
	onOpen := func(what, title string, cannot func(wo *api.WorkOrder) string, act func(wo *api.WorkOrder) error) func() {
		return func() {
			wo := d.detail.wo
			if wo == nil {
				d.info("No work order open", "Open a work order first: the customer acts on the work order shown on the right.")
				return
			}
			if why := cannot(wo); why != "" {
				d.info(title, why)
				return
			}
			d.asCustomer(what+" on "+wo.WorkOrderNumber, func() error { return act(wo) })
		}
	}
	invoice := func(status api.InvoiceStatus, comment string) func(*api.WorkOrder) error {
		return func(wo *api.WorkOrder) error { return c.SetInvoiceStatus(wo.WorkOrderId, status, comment) }
	}
	invoiceCannot := func(to api.InvoiceStatus) func(*api.WorkOrder) string {
		return func(wo *api.WorkOrder) string { return d.invoiceMoveBlocked(wo, to) }
	}
	return fyne.NewMenu("Customer",
		fyne.NewMenuItem("Approve the quote", onOpen("Quote approved", "No quote to approve", approveBlocked,
			func(wo *api.WorkOrder) error { return c.ApproveQuote(wo.WorkOrderId) })),
		fyne.NewMenuItem("Reject the quote", onOpen("Quote rejected", "No quote to reject", rejectQuoteBlocked, func(wo *api.WorkOrder) error {
			return c.RejectQuote(wo.WorkOrderId, "Please itemise the parts and get a second supplier price")
		})),
		fyne.NewMenuItem("Request a quote", onOpen("Quote requested", "A quote cannot be requested", requestQuoteBlocked,
			func(wo *api.WorkOrder) error { return c.RequestQuote(wo.WorkOrderId) })),
		fyne.NewMenuItem("Change the NTE…", d.askNte),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Dispatch a new work order", func() {
			d.asCustomer("New work order dispatched", func() error { _, err := c.DispatchWorkOrder(); return err })
		}),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Authorize the invoice", onOpen("Invoice authorized", "No invoice to authorize",
			invoiceCannot(api.InvoiceAuthorized), invoice(api.InvoiceAuthorized, ""))),
		fyne.NewMenuItem("Pay the invoice", onOpen("Invoice paid", "No invoice to pay",
			invoiceCannot(api.InvoicePaid), invoice(api.InvoicePaid, ""))),
		fyne.NewMenuItem("Dispute the invoice", onOpen("Invoice disputed", "No invoice to dispute",
			invoiceCannot(api.InvoiceDisputed), invoice(api.InvoiceDisputed, "Total exceeds the approved NTE"))),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Mark a procedure N/A…", d.askProcedureNA),
	)
}

// approveBlocked says why the customer cannot approve wo's quote, or "".
func approveBlocked(wo *api.WorkOrder) string {
	q := wo.Nte.Quote
	switch {
	case q == nil:
		return "This work order has no quote to approve."
	case q.QuoteStatus != api.QuoteSubmitted:
		return "This work order has no submitted quote to approve: its quote is " + strings.ToLower(statusText(q.QuoteStatus)) + "."
	}
	return ""
}

// rejectQuoteBlocked says why the customer cannot reject wo's quote, or "".
func rejectQuoteBlocked(wo *api.WorkOrder) string {
	q := wo.Nte.Quote
	switch {
	case q == nil:
		return "This work order has no quote to reject."
	case q.QuoteStatus != api.QuoteSubmitted && q.QuoteStatus != api.QuoteApproved:
		return "This work order has no submitted or approved quote to reject: its quote is " + strings.ToLower(statusText(q.QuoteStatus)) + "."
	}
	return ""
}

// requestQuoteBlocked says why the customer cannot ask for a quote on wo, or "".
func requestQuoteBlocked(wo *api.WorkOrder) string {
	if wo.Status == api.StatusRejected || wo.Status == api.StatusRecalled {
		return "The customer cannot ask for a quote on a " + strings.ToLower(statusText(wo.Status)) + " work order."
	}
	if q := wo.Nte.Quote; q != nil && q.QuoteStatus != api.QuoteRejected {
		return "This work order already has a quote (" + strings.ToLower(statusText(q.QuoteStatus)) +
			"): the customer asks for one only when there is none, or after rejecting the last."
	}
	return ""
}

// invoiceMoveBlocked says why the customer cannot move wo's invoice to
// status, or "". An invoice the replica has not fetched is left to the
// sandbox to judge.
func (d *Desk) invoiceMoveBlocked(wo *api.WorkOrder, to api.InvoiceStatus) string {
	inv, err := d.store.Invoice(context.Background(), wo.WorkOrderId)
	if err != nil || inv == nil {
		return ""
	}
	from := inv.Status
	var ok bool
	var need string
	switch to {
	case api.InvoiceAuthorized:
		ok, need = from == api.InvoiceSubmitted || from == api.InvoicePendingVerification, "the customer authorizes only a submitted invoice"
	case api.InvoicePaid:
		ok, need = from == api.InvoiceAuthorized, "the customer pays only an authorized invoice"
	case api.InvoiceDisputed:
		ok, need = from == api.InvoiceSubmitted || from == api.InvoicePendingVerification || from == api.InvoiceAuthorized,
			"the customer disputes only a submitted or authorized invoice"
	default:
		return ""
	}
	if ok {
		return ""
	}
	why := "The invoice of this work order is " + strings.ToLower(statusText(from)) + ": " + need + "."
	if from == api.InvoiceDraft || from == "" {
		why += " Save and submit it on the Invoice tab first."
	}
	return why
}

// asCustomer runs a control call off the main goroutine; its effect arrives
// later as a notification, which refreshes the window. A refusal is shown
// in the sandbox's own words under a plain title.
func (d *Desk) asCustomer(what string, call func() error) {
	d.deps.Background(func() {
		err := call()
		d.do(func() {
			if err != nil {
				msg := err.Error()
				var apiErr *api.Error
				if errors.As(err, &apiErr) && apiErr.Message != "" {
					msg = apiErr.Message
				}
				d.info("The customer could not do that", sentence(msg))
				return
			}
			d.status.flash(what + " — watch for the notification")
		})
	})
}

func (d *Desk) askNte() {
	wo := d.detail.wo
	if wo == nil {
		d.info("No work order open", "Open a work order first: the customer changes the NTE of the work order shown on the right.")
		return
	}
	entry := widget.NewEntry()
	entry.SetText(wo.Nte.Amount.Amount.StringFixed(int32(api.MinorUnits(wo.Currency))))
	dialog.ShowForm("Customer changes the NTE of "+wo.WorkOrderNumber, "Change", "Cancel",
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
	dialog.ShowForm("Customer marks a procedure N/A", "Mark N/A", "Cancel",
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
	d.do(func() {
		number, currency := fmt.Sprintf("work order %d", ev.Header.WorkOrderId), ""
		if wo, err := d.store.WorkOrder(context.Background(), ev.Header.WorkOrderId); err == nil {
			number, currency = wo.WorkOrderNumber, wo.Currency
		}
		title, body := notificationFor(ev, number, currency)
		if title != "" && !d.deps.NoDesktopNotifications {
			d.app.SendNotification(fyne.NewNotification(title, body))
		}
	})
}

// notificationFor words a desktop notification, or returns "" for events
// that do not deserve one.
func notificationFor(ev api.Event, number, currency string) (title, body string) {
	switch b := ev.Body.(type) {
	case *api.QuoteChangedEvent:
		switch b.Quote.QuoteStatus {
		case api.QuoteApproved:
			return "Quote approved: " + number, "The NTE is now " + inCurrency(b.Quote.Amount, currency).Format() + "."
		case api.QuoteRejected:
			return "Quote rejected: " + number, strings.TrimSpace("The customer rejected the quote. " + b.Quote.Comment)
		case api.QuoteRequested:
			return "Quote requested: " + number, "The customer asks for a quote."
		}
	case *api.NteChangedEvent:
		return "NTE changed: " + number, "The customer set the NTE to " + nteText(inCurrency(b.Amount, currency)) + "."
	case *api.NewWorkOrderEvent:
		return "New work order " + b.Details.WorkOrderNumber, b.Details.Customer.Name + ": " + b.Details.AccompanyingMessage
	case *api.InvoiceStatusChangedEvent:
		return "Invoice " + statusText(b.Status) + ": " + number, b.Comment
	}
	return "", ""
}
