package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
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
