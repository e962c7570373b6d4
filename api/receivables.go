package api

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Receivables: the invoices of finished work across work orders, what is
// still owed and how old it is. The rules live here, as pure functions;
// storage reads the rows and the receivables view asks.

// Receivable is one work order's invoice as the receivables view shows it.
type Receivable struct {
	WorkOrderId     int64
	WorkOrderNumber string
	Customer        Customer
	Status          InvoiceStatus
	InvoiceNumber   string
	Amount          Money // the invoice's total, in its currency
	// Submitted is the invoice date. The service publishes no submission
	// time of its own; an invoice cannot be submitted without its date
	// (3052), which is the date the customer is billed from. Nil when the
	// invoice has none yet.
	Submitted   *time.Time
	AuthNumber  string
	CheckNumber string
	PaidDate    *time.Time
	Comment     string // a dispute's reason
}

// Known reports whether s is one of the invoice statuses this client knows
// (AllInvoiceStatuses). The names of the draft, submitted and disputed
// statuses are guesses (models.go): a status we do not know is shown as
// "other (its name)", never left out (StatusWords).
func (s InvoiceStatus) Known() bool { return slices.Contains(AllInvoiceStatuses, s) }

// StatusWords is an invoice status as the receivables show it: a known one
// in words ("Awaiting verification" for PendingVerification), any other
// as "other (its name)", "other (no status)" when the invoice gave none.
func (s InvoiceStatus) StatusWords() string {
	switch {
	case s == InvoicePendingVerification:
		return "Awaiting verification"
	case s == "":
		return "other (no status)"
	case !s.Known():
		return "other (" + string(s) + ")"
	}
	return string(s)
}

// Outstanding reports an invoice that was submitted and is not paid yet:
// with the customer, waiting for authorization or payment, or disputed.
// A draft or one waiting for verification is not with the customer yet.
func (s InvoiceStatus) Outstanding() bool {
	return s == InvoiceSubmitted || s == InvoiceAuthorized || s == InvoiceDisputed
}

// Billed reports an invoice that went to the customer: outstanding or
// paid. Its amount is what the receivables sum as billed.
func (s InvoiceStatus) Billed() bool { return s.Outstanding() || s == InvoicePaid }

// NotSubmitted reports an invoice known not to be with the customer yet: a
// draft, or one awaiting verification (which comes before submission in
// the docs). A status we do not know is not known to be either.
func (s InvoiceStatus) NotSubmitted() bool {
	return s == InvoiceDraft || s == InvoicePendingVerification
}

// SubmittedOn is the date the receivables show as submitted: the invoice
// date, except for an invoice known not to be submitted yet (a draft's
// date is the one it will carry, not a day it was sent). Nil when there
// is none.
func (r Receivable) SubmittedOn() *time.Time {
	if r.Status.NotSubmitted() {
		return nil
	}
	return r.Submitted
}

// Age is how many whole days the invoice has been with the customer: from
// its date to its payment, or to now while unpaid. known is false when the
// invoice has no date or is not submitted yet (SubmittedOn).
func (r Receivable) Age(now time.Time) (days int, known bool) {
	from := r.SubmittedOn()
	if from == nil {
		return 0, false
	}
	end := now
	if r.Status == InvoicePaid && r.PaidDate != nil {
		end = *r.PaidDate
	}
	d := int(end.Sub(*from).Hours() / 24)
	return max(d, 0), true
}

// AgeBucket is an age range of the receivables' aging: 0–30, 31–60, 61–90
// and over 90 days.
type AgeBucket int

const (
	Age0to30 AgeBucket = iota
	Age31to60
	Age61to90
	AgeOver90
)

// AgeBuckets lists the buckets, youngest first.
var AgeBuckets = []AgeBucket{Age0to30, Age31to60, Age61to90, AgeOver90}

// BucketOf is the bucket of an age in days.
func BucketOf(days int) AgeBucket {
	switch {
	case days <= 30:
		return Age0to30
	case days <= 60:
		return Age31to60
	case days <= 90:
		return Age61to90
	}
	return AgeOver90
}

func (b AgeBucket) String() string {
	switch b {
	case Age0to30:
		return "0–30 days"
	case Age31to60:
		return "31–60 days"
	case Age61to90:
		return "61–90 days"
	}
	return "90+ days"
}

// Contains reports whether an age in days falls in the bucket.
func (b AgeBucket) Contains(days int) bool { return BucketOf(days) == b }

// ReceivableFilter narrows the receivables; the zero value keeps all.
type ReceivableFilter struct {
	CustomerId int64           // 0: every customer
	Statuses   []InvoiceStatus // empty (and Other false): every status
	// Other keeps, besides Statuses, the invoices whose status this client
	// does not know (the receivables' "other" choice).
	Other bool
	// Age keeps the invoices of one age bucket (nil: every age); an
	// invoice without a date has no age and is then left out.
	Age *AgeBucket
	Now time.Time // what ages are counted to; zero = time.Now
}

