package api

import (
	"testing"
	"time"
)

func TestAgeBuckets(t *testing.T) {
	cases := []struct {
		days int
		want AgeBucket
	}{
		{0, Age0to30}, {30, Age0to30}, {31, Age31to60}, {60, Age31to60},
		{61, Age61to90}, {90, Age61to90}, {91, AgeOver90}, {400, AgeOver90},
	}
	for _, c := range cases {
		if got := BucketOf(c.days); got != c.want {
			t.Errorf("BucketOf(%d) = %s; want %s", c.days, got, c.want)
		}
	}
}

// Outstanding money per currency, customer and age bucket: a paid invoice
// and a draft are not owed; an undated one is counted but in no bucket.
func TestAgingByCurrency(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d int) *time.Time { x := now.AddDate(0, 0, -d); return &x }
	a, b := Customer{Id: 1, Name: "Alpha"}, Customer{Id: 2, Name: "Beta"}
	rs := []Receivable{
		{Customer: a, Status: InvoiceSubmitted, Amount: MustMoney("10", "USD"), Submitted: ago(5)},
		{Customer: a, Status: InvoiceDisputed, Amount: MustMoney("20", "USD"), Submitted: ago(100)},
		{Customer: a, Status: InvoicePaid, Amount: MustMoney("999", "USD"), Submitted: ago(100)},
		{Customer: b, Status: InvoiceAuthorized, Amount: MustMoney("50", "USD"), Submitted: ago(45)},
		{Customer: b, Status: InvoiceSubmitted, Amount: MustMoney("3000", "JPY"), Submitted: ago(70)},
		{Customer: b, Status: InvoiceSubmitted, Amount: MustMoney("7", "JPY")},
		{Customer: b, Status: InvoiceDraft, Amount: MustMoney("500", "JPY"), Submitted: ago(1)},
	}
	got := AgingByCurrency(rs, now)
	if len(got) != 2 || got[0].Currency != "JPY" || got[1].Currency != "USD" {
		t.Fatalf("currencies = %+v", got)
	}
	jpy := got[0].Customers
	if len(jpy) != 1 || jpy[0].Total.String() != MustMoney("3007", "JPY").String() || jpy[0].Undated != 1 ||
		jpy[0].ByBucket[Age61to90].String() != "3000" {
		t.Errorf("JPY = %+v", jpy)
	}
	usd := got[1].Customers
	if len(usd) != 2 || usd[0].Customer != b || usd[1].Customer != a {
		t.Fatalf("USD customers = %+v; want the largest outstanding first", usd)
	}
	if usd[1].ByBucket[Age0to30].String() != "10" || usd[1].ByBucket[AgeOver90].String() != "20" || usd[1].Total.Amount.String() != "30" {
		t.Errorf("Alpha's USD = %+v", usd[1])
	}
	if usd[0].ByBucket[Age31to60].String() != "50" {
		t.Errorf("Beta's USD = %+v", usd[0])
	}
}

