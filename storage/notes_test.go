package storage

import (
	"context"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// The note as it stands is the work order's InternalNote, stored with the
// record; the history names who wrote it and when. Its order is not
// published: listed newest first without dates, the history's last entry
// is not the note, and the work order's value still is. A record without
// InternalNote leaves the history to say.
func TestTheNoteIsTheWorkOrders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTest(t)
	withNote := mkWO(woSpec{id: 1, number: "WN1", status: api.StatusAccepted})
	withNote.InternalNote = new("gate 9000")
	without := mkWO(woSpec{id: 2, number: "WN2", status: api.StatusAccepted})
	if err := s.PutWorkOrders(ctx, []api.WorkOrder{withNote, without}); err != nil {
		t.Fatal(err)
	}
	newestFirst := []api.NoteEntry{{InternalNote: "gate 9000", UpdatedBy: "Ana"}, {InternalNote: "gate 4471", UpdatedBy: "Bo"}}
	for _, id := range []int64{1, 2} {
		if err := putNoteHistory(ctx, s.w, id, newestFirst, 1); err != nil {
			t.Fatal(err)
		}
	}
	if wo, err := s.WorkOrder(ctx, 1); err != nil || wo.InternalNote == nil || *wo.InternalNote != "gate 9000" {
		t.Fatalf("the replica keeps InternalNote %v (%v)", wo.InternalNote, err)
	}
	for id, want := range map[int64]api.NoteEntry{
		1: {InternalNote: "gate 9000", UpdatedBy: "Ana"},
		2: {InternalNote: "gate 4471", UpdatedBy: "Bo"}, // no InternalNote: the history's last
		3: {},                                           // not in the replica, no history
	} {
		got, err := s.StoredNote(ctx, id)
		if err != nil || got != want {
			t.Errorf("work order %d: the note is %+v (%v); want %+v", id, got, err, want)
		}
	}
}

// The note as the service has it now (api.Client.NoteNow: the work
// order's InternalNote, named from the history) is a colleague's after
// their edit in Desktop; an edit begun from no note is then stopped; and
// a refresh keeps both in the replica, which says the same.
func TestTheNoteIsReadFromTheWorkOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := newService(t, 30)
	s := syncedStore(t, svc)
	wo := pick(t, s, status(api.StatusAccepted))
	if wo.InternalNote == nil || *wo.InternalNote != "" {
		t.Fatalf("after the sync the replica's InternalNote is %v; want the sandbox's \"\"", wo.InternalNote)
	}
	if err := svc.sb.EditNoteInDesktop(wo.WorkOrderId, "gate 4471", "Ana Ruiz"); err != nil {
		t.Fatal(err)
	}
	now, err := svc.client.NoteNow(ctx, wo.WorkOrderId)
	if err != nil || now.InternalNote != "gate 4471" || now.UpdatedBy != "Ana Ruiz" || now.ActionDate.IsZero() {
		t.Fatalf("the note now: %+v, %v", now, err)
	}
	if got := api.JudgeNoteEdit(now, "", "my note"); got != api.NoteChanged {
		t.Errorf("an edit begun from no note, over a colleague's: %v; want NoteChanged", got)
	}
	if err := NewSyncer(s, svc.client, SyncOptions{}).Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Fatal(err)
	}
	stored, err := s.StoredNote(ctx, wo.WorkOrderId)
	if err != nil || stored != now {
		t.Errorf("the replica's note: %+v (%v); want %+v", stored, err, now)
	}
}
