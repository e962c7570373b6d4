package ui

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
func (d *Desk) quotesRefusedText(wo *api.WorkOrder) string {
	if c := d.correcting; c != nil && c.wo == wo.WorkOrderId && c.group == outbox.GroupQuote {
		return "" // Edit of the refused quote: the person tries again
	}
	r, err := d.store.QuotesRefused(context.Background(), wo.Customer.Id)
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

// gate says whether a quote can be asked for on wo now, and why, and shows
// the form (with Copy into a new quote after a rejected one, or Try again)
// accordingly: the rules (quoteAllowed, api's Can), then the customer's
// refusal of quotes, remembered.
func (t *quoteTab) gate(wo *api.WorkOrder) {
	if wo == nil {
		return
	}
	q := wo.Nte.Quote
	allowed, why := quoteAllowed(wo)
	// Amber only when the customer waits on us or refused: the NTE, an
	// approved or a submitted quote are not warnings.
	t.explain.Importance = widget.MediumImportance
	if q != nil && (q.QuoteStatus == api.QuoteRequested || q.QuoteStatus == api.QuoteRejected) && allowed {
		t.explain.Importance = widget.WarningImportance
	}
	refused := ""
	if allowed {
		refused = t.d.quotesRefusedText(wo)
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
func newTryQuotesAgain(t *quoteTab) *widget.Button {
	b := widget.NewButtonWithIcon("Try again", theme.ViewRefreshIcon(), func() {
		wo := t.wo
		if wo == nil {
			return
		}
		store, customer := t.d.store, wo.Customer.Id
		t.d.deps.Background(func() {
			err := store.TryQuotesAgain(context.Background(), customer)
			t.d.do(func() {
				if err != nil {
					t.d.showError(err)
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
