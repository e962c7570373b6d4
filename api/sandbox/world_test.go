package sandbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func TestWorldInvariants(t *testing.T) {
	t.Parallel()
	w := Generate(1, 72, fixedNow)
	wos := w.WorkOrders()
	if len(wos) < 60 {
		t.Fatalf("%d work orders", len(wos))
	}
	if len(w.Customers()) < 5 {
		t.Fatalf("%d customers", len(w.Customers()))
	}
	statuses := map[api.WorkOrderStatus]bool{}
	quotes := map[api.QuoteStatus]bool{}
	currencies := map[string]bool{}
	pre41, nteZero, ivr, dueSoon := 0, 0, 0, 0
	for _, wo := range wos {
		statuses[wo.Status] = true
		currencies[wo.Currency] = true
		if q := wo.Nte.Quote; q != nil {
			quotes[q.QuoteStatus] = true
			if q.QuoteStatus == api.QuoteApproved && !q.Amount.Amount.Equal(wo.Nte.Amount.Amount) {
				t.Errorf("%s: approved quote %s but NTE %s", wo.WorkOrderNumber, q.Amount.Amount, wo.Nte.Amount.Amount)
			}
			if q.QuoteStatus == api.QuoteSubmitted && !wo.Nte.NoLimit() && q.Amount.Amount.Cmp(wo.Nte.Amount.Amount) <= 0 {
				t.Errorf("%s: submitted quote does not exceed the NTE", wo.WorkOrderNumber)
			}
		}
		if wo.Created.Before(api.Version41Date) {
			pre41++
		}
		if wo.Nte.NoLimit() {
			nteZero++
		}
		if wo.IvrInfo != nil {
			ivr++
		}
		if wo.Sla != nil && wo.Sla.DueDate != nil && wo.Sla.DueDate.Sub(fixedNow).Hours() < 24 && wo.Sla.DueDate.After(fixedNow) {
			dueSoon++
		}
		if wo.Currency == "JPY" && !wo.Nte.Amount.FitsMinorUnits() {
			t.Errorf("%s: yen NTE with decimals", wo.WorkOrderNumber)
		}
		if wo.ServiceLocation == nil || wo.ServiceLocation.Address == nil || wo.Contact == nil || wo.Sla == nil || wo.WorkType == nil {
			t.Errorf("%s lacks details", wo.WorkOrderNumber)
		}
	}
	for _, s := range api.AllStatuses {
		if !statuses[s] {
			t.Errorf("no %s work order", s)
		}
	}
	for _, q := range api.AllQuoteStatuses {
		if !quotes[q] {
			t.Errorf("no %s quote", q)
		}
	}
	for _, c := range []string{"USD", "EUR", "GBP", "JPY"} {
		if !currencies[c] {
			t.Errorf("no %s work order", c)
		}
	}
	if pre41 < 2 || nteZero == 0 || ivr == 0 || dueSoon == 0 {
		t.Errorf("pre-4.1 %d, NTE 0 %d, IVR %d, due within 24 h %d", pre41, nteZero, ivr, dueSoon)
	}
	// Procedures: editable (on a work order whose status allows procedure
	// edits), read-only and N/A, each with step attachments.
	st := w.st
	kinds := map[string]bool{}
	for _, o := range st.orders {
		for _, p := range o.wo.Procedures() {
			files := 0
			for _, s := range p.Steps {
				files += len(st.steps[s.Id])
			}
			if files == 0 {
				continue
			}
			switch {
			case p.IsMarkedNa:
				kinds["na"] = true
			case p.IsReadOnly:
				kinds["readonly"] = true
			case o.wo.ProceduresEditable():
				kinds["editable"] = true
			}
		}
	}
	if len(kinds) != 3 {
		t.Errorf("procedure kinds with attachments: %v", kinds)
	}
	invoices := map[api.InvoiceStatus]bool{}
	msgs, atts := 0, 0
	for _, o := range st.orders {
		if o.invoice != nil {
			invoices[o.invoice.Status] = true
		}
		msgs += len(o.messages)
		atts += len(o.files)
	}
	for _, s := range []api.InvoiceStatus{api.InvoiceDraft, api.InvoiceSubmitted, api.InvoiceAuthorized, api.InvoicePaid, api.InvoiceDisputed} {
		if !invoices[s] {
			t.Errorf("no %s invoice", s)
		}
	}
	if msgs == 0 || atts == 0 {
		t.Errorf("messages %d, attachments %d", msgs, atts)
	}
	pol := map[string]bool{}
	for _, c := range w.Customers() {
		pol["quotes"] = pol["quotes"] || !c.AllowQuotes
		pol["block"] = pol["block"] || c.BlockOverNte
		pol["dispute"] = pol["dispute"] || !c.BlockOverNte
		pol["backdate"] = pol["backdate"] || c.AllowBackdating
		pol["nobackdate"] = pol["nobackdate"] || !c.AllowBackdating
		pol["nofree"] = pol["nofree"] || !c.PriceList.AllowProviderItems.True()
		for _, it := range c.PriceList.Items {
			pol["readonly"] = pol["readonly"] || it.IsRateReadOnly
			if !it.Rate.FitsMinorUnits() {
				t.Errorf("%s: rate %s does not fit %s", c.Customer.Name, it.Rate.Amount, c.Currency)
			}
		}
	}
	if len(pol) != 7 {
		t.Errorf("customer policies present: %v", pol)
	}
}

