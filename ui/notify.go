package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Desktop notifications are hints that go away: they expire (main's
// notifier on Linux says so to the notification server; Fyne's says
// "never") and several within a minute become one ("3 updates from your
// customers"), replacing the one on screen where the system can, so a
// customer acting every minute does not pile them up until clicked.

// DesktopNotifier shows desktop notifications.
type DesktopNotifier interface {
	// Notify shows title and body; replace puts it in place of the one
	// it showed last, where the system can.
	Notify(title, body string, replace bool)
}

// appNotifier is Fyne's own notifications (the app's SendNotification).
type appNotifier struct{ d *Desk }

func (n appNotifier) Notify(title, body string, _ bool) {
	n.d.app.SendNotification(fyne.NewNotification(title, body))
}

// notifyGroup is how long after a shown notification the ones that follow
// join it in one.
const notifyGroup = time.Minute

// customerNews is the desktop notifications about what customers did,
// gathered by minute.
type customerNews struct {
	since time.Time // when the group on screen began
	items []string  // its news, oldest first, each a sentence
}

// notifier is where the window's desktop notifications go; none when the
// system cannot show them.
func (d *Desk) notifier() DesktopNotifier {
	if d.deps.NoDesktopNotifications {
		return nil
	}
	if d.deps.Notifier != nil {
		return d.deps.Notifier
	}
	return appNotifier{d}
}

// notifyCustomer shows news from a customer: alone when it is the first
// in a minute, otherwise in one notification with the others of that
// minute, in place of the last.
func (d *Desk) notifyCustomer(title, body string) {
	n := d.notifier()
	if n == nil {
		return
	}
	now := format.Now()
	item := newsLine(title, body)
	if d.news.since.IsZero() || now.Sub(d.news.since) >= notifyGroup {
		d.news = customerNews{since: now, items: []string{item}}
		n.Notify(title, body, false)
		return
	}
	d.news.items = append(d.news.items, item)
	n.Notify(fmt.Sprintf("%d updates from your customers", len(d.news.items)), newsSummary(d.news.items), true)
}

// newsLine is one piece of news in a sentence: "Quote approved on
// NWR73267."
func newsLine(title, _ string) string {
	what, number, ok := strings.Cut(title, ": ")
	if !ok {
		return format.Sentence(title)
	}
	if strings.HasPrefix(what, "New work order") {
		return format.Sentence("New work order " + number)
	}
	return format.Sentence(what + " on " + number)
}

// newsSummary lists the newest news of a group, three at most.
func newsSummary(items []string) string {
	const most = 3
	if len(items) <= most {
		return strings.Join(items, " ")
	}
	return strings.Join(items[len(items)-most:], " ") + fmt.Sprintf(" And %d more.", len(items)-most)
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
