package sandboxtest_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// TestFixturesStandAsTheServiceHoldsThem: each fixture is what the service
// answers for it, and its quote, NTE, invoice and procedure agree.
func TestFixturesStandAsTheServiceHoldsThem(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.New(t)
	ctx := context.Background()
	cases := []struct {
		name string
		spec sandboxtest.WorkOrderSpec
		// want* are checked when set
		customer, currency string
		nte                string
		invoice            api.InvoiceStatus
	}{
		{name: "new by default", spec: sandboxtest.WorkOrderSpec{}, customer: "Northwind Retail", currency: "USD", invoice: api.InvoiceDraft},
		{name: "paused in yen", spec: sandboxtest.WorkOrderSpec{Status: api.StatusPaused, Currency: "JPY"}, customer: "Sakura Mart Japan", currency: "JPY", invoice: api.InvoiceDraft},
		{name: "no limit", spec: sandboxtest.WorkOrderSpec{Status: api.StatusAccepted, Nte: "0"}, nte: "0", invoice: api.InvoiceDraft},
		{name: "given NTE with a submitted quote", spec: sandboxtest.WorkOrderSpec{Status: api.StatusAccepted, Nte: "500", Quote: api.QuoteSubmitted}, nte: "500"},
		{name: "approved quote is the NTE", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Nte: "750", Quote: api.QuoteApproved}, nte: "750"},
		{name: "requested quote", spec: sandboxtest.WorkOrderSpec{Customer: "Harbor Point Hotels", Status: api.StatusAccepted, Quote: api.QuoteRequested}, customer: "Harbor Point Hotels"},
		{name: "rejected quote", spec: sandboxtest.WorkOrderSpec{Currency: "GBP", Status: api.StatusCheckedIn, Quote: api.QuoteRejected}, currency: "GBP"},
		{name: "draft invoice with lines", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Invoice: api.InvoiceDraft}, invoice: api.InvoiceDraft},
		{name: "submitted invoice", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedOut, Invoice: api.InvoiceSubmitted}, invoice: api.InvoiceSubmitted},
		{name: "paid invoice", spec: sandboxtest.WorkOrderSpec{Status: api.StatusVerified, Invoice: api.InvoicePaid}, invoice: api.InvoicePaid},
		{name: "disputed invoice", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedOut, Invoice: api.InvoiceDisputed, Nte: "0"}, nte: "0", invoice: api.InvoiceDisputed},
		{name: "editable procedure", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandboxtest.ProcedureEditable}},
		{name: "read-only procedure on finished work", spec: sandboxtest.WorkOrderSpec{Status: api.StatusCheckedOut, Procedure: sandboxtest.ProcedureReadOnly}},
		{name: "procedure marked N/A", spec: sandboxtest.WorkOrderSpec{Status: api.StatusAccepted, Procedure: sandboxtest.ProcedureMarkedNa}},
		{name: "planned maintenance", spec: sandboxtest.WorkOrderSpec{Type: "PMRM", Status: api.StatusCheckedIn, Customer: "Lakeside Medical Group"}, customer: "Lakeside Medical Group"},
		{name: "needs completion details", spec: sandboxtest.WorkOrderSpec{Status: api.StatusNeedsCompletionDetails}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			made := sb.Create(c.spec)
			wo := sb.WorkOrder(made.WorkOrderId)
			want := c.spec.Status
			if want == "" {
				want = api.StatusNew
			}
			if wo.Status != want {
				t.Errorf("status %s, want %s", wo.Status, want)
			}
			if c.customer != "" && wo.Customer.Name != c.customer {
				t.Errorf("customer %q, want %q", wo.Customer.Name, c.customer)
			}
			if c.currency != "" && (wo.Currency != c.currency || wo.Nte.Amount.Currency != c.currency) {
				t.Errorf("currency %s (NTE in %s), want %s", wo.Currency, wo.Nte.Amount.Currency, c.currency)
			}
			if wo.Created.Before(api.Version41Date) || wo.Created.After(sb.Now()) || !wo.LastUpdate.Equal(sb.Now()) {
				t.Errorf("created %s, last update %s; want after version 4.1, last updated now (%s)", wo.Created, wo.LastUpdate, sb.Now())
			}
			wantType := c.spec.Type
			if wantType == "" {
				wantType = "Request"
			}
			if wo.Type != wantType {
				t.Errorf("type %q, want %q", wo.Type, wantType)
			}
			if c.nte != "" && !wo.Nte.Amount.Amount.Equal(decimal.RequireFromString(c.nte)) {
				t.Errorf("NTE %s, want %s", wo.Nte.Amount.Format(), c.nte)
			}
			if c.nte == "" && wo.Nte.NoLimit() && c.spec.Quote != api.QuoteRequested {
				t.Errorf("a plausible NTE is 0 (no limit)")
			}
			q := wo.Nte.Quote
			switch {
			case c.spec.Quote == "" && q != nil:
				t.Errorf("an unasked-for %s quote", q.QuoteStatus)
			case c.spec.Quote != "" && (q == nil || q.QuoteStatus != c.spec.Quote):
				t.Errorf("quote %+v, want %s", q, c.spec.Quote)
			case c.spec.Quote == api.QuoteApproved && !q.Amount.Amount.Equal(wo.Nte.Amount.Amount):
				t.Errorf("an approved quote of %s beside an NTE of %s", q.Amount.Format(), wo.Nte.Amount.Format())
			case (c.spec.Quote == api.QuoteSubmitted || c.spec.Quote == api.QuoteRejected) && q.Amount.Amount.Cmp(wo.Nte.Amount.Amount) <= 0:
				t.Errorf("a %s quote of %s does not exceed the NTE of %s", q.QuoteStatus, q.Amount.Format(), wo.Nte.Amount.Format())
			case c.spec.Quote == api.QuoteRequested && !q.Amount.IsZero():
				t.Errorf("a requested quote already has an amount, %s", q.Amount.Format())
			}

			inv, err := sb.Client.GetInvoice(ctx, wo.WorkOrderId)
			if err != nil {
				t.Fatal(err)
			}
			if c.invoice != "" && inv.Status != c.invoice {
				t.Errorf("invoice %s, want %s", inv.Status, c.invoice)
			}
			if (c.spec.Invoice != "") != (len(inv.LineItems) > 0) {
				t.Errorf("asked for invoice %q, got %d lines", c.spec.Invoice, len(inv.LineItems))
			}
			if c.spec.Invoice != "" && c.spec.Invoice != api.InvoiceDraft && !wo.Nte.NoLimit() && inv.TotalAmount.Amount.Cmp(wo.Nte.Amount.Amount) > 0 {
				t.Errorf("a %s invoice of %s stands over the NTE of %s", inv.Status, inv.TotalAmount.Format(), wo.Nte.Amount.Format())
			}
			if wo.Status.Completed() && inv.SubmissionDeadline == nil {
				t.Errorf("finished work without an invoice deadline")
			}

			procs := wo.Procedures()
			if c.spec.Procedure == sandboxtest.NoProcedure {
				if len(procs) != 0 {
					t.Errorf("%d unasked-for procedures", len(procs))
				}
				return
			}
			if len(procs) != 1 {
				t.Fatalf("%d procedures, want 1", len(procs))
			}
			p := procs[0]
			if p.IsReadOnly != (c.spec.Procedure == sandboxtest.ProcedureReadOnly) || p.IsMarkedNa != (c.spec.Procedure == sandboxtest.ProcedureMarkedNa) {
				t.Errorf("procedure read-only %v, N/A %v; want kind %d", p.IsReadOnly, p.IsMarkedNa, c.spec.Procedure)
			}
			for i, st := range p.Steps {
				files, err := sb.Client.ListStepAttachments(ctx, api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: st.Id})
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]int{true: 1, false: 0}[i == 1]; len(files) != want {
					t.Errorf("step %d holds %d attachments, want %d", i+1, len(files), want)
				}
			}
			editable := c.spec.Procedure == sandboxtest.ProcedureEditable && wo.ProceduresEditable()
			if wo.StepAttachmentsEditable(p) != editable {
				t.Errorf("step attachments editable: %v, want %v", !editable, editable)
			}
		})
	}
}

