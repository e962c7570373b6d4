package invoice

// The invoice against the NTE: the gauge (gauge.go) and the one thing
// the person can do about an invoice above it.

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

func (t *Tab) renderNte(total api.Money) {
	nte := t.wo.Nte.Amount.In(t.wo.Currency)
	level, share := setNte(t.gauge, total, nte)
	arrange.ShowIf(false, t.requestRow, t.requestNte, t.askMore)
	t.nteWarn.Importance = widget.WarningImportance
	switch level {
	case api.NteNoLimit:
		t.nteWarn.SetText("")
		t.nteWarn.Hide()
		return
	case api.NteWithin:
		t.nteWarn.SetText("")
		t.nteWarn.Hide()
	case api.NteNear:
		left, _ := nte.Add(api.Money{Amount: total.Amount.Neg(), Currency: nte.Currency})
		msg := fmt.Sprintf("Close to the NTE: the total is %.0f%% of it, %s left.", share*100, format.Money(left))
		if can, _ := t.nteIncreaseAdvice(t.wo); can {
			msg += " If the work costs more, request an NTE increase before the invoice passes it."
		}
		t.nteWarn.SetText(msg)
		t.nteWarn.Show()
	case api.NteOver:
		// One message, and the button only when it can be used: never
		// advice the person cannot follow next to a disabled button.
		over := api.Money{Amount: total.Amount.Sub(nte.Amount), Currency: nte.Currency}
		can, advice := t.nteIncreaseAdvice(t.wo)
		t.nteWarn.Importance = widget.DangerImportance
		t.nteWarn.SetText(fmt.Sprintf("Over the NTE by %s: the customer may refuse this invoice or dispute it later. %s", format.Money(over), advice))
		t.nteWarn.Show()
		ask := !can && t.wo.Nte.Quote != nil && t.wo.Nte.Quote.QuoteStatus == api.QuoteApproved && t.wo.Can(api.SendMessage) == nil
		arrange.ShowIf(can || ask, t.requestRow)
		arrange.ShowIf(can, t.requestNte)
		arrange.ShowIf(ask, t.askMore)
	}
	if ok, _ := t.editable(); !ok {
		// Advice to ask for more money is for invoices still being written;
		// a submitted, authorized or paid one only shows where it stands.
		t.nteWarn.Hide()
		arrange.ShowIf(false, t.requestRow, t.requestNte, t.askMore)
	}
	t.nteWarn.Refresh()
}

// onAskMore opens the Messages tab with a message to the customer asking
// for more than the approved NTE, for the person to read over and send:
// with a quote approved already, the service takes no new quote until the
// customer rejects that one, and has no call to ask for more money.
func (t *Tab) onAskMore() {
	nte := t.wo.Nte.Amount.In(t.wo.Currency)
	total := t.inv.Totals(t.wo.Currency).Total
	t.other.WriteToCustomer(fmt.Sprintf("The invoice for %s comes to %s, more than the approved NTE of %s. "+
		"Could you raise the NTE, or reject the approved quote so that we can submit a new one for the difference?",
		t.wo.WorkOrderNumber, format.Money(total), format.Money(nte)))
}

// nteIncreaseAdvice says whether an NTE increase (a quote) can be requested
// now, and what the person can do about an invoice above the NTE: exactly
// one thing they are able to do, never a request they cannot make.
func (t *Tab) nteIncreaseAdvice(wo *api.WorkOrder) (bool, string) {
	ok, why := t.other.QuoteAllowed(wo)
	if ok {
		return true, "Request an NTE increase before you submit: the NTE rises when the customer approves your quote."
	}
	// Messages are refused exactly when the work order is closed to
	// everything (rejected, recalled): then the quote is not the reason.
	if wo.Can(api.SendMessage) == nil {
		switch q := wo.Nte.Quote; {
		case q != nil && q.QuoteStatus == api.QuoteSubmitted:
			return false, "Your quote for an increase is waiting for the customer's decision: if they approve it, the NTE rises. " +
				"Until then, wait, or bring the invoice down to the NTE."
		case q != nil && q.QuoteStatus == api.QuoteApproved:
			return false, "The customer already approved a quote, and another increase can be requested only after the customer rejects that one. " +
				"Bring the invoice down to the NTE, or submit it as it is and let the customer decide."
		}
	}
	return false, why
}

// onRequestNte opens the quote form filled with the invoice total and its
// lines, so the customer sees what the extra money is for.
func (t *Tab) onRequestNte() {
	if ok, why := t.other.QuoteAllowed(t.wo); !ok {
		t.win.ShowError(&api.RuleError{Msg: why})
		return
	}
	total := t.inv.Totals(t.wo.Currency).Total
	t.other.RequestNte(total, t.currentLines(), "Invoice total exceeds the NTE")
}