// Keeps reports whether r passes the filter.
func (f ReceivableFilter) Keeps(r Receivable) bool {
	if f.CustomerId != 0 && r.Customer.Id != f.CustomerId {
		return false
	}
	if (len(f.Statuses) > 0 || f.Other) && !slices.Contains(f.Statuses, r.Status) && !(f.Other && !r.Status.Known()) {
		return false
	}
	if f.Age != nil {
		now := f.Now
		if now.IsZero() {
			now = time.Now()
		}
		d, ok := r.Age(now)
		if !ok || !f.Age.Contains(d) {
			return false
		}
	}
	return true
}

// CurrencyTotal is a sum in one currency: money is never added across
// currencies. Each count is of the invoices summed beside it, so that "of
// $6,681.92 billed · 8 invoices" counts exactly what the figure adds up.
type CurrencyTotal struct {
	Currency         string
	Total            Money // billed: submitted to the customer, paid or not
	Count            int   // the invoices in Total
	Outstanding      Money // submitted and not paid
	OutstandingCount int
	// Drafts and Pending (awaiting verification) are not with the customer
	// yet: apart from what is billed, never in it.
	Drafts       Money
	DraftCount   int
	Pending      Money
	PendingCount int
	// Other is the invoices whose status this client does not know: not
	// known to be billed nor outstanding, and never left out of sight.
	Other      Money
	OtherCount int
}

// TotalsByCurrency sums the receivables per currency, in the order of
// the currency codes.
func TotalsByCurrency(rs []Receivable) []CurrencyTotal {
	by := map[string]*CurrencyTotal{}
	add := func(m *Money, n *int, r Receivable) {
		m.Amount = m.Amount.Add(r.Amount.Amount)
		*n++
	}
	for _, r := range rs {
		c := r.Amount.Currency
		t := by[c]
		if t == nil {
			z := Money{Currency: c}
			t = &CurrencyTotal{Currency: c, Total: z, Outstanding: z, Drafts: z, Pending: z, Other: z}
			by[c] = t
		}
		switch s := r.Status; {
		case !s.Known():
			add(&t.Other, &t.OtherCount, r)
		case s == InvoiceDraft:
			add(&t.Drafts, &t.DraftCount, r)
		case s == InvoicePendingVerification:
			add(&t.Pending, &t.PendingCount, r)
		case s.Billed():
			add(&t.Total, &t.Count, r)
			if s.Outstanding() {
				add(&t.Outstanding, &t.OutstandingCount, r)
			}
		}
	}
	out := make([]CurrencyTotal, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b CurrencyTotal) int { return strings.Compare(a.Currency, b.Currency) })
	return out
}

// Aging is what is outstanding in one currency, per customer and age
// bucket.
type Aging struct {
	Currency  string
	Customers []CustomerAging // largest outstanding first
}

// CustomerAging is one customer's outstanding money in one currency.
type CustomerAging struct {
	Customer Customer
	ByBucket [4]decimal.Decimal // indexed by AgeBucket
	Total    Money
	Undated  int // outstanding invoices without a date, in Total but in no bucket
}

// AgingByCurrency groups the outstanding receivables per currency, then
// customer and age bucket. Currencies come in code order.
func AgingByCurrency(rs []Receivable, now time.Time) []Aging {
	type key struct {
		cur  string
		cust int64
	}
	rows := map[key]*CustomerAging{}
	var order []key
	for _, r := range rs {
		if !r.Status.Outstanding() {
			continue
		}
		k := key{r.Amount.Currency, r.Customer.Id}
		ca := rows[k]
		if ca == nil {
			ca = &CustomerAging{Customer: r.Customer, Total: Money{Currency: k.cur}}
			rows[k] = ca
			order = append(order, k)
		}
		ca.Total.Amount = ca.Total.Amount.Add(r.Amount.Amount)
		if d, ok := r.Age(now); ok {
			b := BucketOf(d)
			ca.ByBucket[b] = ca.ByBucket[b].Add(r.Amount.Amount)
		} else {
			ca.Undated++
		}
	}
	var out []Aging
	for _, k := range order {
		i := slices.IndexFunc(out, func(a Aging) bool { return a.Currency == k.cur })
		if i < 0 {
			out = append(out, Aging{Currency: k.cur})
			i = len(out) - 1
		}
		out[i].Customers = append(out[i].Customers, *rows[k])
	}
	for i := range out {
		slices.SortStableFunc(out[i].Customers, func(a, b CustomerAging) int {
			if c := b.Total.Amount.Cmp(a.Total.Amount); c != 0 {
				return c
			}
			return strings.Compare(a.Customer.Name, b.Customer.Name)
		})
	}
	slices.SortFunc(out, func(a, b Aging) int { return strings.Compare(a.Currency, b.Currency) })
	return out
}