// TestFixturesTheServiceCouldNeverHold are refused with the reason.
func TestFixturesTheServiceCouldNeverHold(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.New(t)
	for _, c := range []struct {
		spec sandboxtest.WorkOrderSpec
		says string
	}{
		{sandboxtest.WorkOrderSpec{Customer: "Sakura Mart Japan", Quote: api.QuoteSubmitted}, "does not take quotes"},
		{sandboxtest.WorkOrderSpec{Customer: "Sakura Mart Japan", Currency: "USD"}, "bills in JPY"},
		{sandboxtest.WorkOrderSpec{Customer: "Acme"}, "no customer"},
		{sandboxtest.WorkOrderSpec{Currency: "CHF"}, "no customer bills in"},
		{sandboxtest.WorkOrderSpec{Status: "Finished"}, "not a work order status"},
		{sandboxtest.WorkOrderSpec{Status: api.StatusAccepted, Invoice: api.InvoiceSubmitted}, "only once the work is completed"},
		{sandboxtest.WorkOrderSpec{Status: api.StatusCheckedOut, Procedure: sandboxtest.ProcedureEditable}, "closed its procedures"},
		{sandboxtest.WorkOrderSpec{Status: api.StatusAccepted, Quote: api.QuoteApproved, Nte: "0"}, "cannot be 0"},
		{sandboxtest.WorkOrderSpec{Status: api.StatusRejected, Quote: api.QuoteRequested}, "never had a quote"},
		{sandboxtest.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusCheckedOut, Invoice: api.InvoiceSubmitted, Nte: "1"}, "blocks invoices above the NTE"},
		{sandboxtest.WorkOrderSpec{Nte: "12.345"}, "not an amount in USD"},
		{sandboxtest.WorkOrderSpec{Type: "Emergency"}, "Request or PMRM"},
	} {
		_, err := sb.CreateWorkOrder(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v; want a refusal that says %q", c.spec, err, c.says)
		}
	}
}