func TestWorldIsDeterministic(t *testing.T) {
	t.Parallel()
	enc := func(seed int64) string {
		b, _ := json.Marshal(Generate(seed, 80, fixedNow).WorkOrders())
		return string(b)
	}
	if enc(5) != enc(5) {
		t.Fatal("same seed, different worlds")
	}
	if enc(5) == enc(6) {
		t.Fatal("different seeds, same world")
	}
	for _, seed := range []int64{1, 2, 3, 99} {
		w := Generate(seed, 60, fixedNow)
		seen := map[api.WorkOrderStatus]bool{}
		for _, wo := range w.WorkOrders() {
			seen[wo.Status] = true
		}
		if len(seen) != len(api.AllStatuses) {
			t.Errorf("seed %d: statuses %v", seed, seen)
		}
	}
}

// The demo's receivables are alive: outstanding invoices of every age
// bucket, in every currency, at several customers, some disputed.
func TestWorldReceivables(t *testing.T) {
	t.Parallel()
	for _, seed := range []int64{1, 7, 42} {
		w := Generate(seed, 72, fixedNow)
		buckets := map[api.AgeBucket]bool{}
		currencies := map[string]bool{}
		customers := map[int64]bool{}
		disputed := 0
		for _, o := range w.st.orders {
			inv := o.invoice
			if inv == nil || !inv.Status.Outstanding() {
				continue
			}
			r := api.Receivable{Status: inv.Status, Submitted: inv.InvoiceDate}
			if d, ok := r.Age(fixedNow); ok {
				buckets[api.BucketOf(d)] = true
			}
			if inv.InvoiceDate != nil && inv.InvoiceDate.Before(o.wo.Created.Truncate(24*time.Hour)) {
				t.Errorf("seed %d: %s invoiced before it was created", seed, o.wo.WorkOrderNumber)
			}
			currencies[o.wo.Currency] = true
			customers[o.wo.Customer.Id] = true
			if inv.Status == api.InvoiceDisputed {
				disputed++
			}
		}
		if len(buckets) != 4 || len(currencies) != 4 || len(customers) < 4 || disputed == 0 {
			t.Errorf("seed %d: outstanding in buckets %v, currencies %v, %d customers, %d disputed",
				seed, buckets, currencies, len(customers), disputed)
		}
	}
}

// The demo's dates are plausible relative to today: every work order was
// last changed, and every invoice dated and paid, within the oldest age
// the receivables show (140 days), the pre-4.1 orders of 2018 too; an
// invoice dated years back made the demo's charts look broken.
func TestWorldDatesAreRecent(t *testing.T) {
	t.Parallel()
	const oldest = 141 * 24 * time.Hour
	for _, seed := range []int64{1, 7, 42} {
		w := Generate(seed, 72, fixedNow)
		pre41 := 0
		for _, o := range w.st.orders {
			if o.wo.Created.Before(api.Version41Date) {
				pre41++
			}
			when := map[string]*time.Time{"last changed": &o.wo.LastUpdate}
			if inv := o.invoice; inv != nil {
				when["invoice dated"], when["invoice paid"] = inv.InvoiceDate, inv.PaidDate
			}
			for what, at := range when {
				if at != nil && (fixedNow.Sub(*at) > oldest || at.After(fixedNow)) {
					t.Errorf("seed %d: %s (created %s) %s %s", seed, o.wo.WorkOrderNumber, o.wo.Created.Format(time.DateOnly), what, at.Format(time.DateOnly))
				}
			}
		}
		if pre41 < 2 {
			t.Errorf("seed %d: %d pre-4.1 work orders", seed, pre41)
		}
	}
}
