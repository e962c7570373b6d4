package storage

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// liveRig is an engine as the window runs it against a started sandbox:
// synced, with its receiver taking the sandbox's signed notifications.
type liveRig struct {
	sb    *sandbox.Sandbox
	eng   *Engine
	heard chan api.Event
}

func newLiveRig(t *testing.T, n int) *liveRig {
	t.Helper()
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 5, WorkOrders: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	info, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), EngineOptions{Connection: api.Connection{
		BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}, ManualSend: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eng.Close)
	if err := eng.SyncNow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	v, err := api.NewVerifier(info.CertPEM)
	if err != nil {
		t.Fatal(err)
	}
	addr, err := eng.Listen("127.0.0.1:0", "/notify", eng.Receiver(v, api.ReceiverOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	sb.SetNotifyURL("http://" + addr.String() + "/notify")
	r := &liveRig{sb: sb, eng: eng, heard: make(chan api.Event, 64)}
	eng.OnEvent(func(ev api.Event) { r.heard <- ev })
	return r
}

// await waits for the notification of action about woID to have been
// taken (logged, and applied when it changed the replica).
func (r *liveRig) await(t *testing.T, action string, woID int64) api.Event {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-r.heard:
			if ev.Header.Action == action && (woID == 0 || ev.Header.WorkOrderId == woID) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s notification about %d reached the engine", action, woID)
		}
	}
}