// TestFixtureRulesAgreeWithTheService: what api.WorkOrder.Can allows on a
// fixture in each status, the service takes; what it refuses, the service
// refuses (check-in, the action a status decides most plainly).
func TestFixtureRulesAgreeWithTheService(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.New(t)
	for _, st := range api.AllStatuses {
		wo := sb.Create(sandboxtest.WorkOrderSpec{Status: st})
		allowed := wo.Can(api.CheckIn) == nil
		err := sb.Client.CheckIn(context.Background(), &api.VisitRequest{WorkOrderId: wo.WorkOrderId})
		if allowed != (err == nil) {
			t.Errorf("%s: the rules allow check-in: %v; the service answered %v", st, allowed, err)
		}
	}
}

// TestRecordsWhatReachesTheService: requests are counted where they
// arrive, behind any Wrap, with their MessageId; with de-duplication off a
// repeat is applied again.
func TestRecordsWhatReachesTheService(t *testing.T) {
	t.Parallel()
	var dropped atomic.Int32
	dropFirstMessage := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.EqualFold(r.URL.Path, "/api/messages") && dropped.Add(1) == 1 {
				panic(http.ErrAbortHandler) // never reaches the service
			}
			next.ServeHTTP(w, r)
		})
	}
	sb := sandboxtest.New(t, sandboxtest.NoMessageIdDedup(), sandboxtest.Wrap(dropFirstMessage))
	ctx := context.Background()
	wo := sb.WorkOrderAt("Harbor Point Hotels", api.StatusAccepted)
	const id = "6f1c2a9e-0d4b-4c5e-9a37-2b8f5e1d7c40"
	send := func() error {
		return sb.Client.SendMessage(ctx, &api.MessageRequest{WorkOrderId: wo.WorkOrderId, Text: "on our way", MessageVisibility: api.VisibilityAll, Envelope: api.Envelope{MessageId: id}})
	}
	if err := send(); err == nil {
		t.Fatal("the dropped request succeeded")
	}
	if got := sb.Received(http.MethodPost, "/api/messages"); len(got) != 0 {
		t.Fatalf("a request dropped in front of the service was recorded: %+v", got)
	}
	for range 2 {
		if err := send(); err != nil {
			t.Fatal(err)
		}
	}
	got := sb.Received(http.MethodPost, "/API/Messages/")
	if len(got) != 2 || got[0].MessageId != id || got[1].Status != http.StatusOK {
		t.Fatalf("recorded %+v; want two arrivals of %s, answered 200", got, id)
	}
	msgs, err := sb.Client.ListMessages(ctx, wo.WorkOrderId)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range msgs {
		if m.Text == "on our way" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("without de-duplication the service holds the repeated message %d times, want 2", n)
	}
	if sb.TokenRequests() != 1 {
		t.Errorf("%d token requests, want 1 (the client caches its token)", sb.TokenRequests())
	}
	sb.ResetRequests()
	if len(sb.Requests()) != 0 || sb.TokenRequests() != 0 {
		t.Error("ResetRequests kept something")
	}
}
