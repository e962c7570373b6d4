package outbox

import (
	"context"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// Saving, submitting and emptying the invoice (its attachments are in
// files.go).

const (
	KindInvoiceSave   Kind = "invoiceSave"
	KindInvoiceSubmit Kind = "invoiceSubmit"
	KindInvoiceDelete Kind = "invoiceDelete"
)

// FormInvoice is the invoice's content.
const FormInvoice Form = "invoice"

// WorkOrderOnly is the stored request of a write that names only its work
// order (deleting the invoice: a DELETE with the id in its query).
type WorkOrderOnly struct {
	WorkOrderId int64 `json:"WorkOrderId"`
}

// What a colleague's invoice actions are called; each conflicts with
// another's submitting or deleting the invoice first.
var (
	invoiceSaved     = Colleague{Event: "InvoiceSaved", Verb: "saved the invoice", Of: "of"}
	invoiceSubmitted = Colleague{Event: "InvoiceSubmitted", Verb: "submitted the invoice", Of: "of", Past: "invoiced"}
	invoiceDeleted   = Colleague{Event: "InvoiceDeleted", Verb: "deleted the invoice", Of: "of"}
	invoiceConflicts = []Kind{KindInvoiceSubmit, KindInvoiceDelete}
)

var _ = register(GroupInvoice,
	// Saving replaces the whole content: sending it twice leaves the same
	// invoice, so it has no landed check.
	def(&Entry{
		Kind: KindInvoiceSave, Rule: api.SaveInvoice, Noun: "Invoice",
		Route:     Route{http.MethodPut, "/api/invoice"},
		Colleague: invoiceSaved, Conflicts: invoiceConflicts,
		Fix:     &Fix{Form: FormInvoice, Again: "save it"},
		Rereads: Invoice,
	}, spec[api.SaveInvoiceRequest]{
		call: func(ctx context.Context, c *api.Client, r *api.SaveInvoiceRequest, _ Env) (any, error) {
			r.Invoice.StampCurrency()
			return c.SaveInvoice(ctx, r)
		},
		draft: func(r *api.SaveInvoiceRequest, currency string) *Draft {
			inv := r.Invoice
			inv.Currency = currency
			inv.StampCurrency()
			return &Draft{Invoice: &inv}
		},
	}),
	def(&Entry{
		Kind: KindInvoiceSubmit, Rule: api.SubmitInvoice, Noun: "Invoice submission",
		Route:     Route{http.MethodPut, "/api/invoice/submit"},
		Colleague: invoiceSubmitted, Conflicts: invoiceConflicts,
		// A submission carries no content: it submits the invoice as saved.
		Fix:     &Fix{Form: FormInvoice, Again: "submit it"},
		Rereads: Invoice,
		Judged: "the invoice, re-read: it is no longer editable (submitted, or further along). Whoever submitted it, " +
			"a second submission would be refused (3050).",
	}, spec[api.SubmitInvoiceRequest]{
		call:  result((*api.Client).SubmitInvoice),
		draft: func(*api.SubmitInvoiceRequest, string) *Draft { return &Draft{} },
		// Submitting a new pre-billed order's invoice accepts the order.
		effect: func(_ context.Context, wo *api.WorkOrder, _ *api.SubmitInvoiceRequest, _ Env) {
			if wo.IsPreBilled && wo.Status == api.StatusNew {
				wo.Status = api.StatusAccepted
			}
		},
		landed: func(ctx context.Context, c *api.Client, _ *api.SubmitInvoiceRequest, q *LandedQuery) (bool, any, error) {
			inv, err := c.GetInvoice(ctx, q.WorkOrders[0])
			if err != nil {
				return false, nil, err
			}
			if inv.Status.Editable() {
				return false, nil, nil
			}
			return true, inv, nil
		},
	}),
	def(&Entry{
		Kind: KindInvoiceDelete, Rule: api.SaveInvoice, // judged as any change of the invoice (CanEditInvoice)
		Noun:      "Invoice deletion",
		Route:     Route{http.MethodDelete, "/api/invoice"},
		Colleague: invoiceDeleted, Conflicts: invoiceConflicts,
		Rereads: Invoice, Forgets: Invoice,
	}, spec[WorkOrderOnly]{
		call: func(ctx context.Context, c *api.Client, r *WorkOrderOnly, _ Env) (any, error) {
			return nil, c.DeleteInvoice(ctx, r.WorkOrderId)
		},
	}),
)
