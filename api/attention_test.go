package api

import (
	"testing"
	"time"
)

func TestAttentionSaysWhy(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	late, soon, far := now.Add(-2*time.Hour), now.Add(5*time.Hour), now.Add(72*time.Hour)
	for _, c := range []struct {
		name string
		f    AttentionFacts
		want Attention
	}{
		{"an accepted one 2 h past its on-site time", AttentionFacts{Status: StatusAccepted, Deadline: late}, AttentionOverdue},
		{"a new one to acknowledge in 5 h", AttentionFacts{Status: StatusNew, Deadline: soon}, AttentionDueSoon},
		{"an accepted one due in 3 days", AttentionFacts{Status: StatusAccepted, Deadline: far}, NoAttention},
		{"a verified one with nothing due", AttentionFacts{Status: StatusVerified}, NoAttention},
		{"a verified one whose old quote request was never answered", AttentionFacts{Status: StatusVerified, QuoteStatus: QuoteRequested}, NoAttention},
		{"a checked-in one whose customer asks for a quote", AttentionFacts{Status: StatusCheckedIn, QuoteStatus: QuoteRequested, Deadline: far}, AttentionQuoteRequested},
		{"a checked-out one asked for a quote before invoicing", AttentionFacts{Status: StatusCheckedOut, QuoteStatus: QuoteRequested}, AttentionQuoteRequested},
		{"a checked-out one whose invoice is over the NTE", AttentionFacts{Status: StatusCheckedOut, InvoiceOverNte: true}, AttentionInvoiceOverNte},
		{"a checked-out one whose invoice is due in 5 h", AttentionFacts{Status: StatusCheckedOut, Deadline: soon}, AttentionDueSoon},
		{"an accepted one whose check-in was refused", AttentionFacts{Status: StatusAccepted, Refused: true, Deadline: soon}, AttentionRefused},
		{"an overdue one with a refusal too: late first", AttentionFacts{Status: StatusAccepted, Refused: true, Deadline: late}, AttentionOverdue},
		{"a rejected one with a refused message", AttentionFacts{Status: StatusRejected, Refused: true}, AttentionRefused},
		{"a recalled one with a requested quote", AttentionFacts{Status: StatusRecalled, QuoteStatus: QuoteRequested}, NoAttention},
		{"a status the service does not document, asked for a quote", AttentionFacts{Status: "Escalated", QuoteStatus: QuoteRequested}, AttentionQuoteRequested},
	} {
		if got := c.f.Of(now); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got.Word(), c.want.Word())
		}
	}
}

func TestQuoteNotAwaitedIsTheRulesComplement(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	not := map[WorkOrderStatus]bool{}
	for _, s := range QuoteNotAwaited() {
		not[s] = true
	}
	for _, s := range append(AllStatuses, "Escalated") {
		got := AttentionFacts{Status: s, QuoteStatus: QuoteRequested}.Of(now) == AttentionQuoteRequested
		if got == not[s] {
			t.Errorf("%s: the rule says a requested quote needs attention: %v; QuoteNotAwaited lists it: %v", s, got, not[s])
		}
	}
}