// TestEveryDocumentedNotificationIsApplied: for each action of
// service-facts §9.3, the sandbox does it as the customer (or a colleague
// outside the app) would and sends its documented notification; the
// desktop re-reads what it touched, and the replica shows what the service
// says, not what the body said. An unknown action is logged and ignored.
func TestEveryDocumentedNotificationIsApplied(t *testing.T) {
	r := newLiveRig(t, 200)
	ctx := context.Background()
	s, c := r.eng.Store, r.eng.Client
	used := map[int64]bool{}
	// find takes a work order of the replica no other case used.
	find := func(t *testing.T, ok func(*api.WorkOrder) bool) int64 {
		t.Helper()
		rows, err := s.List(ctx, ListQuery{Sort: SortNumber})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			wo, err := s.WorkOrder(ctx, row.Id)
			if err == nil && !used[row.Id] && !wo.IsPreBilled && ok(wo) {
				used[row.Id] = true
				return row.Id
			}
		}
		t.Fatal("no work order in the sandbox world fits the case")
		return 0
	}
	in := func(st ...api.WorkOrderStatus) func(*api.WorkOrder) bool {
		return func(wo *api.WorkOrder) bool { return slices.Contains(st, wo.Status) }
	}
	// sameAsService: the replica's work order is the service's, field by field.
	sameAsService := func(t *testing.T, id int64) *api.WorkOrder {
		t.Helper()
		got, err := s.WorkOrder(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.GetWorkOrder(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("the replica's work order is not the service's:\n got %s\nwant %s", g, w)
		}
		return got
	}
	hasStatus := func(st api.WorkOrderStatus) func(t *testing.T, id int64) {
		return func(t *testing.T, id int64) {
			if wo := sameAsService(t, id); wo.Status != st {
				t.Fatalf("status %s, want %s", wo.Status, st)
			}
		}
	}
	attachmentsAsService := func(t *testing.T, id int64) {
		got, _ := s.Attachments(ctx, id)
		want, _ := c.ListAttachments(ctx, id)
		if len(got) != len(want) {
			t.Fatalf("the replica lists %d attachments, the service %d", len(got), len(want))
		}
	}
	invoiceIs := func(t *testing.T, id int64) *api.Invoice {
		got, err := s.Invoice(ctx, id)
		if err != nil {
			t.Fatalf("the invoice was not re-read: %v", err)
		}
		want, _ := c.GetInvoice(ctx, id)
		if got.Status != want.Status {
			t.Fatalf("the replica's invoice is %s, the service's %s", got.Status, want.Status)
		}
		return got
	}
	withInvoice := func(st api.InvoiceStatus) func(*api.WorkOrder) bool {
		return func(wo *api.WorkOrder) bool {
			inv, err := c.GetInvoice(ctx, wo.WorkOrderId)
			return wo.Status.Completed() && err == nil && inv.Status == st
		}
	}
	withFiles := func(wo *api.WorkOrder) bool {
		atts, err := c.ListAttachments(ctx, wo.WorkOrderId)
		return err == nil && len(atts) > 0 && !slices.Contains([]api.WorkOrderStatus{api.StatusRejected, api.StatusRecalled}, wo.Status)
	}

	cases := []struct {
		action string
		pick   func(*api.WorkOrder) bool
		before func(t *testing.T, id int64) // brings a part into the replica first
		check  func(t *testing.T, id int64)
	}{
		{action: api.ActionAccepted, pick: in(api.StatusNew), check: hasStatus(api.StatusAccepted)},
		{action: api.ActionRejected, pick: in(api.StatusNew), check: hasStatus(api.StatusRejected)},
		{action: api.ActionCheckedIn, pick: in(api.StatusAccepted), check: hasStatus(api.StatusCheckedIn)},
		{action: api.ActionPaused, pick: in(api.StatusCheckedIn), check: hasStatus(api.StatusPaused)},
		{action: api.ActionCheckedOut, pick: in(api.StatusCheckedIn), check: func(t *testing.T, id int64) {
			hasStatus(api.StatusCheckedOut)(t, id)
			if inv := invoiceIs(t, id); inv.SubmissionDeadline == nil {
				t.Fatal("the invoice's submission deadline did not come with the re-read")
			}
		}},
		{action: api.ActionNeedsCompletionDetails, pick: in(api.StatusCheckedIn), check: hasStatus(api.StatusNeedsCompletionDetails)},
		{action: api.ActionPutOnHold, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) {
			hasStatus(api.StatusOnHold)(t, id)
			wo, _ := s.WorkOrder(ctx, id)
			if wo.Can(api.CheckIn) == nil {
				t.Fatal("a work order on hold still offers check-in")
			}
		}},
		{action: api.ActionReopened, pick: in(api.StatusOnHold), check: hasStatus(api.StatusNew)},
		{action: api.ActionRecalled, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) {
			wo, _ := s.WorkOrder(ctx, id)
			if wo.Status != api.StatusRecalled || wo.Can(api.CheckIn) == nil {
				t.Fatalf("after a recall the replica says %s", wo.Status)
			}
		}},
		{action: api.ActionWorkVerified, pick: in(api.StatusCheckedOut), check: hasStatus(api.StatusVerified)},
		{action: api.ActionNteChanged, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionQuoteChanged, pick: func(wo *api.WorkOrder) bool {
			return wo.Nte.Quote != nil && wo.Nte.Quote.QuoteStatus == api.QuoteSubmitted
		}, check: func(t *testing.T, id int64) {
			if wo := sameAsService(t, id); wo.Nte.Quote.QuoteStatus != api.QuoteApproved {
				t.Fatalf("quote %s", wo.Nte.Quote.QuoteStatus)
			}
		}},
		{action: api.ActionSlaChanged, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionAppointmentInfoChanged, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionMessageSent, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) {
			msgs, _ := s.Messages(ctx, id)
			want, _ := c.ListMessages(ctx, id)
			if len(msgs) == 0 || len(msgs) != len(want) || msgs[len(msgs)-1].Text != want[len(want)-1].Text {
				t.Fatalf("the thread holds %d messages, the service %d", len(msgs), len(want))
			}
		}},
		{action: api.ActionAttachmentAdded, pick: in(api.StatusAccepted), check: attachmentsAsService},
		{action: api.ActionAttachmentRemoved, pick: withFiles, before: func(t *testing.T, id int64) {
			if err := r.eng.Refresh(ctx, id); err != nil {
				t.Fatal(err)
			}
		}, check: attachmentsAsService},
		{action: api.ActionCheckListUpdated, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) {
			if wo := sameAsService(t, id); wo.WorkDetails == nil || len(wo.WorkDetails.CheckList) == 0 {
				t.Fatal("no check list in the replica")
			}
		}},
		{action: api.ActionCheckListMigrated, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionProcedureMarked, pick: func(wo *api.WorkOrder) bool {
			return wo.ProceduresEditable() && slices.ContainsFunc(wo.Procedures(), func(p api.Procedure) bool { return p.AllowMarkNotApplicable != nil && *p.AllowMarkNotApplicable })
		}, check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionProcedureUpdated, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionCompletionInfoChanged, pick: in(api.StatusCheckedOut), check: func(t *testing.T, id int64) {
			sameAsService(t, id)
			invoiceIs(t, id)
		}},
		{action: api.ActionInvoiceStatusChanged, pick: withInvoice(api.InvoiceSubmitted), check: func(t *testing.T, id int64) {
			if inv := invoiceIs(t, id); inv.Status != api.InvoiceAuthorized {
				t.Fatalf("invoice %s", inv.Status)
			}
			n, err := s.InvoiceNotice(ctx, id)
			if err != nil || n == nil || n.AuthNumber == "" || n.Amount == nil {
				t.Fatalf("the customer's notification was not kept: %+v, %v", n, err)
			}
		}},
		{action: api.ActionInternalNoteChanged, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) {
			sameAsService(t, id)
			want, err := c.NoteHistory(ctx, id)
			if err != nil || len(want) == 0 {
				t.Fatalf("the service lists no note: %v", err)
			}
			n, err := s.Note(ctx, id)
			if err != nil || !reflect.DeepEqual(n.History, want) {
				t.Fatalf("the replica's note history is %+v (%v); the service's is %+v", n, err, want)
			}
		}},
		{action: api.ActionIsmStatusChanged, pick: in(api.StatusAccepted), check: func(t *testing.T, id int64) { sameAsService(t, id) }},
		{action: api.ActionFieldDescriptorUpdated, pick: func(wo *api.WorkOrder) bool {
			cs, err := c.GetCustomerSettings(ctx, wo.Customer.Id)
			return err == nil && len(cs.CustomFields) > 0
		}, check: func(t *testing.T, id int64) {
			wo, _ := s.WorkOrder(ctx, id)
			cs, err := s.CustomerSettings(ctx, wo.Customer.Id)
			if err != nil || !slices.ContainsFunc(cs.CustomFields, func(d api.CustomFieldDescriptor) bool { return strings.HasSuffix(d.Label, "(revised)") }) {
				t.Fatalf("the customer's questions were not re-read: %+v, %v", cs, err)
			}
		}},
	}
	tested := map[string]bool{api.ActionNewWorkOrder: true}
	for _, tc := range cases {
		tested[tc.action] = true
		t.Run(tc.action, func(t *testing.T) {
			id := find(t, tc.pick)
			if tc.before != nil {
				tc.before(t, id)
			}
			if err := r.sb.Act(id, tc.action, sandbox.ActOptions{}); err != nil {
				t.Fatalf("the sandbox refused to act: %v", err)
			}
			heardAbout := id
			if tc.action == api.ActionFieldDescriptorUpdated {
				heardAbout = 0 // a company-level notification
			}
			r.await(t, tc.action, heardAbout)
			tc.check(t, id)
		})
	}
	t.Run(api.ActionNewWorkOrder, func(t *testing.T) {
		wo, err := r.sb.DispatchWorkOrder()
		if err != nil {
			t.Fatal(err)
		}
		r.await(t, api.ActionNewWorkOrder, wo.WorkOrderId)
		if got := sameAsService(t, wo.WorkOrderId); got.Status != api.StatusNew {
			t.Fatalf("the dispatched work order is %s in the replica", got.Status)
		}
		if _, err := s.Attachments(ctx, wo.WorkOrderId); err != nil {
			t.Fatalf("its attachments were not read: %v", err)
		}
	})
	for _, a := range api.DocumentedActions {
		if !tested[a] {
			t.Errorf("no case for %s", a)
		}
	}
	t.Run("an unknown action", func(t *testing.T) {
		id := find(t, in(api.StatusAccepted))
		before, _ := s.WorkOrder(ctx, id)
		raw, _ := api.MarshalEvent(api.EventHeader{WorkOrderId: id, Action: "SomethingNewer", ActionDate: time.Now(), MessageId: "unknown-1"},
			map[string]any{"Status": "Recalled"})
		ev, err := api.ParseEvent(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.eng.HandleEvent(ctx, ev); err != nil {
			t.Fatalf("an unknown action was refused: %v", err)
		}
		evs, _ := s.Events(ctx, id)
		if !slices.ContainsFunc(evs, func(e EventRecord) bool { return e.Header.Action == "SomethingNewer" }) {
			t.Fatal("the unknown action was not logged")
		}
		if after, _ := s.WorkOrder(ctx, id); after.Status != before.Status {
			t.Fatalf("an unknown action changed the work order to %s", after.Status)
		}
	})
}
