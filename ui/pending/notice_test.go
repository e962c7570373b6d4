package pending

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// announced is the replica and the places a refusal is told: the outbox
// as a list of rows, and each notification, alert and look kept.
type announced struct {
	rows    []storage.OutboxRow
	fail    error
	notes   [][2]string // title, body
	alerts  []string
	alerted []int64
	settled []map[int64]bool
}

func (a *announced) UnfinishedOutbox(context.Context) ([]storage.OutboxRow, error) {
	return a.rows, a.fail
}

func (a *announced) WorkOrder(_ context.Context, id int64) (*api.WorkOrder, error) {
	if id == 404 {
		return nil, errors.New("not in the replica")
	}
	return &api.WorkOrder{WorkOrderId: id, WorkOrderNumber: "NWR" + string(rune('0'+id%10))}, nil
}

func (a *announced) NotifyDesktop(title, body string) {
	a.notes = append(a.notes, [2]string{title, body})
}
func (a *announced) Alert(rowID int64, msg string) {
	a.alerted, a.alerts = append(a.alerted, rowID), append(a.alerts, msg)
}
func (a *announced) Settled(refused map[int64]bool) {
	a.settled = append(a.settled, maps.Clone(refused))
}

// The first look takes stock without a word; each refusal after it is
// told once, on the desktop and in the status bar, naming the work order
// (or how many), the action and the service's words; a stopped edit is
// told as what it is. Every look says which refusals are still open.
func TestEachRefusalIsToldOnce(t *testing.T) {
	a := &announced{rows: []storage.OutboxRow{
		{Id: 1, Kind: outbox.KindCheckIn, Summary: "Check in", State: storage.OutboxFailed, WorkOrderIds: []int64{3}, Error: "before the window opened"},
		{Id: 2, Kind: outbox.KindPause, Summary: "Pause", State: storage.OutboxPending, WorkOrderIds: []int64{3}},
	}}
	n := NewNotice(a, a)
	n.Look()
	if len(a.notes) != 0 || len(a.alerts) != 0 || len(a.settled) != 1 || !a.settled[0][1] || len(a.settled[0]) != 1 {
		t.Fatalf("the first look told %q, %q, settled %v", a.notes, a.alerts, a.settled)
	}

	a.rows = append(a.rows,
		storage.OutboxRow{Id: 3, Kind: outbox.KindQuote, Summary: "Quote 120.00 USD", State: storage.OutboxFailed, WorkOrderIds: []int64{4}, Error: "the amount must exceed the current NTE"},
		storage.OutboxRow{Id: 4, Kind: outbox.KindBulkAccept, Summary: "Accept 2 work orders", State: storage.OutboxFailed, WorkOrderIds: []int64{4, 5}, Error: "not allowed"},
		storage.OutboxRow{Id: 5, Kind: outbox.KindNote, Summary: "Internal note", State: storage.OutboxFailed, WorkOrderIds: []int64{404}, Error: "the note changed since you began", ErrorCode: -28},
	)
	if a.rows[4].Asked() == nil {
		t.Fatal("the note's row is not a stopped one")
	}
	n.Look()
	n.Look()
	wantNotes := [][2]string{
		{"Refused: Quote 120.00 USD on NWR4", "The amount must exceed the current NTE."},
		{"Refused: Accept 2 work orders on 2 work orders", "Not allowed."},
		{"Not sent: Internal note on work order 404", "The note changed since you began."},
	}
	wantAlerts := []string{
		"NWR4: Quote 120.00 USD was refused by the service. The amount must exceed the current NTE",
		"2 work orders: Accept 2 work orders was refused by the service. Not allowed",
		"work order 404: Internal note was not sent: the note changed meanwhile. The note changed since you began",
	}
	if !slices.Equal(a.notes, wantNotes) {
		t.Errorf("notified %q;\nwant %q", a.notes, wantNotes)
	}
	if !slices.Equal(a.alerts, wantAlerts) || !slices.Equal(a.alerted, []int64{3, 4, 5}) {
		t.Errorf("alerted %v %q;\nwant %q", a.alerted, a.alerts, wantAlerts)
	}
	if last := a.settled[len(a.settled)-1]; len(last) != 4 || last[2] {
		t.Errorf("the last look settled %v; want the four refused", last)
	}

	// A replica that cannot be read changes nothing.
	a.fail = errors.New("database is locked")
	n.Look()
	if len(a.settled) != 3 {
		t.Errorf("an unreadable outbox settled %v", a.settled[len(a.settled)-1])
	}
}
