package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// TestARejectedQuoteLabelsTheCustomersReasonAndOurs: after the customer
// rejects our quote, the Quote tab shows their reason labelled as theirs,
// and ours beside it, labelled as ours; when they give none it says so,
// and our reason is never shown as theirs.
func TestARejectedQuoteLabelsTheCustomersReasonAndOurs(t *testing.T) {
	for _, c := range []struct {
		name, theirs, want string
	}{
		{"with a reason", "Please itemise the parts and get a second supplier price", "The customer's reason for rejecting it: Please itemise the parts and get a second supplier price."},
		{"without one", "", "The customer gave no reason for rejecting it."},
	} {
		h := newHarness(t)
		ctx := context.Background()
		r := h.rowWhere(func(r storage.Row) bool {
			return r.Status == api.StatusAccepted && r.Customer == "Northwind Retail" && (r.QuoteStatus == "" || r.QuoteStatus == api.QuoteRejected)
		})
		wo, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil {
			t.Fatal(err)
		}
		amount := api.MustMoney(wo.Nte.Amount.Amount.Add(wo.Nte.Amount.Amount).Add(api.MustMoney("100", wo.Currency).Amount).String(), wo.Currency)
		if _, err := h.store.SubmitQuote(ctx, r.Id, amount, "Emergency call-out after hours", nil); err != nil {
			t.Fatal(err)
		}
		h.send()
		if err := h.sb.RejectQuote(r.Id, c.theirs); err != nil {
			t.Fatal(err)
		}
		h.waitFor("the rejection to reach the replica", func() bool {
			got, _ := h.store.WorkOrder(ctx, r.Id)
			return got.Nte.Quote != nil && got.Nte.Quote.QuoteStatus == api.QuoteRejected
		})
		h.open(r.Id)
		h.desk.changed([]int64{r.Id})
		h.flush()
		h.selectTab("Quote")
		shown := quoteOf(h).says()
		if !strings.Contains(shown, c.want) || !strings.Contains(shown, "Our reason for the quote: Emergency call-out after hours.") {
			t.Errorf("%s: the Quote tab says %q", c.name, shown)
		}
		if c.theirs != "" && strings.Contains(shown, "— "+c.theirs) {
			t.Errorf("%s: the customer's reason is still shown where ours was: %q", c.name, shown)
		}
		h.close()
	}
}
