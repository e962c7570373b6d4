package activity

import (
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestStatusWordsReadInSentenceCase: what the Activity tab says of a
// customer's notification writes its status as the badges do ("Invoice
// disputed", "Checked out"): in the tryout it read "Invoice Submitted ·
// ¥25,500" under a badge reading "Quote Submitted".
func TestStatusWordsReadInSentenceCase(t *testing.T) {
	amount := api.MustMoney("25500", "JPY")
	for _, c := range []struct {
		body any
		want string
	}{
		{&api.InvoiceStatusChangedEvent{Status: api.InvoiceSubmitted, Amount: &amount}, "Invoice submitted · ¥25,500"},
		{&api.QuoteChangedEvent{Quote: api.Quote{QuoteStatus: api.QuoteApproved, Amount: amount}}, "Quote approved: ¥25,500"},
	} {
		if got := eventText(api.Event{Body: c.body}, "JPY"); got != c.want {
			t.Errorf("the Activity tab reads %q, want %q", got, c.want)
		}
	}
}
