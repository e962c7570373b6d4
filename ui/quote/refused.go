package quote

import (
	"context"
	"strings"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// quotesRefusedText says why the quote form is closed at wo's customer:
// the service refused a quote there with 3004 (storage remembers it per
// customer). "" when it did not, or the person asked to try again since.
func (t *Tab) quotesRefusedText(wo *api.WorkOrder) string {
	if t.win.CorrectingIn(wo.WorkOrderId, outbox.GroupQuote) {
		return "" // Edit of the refused quote: the person tries again
	}
	r, err := t.replica.QuotesRefused(context.Background(), wo.Customer.Id)
	if err != nil || r == nil {
		return ""
	}
	who := wo.Customer.Name
	if who == "" {
		who = "This customer"
	}
	text := who + " does not accept quotes: the service refused one on " + format.Day(r.At)
	if m := strings.TrimSpace(r.Message); m != "" {
		text += " (“" + strings.TrimRight(m, ".") + "”)"
	}
	return text + ". The quote form stays closed at this customer; if it has changed its mind, try again."
}

// Gate says whether a quote can be asked for on wo now, and why, and shows
// the form (with Copy into a new quote after a rejected one, or Try again)
// accordingly: the rules (Allowed, api's Can), then the customer's
// refusal of quotes, remembered. The window calls it once a correction of
// a refused quote stops: a customer that refused quotes closes it again.
func (t *Tab) Gate(wo *api.WorkOrder) {
	if wo == nil {
		return
	}
	q := wo.Nte.Quote
	allowed, why := Allowed(wo)
	// Amber only when the customer waits on us or refused: the NTE, an
	// approved or a submitted quote are not warnings.
	t.explain.Importance = widget.MediumImportance
	if q != nil && (q.QuoteStatus == api.QuoteRequested || q.QuoteStatus == api.QuoteRejected) && allowed {
		t.explain.Importance = widget.WarningImportance
	}
	refused := ""
	if allowed {
		refused = t.quotesRefusedText(wo)
	}
	if refused != "" {
		allowed, why = false, refused
		t.explain.Importance = widget.WarningImportance
	}
	arrange.ShowIf(refused != "", t.tryAgain)
	arrange.ShowIf(allowed && q != nil && q.QuoteStatus == api.QuoteRejected, t.copyRejected)
	t.explain.SetText(why)
	arrange.ShowIf(allowed, t.formBox)
}

// newTryQuotesAgain is the quote tab's "Try again": it forgets the
// customer's refusal, and the form opens; the service judges the next one.
func newTryQuotesAgain(t *Tab) *widget.Button {
	b := widget.NewButtonWithIcon("Try again", theme.ViewRefreshIcon(), func() {
		wo := t.wo
		if wo == nil {
			return
		}
		queue, customer := t.queue, wo.Customer.Id
		t.win.Background(func() {
			err := queue.TryQuotesAgain(context.Background(), customer)
			t.win.Do(func() {
				if err != nil {
					t.win.ShowError(err)
					return
				}
				if t.wo != nil {
					t.Show(t.wo)
				}
			})
		})
	})
	b.Hide()
	return b
}
