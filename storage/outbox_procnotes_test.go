package storage

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
	"github.com/workorderdesk/workdesk/outbox"
)

// stepFixture is a checked-in work order of the service with an editable
// procedure (the refrigeration checklist), in the replica: its id, the
// procedure and its steps in order.
func stepFixture(t *testing.T, svc *service, s *Store) (int64, api.Procedure, []api.Step) {
	t.Helper()
	id := svc.sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusCheckedIn, Procedure: sandboxtest.ProcedureEditable}).WorkOrderId
	if err := NewSyncer(s, svc.client, SyncOptions{}).Refresh(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	wo, err := s.WorkOrder(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	p := wo.Procedures()[0]
	return id, p, p.Sorted()
}

// An edit of the note made while a colleague changed it in CorrigoPro
// Desktop is not sent over theirs: it waits for the person, who keeps
// theirs, takes the newer one or merges the two.
func TestNoteChangedMeanwhileIsAsked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const mine, theirs = "Ladder in the van; key at the front desk.", "Gate code changed to 5582."
	setup := func(t *testing.T) (*service, *Store, *Sender, int64, *OutboxRow) {
		svc := newService(t, 80)
		s := syncedStore(t, svc)
		wo := pick(t, s, status(api.StatusAccepted))
		// Offline, the person edits the note as they last saw it (none).
		row := mustRow(t)(s.SetNote(ctx, wo.WorkOrderId, mine, ""))
		if err := svc.sb.EditNoteInDesktop(wo.WorkOrderId, theirs, "Dana Whitfield"); err != nil {
			t.Fatal(err)
		}
		x := NewSender(s, svc.client, SenderOptions{Backoff: noWait})
		sendAll(t, x)
		got := rowState(t, s, row.Id)
		if got.Asked() == nil || !strings.Contains(got.Error, "Dana Whitfield changed the internal note") {
			t.Fatalf("the edit is %s (code %d) %q; want it waiting for the person, naming who changed it", got.State, got.ErrorCode, got.Error)
		}
		if n := len(svc.sb.Received(http.MethodPut, "/api/workOrder/note")); n != 0 {
			t.Fatalf("the edit reached the service %d times before the person decided", n)
		}
		n, err := s.Note(ctx, wo.WorkOrderId)
		if err != nil || n.Current.InternalNote != theirs || n.Current.UpdatedBy != "Dana Whitfield" || n.Changed == nil || n.Changed.Id != row.Id {
			t.Fatalf("the replica's note is %+v, %v; want theirs, by Dana, with our edit waiting", n, err)
		}
		return svc, s, x, wo.WorkOrderId, row
	}
	serviceNote := func(t *testing.T, svc *service, id int64) string {
		h, err := svc.client.NoteHistory(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return api.CurrentNote(h).InternalNote
	}

	t.Run("keep mine", func(t *testing.T) {
		t.Parallel()
		svc, s, x, id, row := setup(t)
		if _, err := s.KeepMine(ctx, row.Id); err != nil {
			t.Fatal(err)
		}
		sendAll(t, x)
		if r := rowState(t, s, row.Id); r.State != OutboxDone {
			t.Fatalf("kept, the edit is %s %q", r.State, r.Error)
		}
		if got := serviceNote(t, svc, id); got != mine {
			t.Errorf("the service's note is %q; want ours", got)
		}
		if n, _ := s.Note(ctx, id); n.Current.InternalNote != mine || len(n.History) != 2 {
			t.Errorf("the replica's note is %+v; want ours after theirs", n)
		}
	})
	t.Run("take theirs", func(t *testing.T) {
		t.Parallel()
		svc, s, x, id, row := setup(t)
		if err := s.Discard(ctx, row.Id); err != nil {
			t.Fatal(err)
		}
		sendAll(t, x)
		if got := serviceNote(t, svc, id); got != theirs {
			t.Errorf("the service's note is %q; want theirs", got)
		}
		if n := len(svc.sb.Received(http.MethodPut, "/api/workOrder/note")); n != 0 {
			t.Errorf("the note was written %d times; want never", n)
		}
	})
	t.Run("merge by hand", func(t *testing.T) {
		t.Parallel()
		svc, s, x, id, row := setup(t)
		merged := theirs + "\n" + mine
		if _, err := s.SetNote(Replacing(ctx, row.Id), id, merged, theirs); err != nil {
			t.Fatal(err)
		}
		if r := rowState(t, s, row.Id); r.State != OutboxDiscarded {
			t.Errorf("the edit merged by hand is %s; want it replaced", r.State)
		}
		sendAll(t, x)
		if got := serviceNote(t, svc, id); got != merged {
			t.Errorf("the service's note is %q; want the merge", got)
		}
	})
	t.Run("the same note", func(t *testing.T) {
		// A colleague who wrote exactly what we wrote leaves nothing to ask.
		t.Parallel()
		svc := newService(t, 80)
		s := syncedStore(t, svc)
		wo := pick(t, s, status(api.StatusAccepted))
		row := mustRow(t)(s.SetNote(ctx, wo.WorkOrderId, mine, ""))
		if err := svc.sb.EditNoteInDesktop(wo.WorkOrderId, mine, "Dana Whitfield"); err != nil {
			t.Fatal(err)
		}
		sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
		if r := rowState(t, s, row.Id); r.State != OutboxDone {
			t.Errorf("the edit is %s %q; want done", r.State, r.Error)
		}
		if n := len(svc.sb.Received(http.MethodPut, "/api/workOrder/note")); n != 0 {
			t.Errorf("the note was written %d times; want never", n)
		}
	})
}

// Steps completed offline go out in the order the person set them; while
// they wait, the work order as the person sees it shows them. A step whose
// procedure a colleague marked N/A first is refused, and the colleague's
// action is what explains it.
func TestStepUpdatesQueueInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := newService(t, 80)
	s := syncedStore(t, svc)
	id, p, steps := stepFixture(t, svc, s)
	temp := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: steps[0].Id}
	mustRow(t)(s.UpdateStep(ctx, temp, api.StepUpdate{Status: api.StepDone, Value: "41"}))
	mustRow(t)(s.UpdateStep(ctx, temp, api.StepUpdate{Status: api.StepDone, Value: "38.5", Comment: "read again after defrost"}))
	if _, err := s.UpdateStep(ctx, temp, api.StepUpdate{Status: api.StepDone, Value: "cold"}); err == nil {
		t.Errorf("a temperature of %q was queued", "cold")
	}
	pend, err := s.Pending(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, st, _ := pend.Expected.Step(temp); st.Value != "38.5" || st.Status != api.StepDone {
		t.Errorf("while queued, the step shows %+v; want the last value set", st)
	}
	if _, st, _ := pend.Replica.Step(temp); st.Status == api.StepDone {
		t.Errorf("the replica's step changed before anything was sent")
	}
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	var values []string
	for _, r := range svc.sb.Received(http.MethodPut, "/api/procedure/step") {
		var req api.StepRequest
		if err := json.Unmarshal(r.Body, &req); err == nil {
			values = append(values, req.Value)
		}
	}
	if strings.Join(values, ",") != "41,38.5" {
		t.Errorf("the service received the values %v; want 41 then 38.5", values)
	}
	if st, err := svc.client.GetStep(ctx, temp); err != nil || st.Value != "38.5" {
		t.Errorf("the service's step is %+v, %v", st, err)
	}

	// A colleague marks the procedure N/A before our next step goes out.
	gaskets := api.StepRef{WorkOrderId: id, ProcedureId: p.Id, StepId: steps[2].Id}
	row := mustRow(t)(s.UpdateStep(ctx, gaskets, api.StepUpdate{Status: api.StepDone, Value: "no", Comment: "left door torn"}))
	if err := svc.sb.MarkProcedure(id, p.Id, true, false); err != nil {
		t.Fatal(err)
	}
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	got := rowState(t, s, row.Id)
	if got.State != OutboxFailed || !strings.Contains(got.Error, "marked N/A") {
		t.Fatalf("the step of a procedure marked N/A is %s %q; want refused", got.State, got.Error)
	}
	if !strings.Contains(strings.Join(outbox.KindStepUpdate.Conflicts(), ","), "ProcedureMarkedNaByContractor") {
		t.Errorf("a refused step is not explained by a colleague's N/A mark: %v", outbox.KindStepUpdate.Conflicts())
	}
	if d, ok := got.Draft("USD"); !ok || d.Step == nil || d.Step.Value != api.StepNo || d.Text != "left door torn" {
		t.Errorf("the refused step reads back as %+v; want its value and comment", d)
	}
}

// InternalNoteChanged is a hint: the note is read again from the service,
// and the replica shows what the service lists, whatever the body said.
func TestNoteNotificationIsReadAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb := sandboxtest.New(t, sandboxtest.RealClock())
	wo := sb.Create(sandboxtest.WorkOrderSpec{Status: api.StatusAccepted})
	info := sb.Info
	eng, err := OpenEngine(ctx, filepath.Join(t.TempDir(), "replica.db"), EngineOptions{Connection: api.Connection{
		BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}})
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
	if err := sb.EditNoteInDesktop(wo.WorkOrderId, "Alarm code 1234; call Dana first.", "Dana Whitfield"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the note to be read again", func() bool {
		n, err := eng.Store.Note(ctx, wo.WorkOrderId)
		return err == nil && n.Current.InternalNote == "Alarm code 1234; call Dana first." && n.Current.UpdatedBy == "Dana Whitfield"
	})
}
