package storage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/outbox"
)

// kindCase is one outbox kind sent end to end: prepare picks a work order
// in the right state (and sets up what the action needs, as the customer or
// another device would) and returns the person's action and what they
// then see, at the service and in the replica.
type kindCase struct {
	kind    outbox.Kind
	prepare func(t *testing.T) (act func() (*OutboxRow, error), check func(t *testing.T))
}

// TestEveryOutboxKindEndToEnd queues one action of every outbox kind
// through its Store method, sends it to the sandbox, and checks that the
// row is done, the service changed, and the replica shows the change.
func TestEveryOutboxKindEndToEnd(t *testing.T) {
	t.Parallel()
	svc := newService(t, 160)
	s := syncedStore(t, svc)
	ctx := context.Background()
	x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
	y := NewSyncer(s, svc.client, SyncOptions{})
	dir := t.TempDir()

	used := map[int64]bool{}
	take := func(t *testing.T, ok func(*api.WorkOrder) bool) *api.WorkOrder {
		t.Helper()
		wo := pick(t, s, func(w *api.WorkOrder) bool { return !used[w.WorkOrderId] && ok(w) })
		used[wo.WorkOrderId] = true
		return wo
	}
	newOnes := func(t *testing.T, n int) []int64 {
		var out []int64
		for range n {
			out = append(out, take(t, status(api.StatusNew)).WorkOrderId)
		}
		return out
	}
	file := func(t *testing.T, name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	local := func(t *testing.T, id int64) *api.WorkOrder {
		t.Helper()
		wo, err := s.WorkOrder(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return wo
	}
	// statusIs checks the service and the replica agree on the new status.
	statusIs := func(t *testing.T, want api.WorkOrderStatus, woIDs ...int64) {
		t.Helper()
		for _, id := range woIDs {
			if got := svc.remote(t, id).Status; got != want {
				t.Errorf("work order %d: the service says %s; want %s", id, got, want)
			}
			if got := local(t, id).Status; got != want {
				t.Errorf("work order %d: the replica says %s; want %s", id, got, want)
			}
		}
	}
	// editableInvoice: a completed, invoiceable work order whose invoice
	// the service still lets the contractor change.
	editableInvoice := func(wo *api.WorkOrder) bool {
		if !wo.Status.Completed() || !wo.InvoiceVisible() || wo.IsPreBilled {
			return false
		}
		inv, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
		return err == nil && inv.Status.Editable()
	}
	// completeInvoice is one price-list line the customer cannot refuse:
	// the cheapest item, within the NTE.
	completeInvoice := func(t *testing.T, wo *api.WorkOrder, number string) api.Invoice {
		t.Helper()
		pl, err := svc.client.GetPriceList(ctx, wo.WorkOrderId)
		if err != nil || len(pl.Items) == 0 {
			t.Fatalf("price list of %d: %v (%d items)", wo.WorkOrderId, err, len(pl.Items))
		}
		item := slices.MinFunc(pl.Items, func(a, b api.PriceListItem) int { return a.Rate.Amount.Cmp(b.Rate.Amount) })
		date := svc.sb.Clock().Now().Truncate(24 * time.Hour)
		return api.Invoice{InvoiceNumber: number, InvoiceDate: &date, Currency: wo.Currency, LineItems: []api.LineItem{{
			Type: api.LinePriceList, Description: item.Description, Quantity: decimal.NewFromInt(1),
			Rate: item.Rate.In(wo.Currency), PriceListItemId: item.Id,
		}}}
	}
	// editableStep: a step of a procedure whose attachments may change.
	editableStep := func(t *testing.T) api.StepRef {
		t.Helper()
		var ref api.StepRef
		take(t, func(wo *api.WorkOrder) bool {
			if !wo.ProceduresEditable() {
				return false
			}
			for _, p := range wo.Procedures() {
				if !p.IsReadOnly && !p.IsMarkedNa && len(p.Steps) > 0 {
					ref = api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[0].Id}
					return true
				}
			}
			return false
		})
		return ref
	}
	stepNames := func(t *testing.T, ref api.StepRef) []string {
		t.Helper()
		atts, err := svc.client.ListStepAttachments(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, a := range atts {
			names = append(names, a.Name)
		}
		return names
	}
	names := func(atts []api.Attachment) []string {
		var out []string
		for _, a := range atts {
			out = append(out, a.Name)
		}
		return out
	}
	refresh := func(t *testing.T, id int64) {
		t.Helper()
		if err := y.Refresh(ctx, id); err != nil {
			t.Fatalf("refresh %d: %v", id, err)
		}
	}

	cases := []kindCase{
		{outbox.KindAccept, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusNew))
			return func() (*OutboxRow, error) { return s.Accept(ctx, wo.WorkOrderId, "on our way") },
				func(t *testing.T) { statusIs(t, api.StatusAccepted, wo.WorkOrderId) }
		}},
		{outbox.KindReject, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusNew))
			return func() (*OutboxRow, error) { return s.Reject(ctx, wo.WorkOrderId, "outside our service area") },
				func(t *testing.T) { statusIs(t, api.StatusRejected, wo.WorkOrderId) }
		}},
		{outbox.KindBulkAccept, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			woIDs := newOnes(t, 2)
			return func() (*OutboxRow, error) { return s.BulkAccept(ctx, woIDs) },
				func(t *testing.T) { statusIs(t, api.StatusAccepted, woIDs...) }
		}},
		{outbox.KindBulkReject, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			woIDs := newOnes(t, 2)
			return func() (*OutboxRow, error) { return s.BulkReject(ctx, woIDs, "no technician free this month") },
				func(t *testing.T) { statusIs(t, api.StatusRejected, woIDs...) }
		}},
		{outbox.KindAppointment, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusAccepted))
			start := svc.sb.Clock().Now().Add(49 * time.Hour).Truncate(time.Minute)
			return func() (*OutboxRow, error) { return s.SetAppointment(ctx, wo.WorkOrderId, start, "") },
				func(t *testing.T) {
					for where, w := range map[string]*api.WorkOrder{"service": svc.remote(t, wo.WorkOrderId), "replica": local(t, wo.WorkOrderId)} {
						if w.Schedule == nil || w.Schedule.ScheduledStart == nil || !w.Schedule.ScheduledStart.Equal(start) {
							t.Errorf("the %s's schedule is %+v; want a start at %v", where, w.Schedule, start)
						}
					}
				}
		}},
		{outbox.KindCheckIn, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusAccepted))
			return func() (*OutboxRow, error) { return s.CheckIn(ctx, wo.WorkOrderId, nil, "") },
				func(t *testing.T) { statusIs(t, api.StatusCheckedIn, wo.WorkOrderId) }
		}},
		{outbox.KindPause, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusCheckedIn))
			return func() (*OutboxRow, error) { return s.Pause(ctx, wo.WorkOrderId, nil, "parts on order") },
				func(t *testing.T) { statusIs(t, api.StatusPaused, wo.WorkOrderId) }
		}},
		{outbox.KindCheckOut, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			// At a customer that requires completion information, with it.
			wo := take(t, func(w *api.WorkOrder) bool {
				cs, _ := s.CustomerSettings(ctx, w.Customer.Id)
				return status(api.StatusCheckedIn)(w) && cs.RequiresCompletion()
			})
			done := fullCompletion(t, s, wo)
			return func() (*OutboxRow, error) { return s.CheckOutWith(ctx, wo.WorkOrderId, nil, "done", done) },
				func(t *testing.T) { statusIs(t, api.StatusCheckedOut, wo.WorkOrderId) }
		}},
		{outbox.KindWorkDoneDetails, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusNeedsCompletionDetails))
			done := fullCompletion(t, s, wo)
			return func() (*OutboxRow, error) { return s.CompleteWorkDetails(ctx, wo.WorkOrderId, "filters changed", done) },
				func(t *testing.T) { statusIs(t, api.StatusCheckedOut, wo.WorkOrderId) }
		}},
		{outbox.KindQuote, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			// The customer asked for this quote, so it accepts quotes.
			wo := take(t, func(w *api.WorkOrder) bool {
				return w.Can(api.SubmitQuote) == nil && w.Nte.Quote != nil && w.Nte.Quote.QuoteStatus == api.QuoteRequested
			})
			amount := api.Money{Amount: wo.Nte.Amount.Amount.Add(decimal.NewFromInt(250)), Currency: wo.Currency}
			return func() (*OutboxRow, error) {
					return s.SubmitQuote(ctx, wo.WorkOrderId, amount, "the compressor has to be replaced", nil)
				}, func(t *testing.T) {
					for where, w := range map[string]*api.WorkOrder{"service": svc.remote(t, wo.WorkOrderId), "replica": local(t, wo.WorkOrderId)} {
						if q := w.Nte.Quote; q == nil || q.QuoteStatus != api.QuoteSubmitted || !q.Amount.Amount.Equal(amount.Amount) {
							t.Errorf("the %s's quote is %+v; want Submitted for %s", where, q, amount.Format())
						}
					}
				}
		}},
		{outbox.KindMessage, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusAccepted))
			text := "kinds: technician arrives at 9"
			return func() (*OutboxRow, error) { return s.SendMessage(ctx, wo.WorkOrderId, text, api.VisibilityAll) },
				func(t *testing.T) {
					remote, err := svc.client.ListMessages(ctx, wo.WorkOrderId)
					if err != nil {
						t.Fatal(err)
					}
					has := func(m api.Message) bool { return m.Text == text }
					if !slices.ContainsFunc(remote, has) {
						t.Errorf("the service's thread lacks the message")
					}
					if cached, _ := s.Messages(ctx, wo.WorkOrderId); !slices.ContainsFunc(cached, has) {
						t.Errorf("the replica's thread lacks the message")
					}
				}
		}},
		{outbox.KindAttachment, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusAccepted))
			path := file(t, "kinds-meter.jpg", "\xff\xd8 meter reading")
			return func() (*OutboxRow, error) { return s.AttachFile(ctx, wo.WorkOrderId, path, api.VisibilityAll) },
				func(t *testing.T) {
					remote, err := svc.client.ListAttachments(ctx, wo.WorkOrderId)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Contains(names(remote), "kinds-meter.jpg") {
						t.Errorf("the service's attachments are %v", names(remote))
					}
					if cached, _ := s.Attachments(ctx, wo.WorkOrderId); !slices.Contains(names(cached), "kinds-meter.jpg") {
						t.Errorf("the replica's attachments are %v", names(cached))
					}
				}
		}},
		{outbox.KindInvoiceSave, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, editableInvoice)
			inv := completeInvoice(t, wo, "KINDS-SAVE-1")
			return func() (*OutboxRow, error) { return s.SaveInvoice(ctx, wo.WorkOrderId, inv) },
				func(t *testing.T) {
					remote, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
					if err != nil {
						t.Fatal(err)
					}
					if remote.InvoiceNumber != "KINDS-SAVE-1" || len(remote.LineItems) != 1 || remote.LineItems[0].PriceListItemId != inv.LineItems[0].PriceListItemId {
						t.Errorf("the service's invoice is %q with %d lines", remote.InvoiceNumber, len(remote.LineItems))
					}
					cached, err := s.Invoice(ctx, wo.WorkOrderId)
					if err != nil || cached.InvoiceNumber != "KINDS-SAVE-1" || len(cached.LineItems) != 1 || !cached.TotalAmount.Amount.Equal(remote.TotalAmount.Amount) {
						t.Errorf("the replica's invoice is %+v, %v; want the saved one, total %s", cached, err, remote.TotalAmount.Format())
					}
				}
		}},
		{outbox.KindInvoiceSubmit, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, func(w *api.WorkOrder) bool {
				return editableInvoice(w) && w.Nte.Quote == nil
			})
			inv := completeInvoice(t, wo, "KINDS-SUBMIT-1")
			if !wo.Nte.NoLimit() && inv.LineItems[0].Rate.Amount.GreaterThan(wo.Nte.Amount.Amount) {
				t.Fatalf("the cheapest item is above the NTE of %d", wo.WorkOrderId)
			}
			// The invoice was completed earlier (on another device).
			if _, err := svc.client.SaveInvoice(ctx, &api.SaveInvoiceRequest{WorkOrderId: wo.WorkOrderId, Invoice: inv}); err != nil {
				t.Fatal(err)
			}
			refresh(t, wo.WorkOrderId)
			return func() (*OutboxRow, error) { return s.SubmitInvoice(ctx, wo.WorkOrderId, false) },
				func(t *testing.T) {
					remote, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
					if err != nil || remote.Status != api.InvoiceSubmitted {
						t.Errorf("the service's invoice is %+v, %v; want Submitted", remote, err)
					}
					if cached, err := s.Invoice(ctx, wo.WorkOrderId); err != nil || cached.Status != api.InvoiceSubmitted {
						t.Errorf("the replica's invoice is %+v, %v; want Submitted", cached, err)
					}
				}
		}},
		{outbox.KindInvoiceDelete, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, editableInvoice)
			inv := completeInvoice(t, wo, "KINDS-DELETE-1")
			if _, err := svc.client.SaveInvoice(ctx, &api.SaveInvoiceRequest{WorkOrderId: wo.WorkOrderId, Invoice: inv}); err != nil {
				t.Fatal(err)
			}
			refresh(t, wo.WorkOrderId)
			if cached, err := s.Invoice(ctx, wo.WorkOrderId); err != nil || len(cached.LineItems) == 0 {
				t.Fatalf("the replica should hold the invoice before it is deleted: %+v, %v", cached, err)
			}
			return func() (*OutboxRow, error) { return s.DeleteInvoice(ctx, wo.WorkOrderId) },
				func(t *testing.T) {
					remote, err := svc.client.GetInvoice(ctx, wo.WorkOrderId)
					if err != nil || len(remote.LineItems) != 0 || remote.InvoiceNumber != "" {
						t.Errorf("the service's invoice after delete is %+v, %v; want it empty", remote, err)
					}
					cached, err := s.Invoice(ctx, wo.WorkOrderId)
					if err == nil && (len(cached.LineItems) != 0 || cached.InvoiceNumber != "") {
						t.Errorf("the replica still shows the deleted invoice %q with %d lines", cached.InvoiceNumber, len(cached.LineItems))
					} else if err != nil && !errors.Is(err, ErrNotFound) {
						t.Error(err)
					}
				}
		}},
		{outbox.KindInvoiceAttachmentAdd, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, editableInvoice)
			path := file(t, "kinds-receipt.pdf", "%PDF-1.4 receipt")
			return func() (*OutboxRow, error) { return s.AddInvoiceAttachment(ctx, wo.WorkOrderId, path) },
				func(t *testing.T) {
					remote, err := svc.client.ListInvoiceAttachments(ctx, wo.WorkOrderId)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Contains(names(remote), "kinds-receipt.pdf") {
						t.Errorf("the service's invoice attachments are %v", names(remote))
					}
					if cached, _ := s.InvoiceAttachments(ctx, wo.WorkOrderId); !slices.Contains(names(cached), "kinds-receipt.pdf") {
						t.Errorf("the replica's invoice attachments are %v", names(cached))
					}
				}
		}},
		{outbox.KindInvoiceAttachmentRemove, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, editableInvoice)
			att, err := svc.client.UploadInvoiceAttachment(ctx, wo.WorkOrderId, api.Upload{Name: "kinds-old-receipt.pdf",
				MimeType: "application/pdf", Content: strings.NewReader("%PDF old")})
			if err != nil {
				t.Fatal(err)
			}
			refresh(t, wo.WorkOrderId)
			if cached, _ := s.InvoiceAttachments(ctx, wo.WorkOrderId); !slices.Contains(names(cached), "kinds-old-receipt.pdf") {
				t.Fatalf("the replica should list the attachment before it is removed: %v", names(cached))
			}
			return func() (*OutboxRow, error) { return s.RemoveInvoiceAttachment(ctx, wo.WorkOrderId, att.AttachmentId) },
				func(t *testing.T) {
					remote, err := svc.client.ListInvoiceAttachments(ctx, wo.WorkOrderId)
					if err != nil {
						t.Fatal(err)
					}
					if slices.Contains(names(remote), "kinds-old-receipt.pdf") {
						t.Errorf("the service still has the removed attachment")
					}
					if cached, _ := s.InvoiceAttachments(ctx, wo.WorkOrderId); slices.Contains(names(cached), "kinds-old-receipt.pdf") {
						t.Errorf("the replica still lists the removed attachment")
					}
				}
		}},
		{outbox.KindStepAttachmentAdd, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			ref := editableStep(t)
			path := file(t, "kinds-step.jpg", "\xff\xd8 gauge after repair")
			return func() (*OutboxRow, error) { return s.AddStepAttachment(ctx, ref, path) },
				func(t *testing.T) {
					if got := stepNames(t, ref); !slices.Contains(got, "kinds-step.jpg") {
						t.Errorf("the service's step attachments are %v", got)
					}
				}
		}},
		{outbox.KindStepAttachmentRemove, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			ref := editableStep(t)
			att, err := svc.client.UploadStepAttachment(ctx, ref, api.Upload{Name: "kinds-old-step.jpg",
				MimeType: "image/jpeg", Content: strings.NewReader("old jpg")})
			if err != nil {
				t.Fatal(err)
			}
			return func() (*OutboxRow, error) { return s.RemoveStepAttachment(ctx, ref, att.AttachmentId) },
				func(t *testing.T) {
					if got := stepNames(t, ref); slices.Contains(got, "kinds-old-step.jpg") {
						t.Errorf("the service still has the removed step attachment: %v", got)
					}
				}
		}},
		{outbox.KindAssign, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			// Two accepted work orders of one branch, a technician of it
			// on neither.
			first := take(t, status(api.StatusAccepted))
			second := take(t, func(w *api.WorkOrder) bool { return status(api.StatusAccepted)(w) && w.BranchId == first.BranchId })
			who := technicianOff(t, s, first, second)
			return func() (*OutboxRow, error) {
					return s.Assign(ctx, []int64{first.WorkOrderId, second.WorkOrderId}, []int64{who})
				},
				func(t *testing.T) {
					for _, id := range []int64{first.WorkOrderId, second.WorkOrderId} {
						for where, w := range map[string]*api.WorkOrder{"service": svc.remote(t, id), "replica": local(t, id)} {
							if on, known := w.AssignedTo(who); !on || !known || w.Status != api.StatusAccepted {
								t.Errorf("the %s's work order %d: assigned %v (known %v), %s; want the technician on it, still accepted", where, id, on, known, w.Status)
							}
						}
					}
				}
		}},
		{outbox.KindUnassign, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, func(w *api.WorkOrder) bool {
				who, _ := w.Assigned()
				return status(api.StatusCheckedIn)(w) && len(who) > 0
			})
			who, _ := wo.Assigned()
			gone := who[0].Id
			return func() (*OutboxRow, error) { return s.Unassign(ctx, []int64{wo.WorkOrderId}, []int64{gone}) },
				func(t *testing.T) {
					for where, w := range map[string]*api.WorkOrder{"service": svc.remote(t, wo.WorkOrderId), "replica": local(t, wo.WorkOrderId)} {
						if on, known := w.AssignedTo(gone); on || !known || w.Status != api.StatusCheckedIn {
							t.Errorf("the %s: still assigned %v (known %v), %s; want them off, still checked in", where, on, known, w.Status)
						}
					}
				}
		}},
		{outbox.KindStepUpdate, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			// A number with its unit: the refrigeration checklist's first
			// step, the temperature before service (°F).
			id := svc.sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandboxtest.ProcedureEditable}).WorkOrderId
			refresh(t, id)
			used[id] = true
			wo := local(t, id)
			p := wo.Procedures()[0]
			ref := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: p.Sorted()[0].Id}
			return func() (*OutboxRow, error) {
					return s.UpdateStep(ctx, ref, api.StepUpdate{Status: api.StepDone, Value: "38.50", Comment: "before defrost"})
				}, func(t *testing.T) {
					remote, err := svc.client.GetStep(ctx, ref)
					if err != nil || remote.Status != api.StepDone || remote.Value != "38.5" || remote.Comment != "before defrost" {
						t.Errorf("the service's step is %+v, %v; want Done, 38.5, the comment", remote, err)
					}
					_, st, ok := local(t, id).Step(ref)
					if !ok || st.Status != api.StepDone || st.ValueText(wo.Currency) != "38.5 °F" {
						t.Errorf("the replica's step is %+v; want Done at 38.5 °F", st)
					}
				}
		}},
		{outbox.KindProcedureNA, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, func(w *api.WorkOrder) bool {
				for _, p := range w.Procedures() {
					if w.CanMarkNotApplicable(p.Id) == nil {
						return true
					}
				}
				return false
			})
			var proc int64
			for _, p := range wo.Procedures() {
				if wo.CanMarkNotApplicable(p.Id) == nil {
					proc = p.Id
					break
				}
			}
			marked := func(w *api.WorkOrder) bool { p, ok := w.Procedure(proc); return ok && p.IsMarkedNa }
			return func() (*OutboxRow, error) { return s.MarkProcedureNA(ctx, wo.WorkOrderId, proc) },
				func(t *testing.T) {
					if !marked(svc.remote(t, wo.WorkOrderId)) || !marked(local(t, wo.WorkOrderId)) {
						t.Errorf("procedure %d is not marked N/A at the service (%v) and in the replica (%v)", proc,
							marked(svc.remote(t, wo.WorkOrderId)), marked(local(t, wo.WorkOrderId)))
					}
				}
		}},
		{outbox.KindNote, func(t *testing.T) (func() (*OutboxRow, error), func(*testing.T)) {
			wo := take(t, status(api.StatusAccepted))
			const text = "Gate code 4471; the dock closes at 16:00."
			return func() (*OutboxRow, error) { return s.SetNote(ctx, wo.WorkOrderId, text, "") },
				func(t *testing.T) {
					h, err := svc.client.NoteHistory(ctx, wo.WorkOrderId)
					if err != nil || api.CurrentNote(h).InternalNote != text {
						t.Errorf("the service's note is %+v, %v", h, err)
					}
					n, err := s.Note(ctx, wo.WorkOrderId)
					if err != nil || n.Current.InternalNote != text || n.Current.UpdatedBy == "" || n.Queued != nil {
						t.Errorf("the replica's note is %+v, %v; want ours, with who wrote it", n, err)
					}
				}
		}},
	}

	covered := map[outbox.Kind]bool{}
	for _, c := range cases {
		covered[c.kind] = true
	}
	for _, k := range outbox.Kinds() {
		if !covered[k] {
			t.Errorf("outbox kind %q has no end-to-end case", k)
		}
	}

	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			act, check := c.prepare(t)
			row, err := act()
			if err != nil {
				t.Fatalf("queueing: %v", err)
			}
			if row.Kind != c.kind || row.State != OutboxPending {
				t.Fatalf("queued a %s row in state %s; want a pending %s row", row.Kind, row.State, c.kind)
			}
			before := map[int64]time.Time{}
			for _, id := range row.WorkOrderIds {
				before[id] = local(t, id).LastUpdate
			}
			svc.sb.AdvanceClock(time.Minute) // the action's LastUpdate differs from the synced one
			svc.wire.reset()
			sendAll(t, x)
			got := rowState(t, s, row.Id)
			if got.State != OutboxDone {
				t.Fatalf("row = %s (code %d) %q; want done", got.State, got.ErrorCode, got.Error)
			}
			sent := 0
			e, _ := outbox.Of(c.kind)
			route := e.Route // what the hub forwards and names for it
			svc.wire.mu.Lock()
			for _, r := range svc.wire.log {
				if r.MessageId == row.MessageId {
					sent++
					if r.Method != route.Method || strings.TrimRight(r.Path, "/") != strings.ToLower(strings.TrimRight(route.Path, "/")) {
						t.Errorf("sent as %s %s; its table entry says %s %s", r.Method, r.Path, route.Method, route.Path)
					}
				}
			}
			svc.wire.mu.Unlock()
			if sent != 1 {
				t.Errorf("the service saw the row's MessageId %d times; want once", sent)
			}
			check(t)
			// Whatever the kind, the replica's record is the service's
			// record after the action, not the one synced before it. An
			// assignment moves no LastUpdate (service-facts §16).
			e, _ = outbox.Of(c.kind)
			moves := e.Group != outbox.GroupCrew
			for _, id := range row.WorkOrderIds {
				remote, replica := svc.remote(t, id).LastUpdate, local(t, id).LastUpdate
				if !replica.Equal(remote) || moves && replica.Equal(before[id]) {
					t.Errorf("work order %d: the replica's LastUpdate is %v (was %v); the service's is %v", id, replica, before[id], remote)
				}
			}
			if entries, _ := os.ReadDir(s.spool); len(entries) != 0 {
				t.Errorf("%d spooled files left after the upload was sent", len(entries))
			}
		})
	}
}

// technicianOff is a technician of the work orders' branch (as the replica
// lists it) assigned to none of them.
func technicianOff(t *testing.T, s *Store, wos ...*api.WorkOrder) int64 {
	t.Helper()
	list, known, err := s.Associates(context.Background(), wos[0].BranchId)
	if err != nil || !known {
		t.Fatalf("the replica does not list branch %d's associates: %v", wos[0].BranchId, err)
	}
	for _, a := range list {
		free := a.Technician()
		for _, wo := range wos {
			if on, _ := wo.AssignedTo(a.Id); on {
				free = false
			}
		}
		if free {
			return a.Id
		}
	}
	t.Fatalf("every technician of branch %d is on one of the work orders", wos[0].BranchId)
	return 0
}