// Each deadline against its recorded moment; without one, a status that
// still waits for it past its time is a miss, anything else cannot be
// judged; deadlines before the period or still ahead are not counted.
func TestSlaJudge(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	from := now.AddDate(0, 0, -84)
	at := func(h int) *time.Time { x := now.Add(time.Duration(h) * time.Hour); return &x }
	cases := []struct {
		name   string
		status WorkOrderStatus
		due    *time.Time
		met    *time.Time
		want   SlaVerdict
	}{
		{"met before", StatusCheckedOut, at(-10), at(-11), SlaKept},
		{"met on the minute", StatusCheckedOut, at(-10), at(-10), SlaKept},
		{"met late", StatusCheckedOut, at(-10), at(-9), SlaMissed},
		{"met early, due later", StatusCheckedOut, at(10), at(-1), SlaKept},
		{"not met, not due", StatusAccepted, at(10), nil, SlaNotCounted},
		{"still waiting past it", StatusNew, at(-10), nil, SlaMissed},
		{"moved on, no time recorded", StatusVerified, at(-10), nil, SlaUnjudged},
		{"before the period", StatusCheckedOut, at(-24 * 100), at(-24 * 99), SlaNotCounted},
		{"rejected, nothing owed", StatusRejected, at(-10), nil, SlaNotCounted},
		{"no deadline", StatusCheckedOut, nil, at(-1), SlaNotCounted},
	}
	for _, c := range cases {
		r := SlaRecord{Status: c.status, Sla: &Sla{AcknowledgeBy: c.due}}
		if c.met != nil {
			r.Met = map[Deadline]time.Time{AcknowledgeBy: *c.met}
		}
		if got := r.Judge(AcknowledgeBy, from, now); got != c.want {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

func TestTallySla(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	from := now.AddDate(0, 0, -84)
	h := func(n int) *time.Time { x := now.Add(time.Duration(n) * time.Hour); return &x }
	a, b := Customer{Id: 1, Name: "Alpha"}, Customer{Id: 2, Name: "Beta"}
	rs := []SlaRecord{
		{Customer: b, Status: StatusVerified, Sla: &Sla{AcknowledgeBy: h(-50), OnSiteBy: h(-40), DueDate: h(-30)},
			Met: map[Deadline]time.Time{AcknowledgeBy: *h(-51), OnSiteBy: *h(-39)}},
		{Customer: a, Status: StatusNew, Sla: &Sla{AcknowledgeBy: h(-2), OnSiteBy: h(5), DueDate: h(50)}},
		{Customer: a, Status: StatusAccepted, Sla: &Sla{AcknowledgeBy: h(-200 * 24)}},
	}
	got := TallySla(rs, from, now)
	if len(got) != 2 || got[0].Customer != a || got[1].Customer != b {
		t.Fatalf("customers = %+v", got)
	}
	if Sum(got[0].Kept) != 0 || got[0].Missed[AcknowledgeBy] != 1 || Sum(got[0].Missed) != 1 || Sum(got[0].Unjudged) != 0 {
		t.Errorf("Alpha = %+v", got[0])
	}
	if got[1].Kept[AcknowledgeBy] != 1 || got[1].Missed[OnSiteBy] != 1 || got[1].Unjudged[DueBy] != 1 {
		t.Errorf("Beta = %+v", got[1])
	}
}

// Each total counts what it sums: billed is what went to the customer
// (outstanding or paid); drafts, invoices awaiting verification and those
// of a status we do not know are summed and counted apart, never in it.
func TestTotalsCountWhatTheySum(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d int) *time.Time { x := now.AddDate(0, 0, -d); return &x }
	inv := func(st InvoiceStatus, amt string) Receivable {
		return Receivable{Status: st, Amount: MustMoney(amt, "USD"), Submitted: ago(10)}
	}
	got := TotalsByCurrency([]Receivable{
		inv(InvoiceSubmitted, "100"), inv(InvoiceDisputed, "20"), inv(InvoicePaid, "300"),
		inv(InvoiceDraft, "7"), inv(InvoiceDraft, "8"), inv(InvoicePendingVerification, "50"),
		inv("Returned", "4"), {Status: InvoiceAuthorized, Amount: MustMoney("1000", "JPY")},
	})
	if len(got) != 2 || got[0].Currency != "JPY" || got[1].Currency != "USD" {
		t.Fatalf("totals %+v", got)
	}
	u := got[1]
	for _, c := range []struct {
		what string
		sum  Money
		n    int
		want string
		wn   int
	}{
		{"billed", u.Total, u.Count, "420", 3},
		{"outstanding", u.Outstanding, u.OutstandingCount, "120", 2},
		{"drafts", u.Drafts, u.DraftCount, "15", 2},
		{"awaiting verification", u.Pending, u.PendingCount, "50", 1},
		{"other", u.Other, u.OtherCount, "4", 1},
	} {
		if c.sum.Amount.String() != c.want || c.n != c.wn || c.sum.Currency != "USD" {
			t.Errorf("%s: %s %s in %d invoices; want %s in %d", c.what, c.sum.Currency, c.sum.Amount, c.n, c.want, c.wn)
		}
	}
	if j := got[0]; j.Count != 1 || j.Total.Amount.String() != "1000" || j.DraftCount+j.PendingCount+j.OtherCount != 0 {
		t.Errorf("JPY: %+v", j)
	}
}

// A draft, or an invoice awaiting verification, is not submitted: it shows
// no submitted date and has no age, whatever date it carries. A status we
// do not know keeps its date: nothing says it was not sent.
func TestSubmittedOnlyOnceSubmitted(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	d := now.AddDate(0, 0, -40)
	for _, c := range []struct {
		st   InvoiceStatus
		want bool
	}{
		{InvoiceDraft, false}, {InvoicePendingVerification, false}, {InvoiceSubmitted, true},
		{InvoiceDisputed, true}, {InvoiceAuthorized, true}, {InvoicePaid, true}, {"Returned", true},
	} {
		r := Receivable{Status: c.st, Submitted: &d}
		_, aged := r.Age(now)
		if (r.SubmittedOn() != nil) != c.want || aged != c.want {
			t.Errorf("%s: submitted on %v, aged %v; want %v", c.st, r.SubmittedOn(), aged, c.want)
		}
	}
}
