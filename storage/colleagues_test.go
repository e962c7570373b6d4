package storage

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// hubEvent is an event as the office hub sends one for a write a person
// made through it: the envelope plus PerformedBy beside it.
func hubEvent(t testing.TB, woID int64, action, msgID, by string, at time.Time) api.Event {
	t.Helper()
	ev, err := api.ParseEvent([]byte(fmt.Sprintf(`{"Header":{"WorkOrderId":%d,"Action":%q,"ActionDate":%q,"MessageId":%q},"PerformedBy":{"Name":%q}}`,
		woID, action, at.UTC().Format(time.RFC3339Nano), msgID, by)))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// The list marks a work order a colleague changed lately: the newest hub
// event of each work order decides, the person's own actions (echoed back
// by the hub) and the service's notifications mark nothing, and what
// arrived before the window asked for is left out.
func TestColleagueChanges(t *testing.T) {
	t.Parallel()
	s, clk := openTest(t)
	ctx := context.Background()
	apply := func(ev api.Event) {
		t.Helper()
		if err := s.HandleEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	apply(hubEvent(t, 1, "AcceptedByContractor", "old", "Ben Okafor", testNow)) // arrives before the window
	clk.Advance(2 * time.Hour)
	since := clk.Now().Add(-time.Hour)
	at := clk.Now().Add(-10 * time.Minute)
	apply(hubEvent(t, 2, "AcceptedByContractor", "h2", "Ben Okafor", at))
	apply(hubEvent(t, 2, "CheckedInByContractor", "h3", "Ana Ruiz", at.Add(time.Minute))) // newer: Ana's counts
	apply(hubEvent(t, 3, "AcceptedByContractor", "h4", "Ben Okafor", at))
	apply(hubEvent(t, 3, "MessageSentByContractor", "h5", "Bo Chen", at.Add(time.Minute))) // Bo's own, after Ben's
	apply(event(t, 4, api.ActionNteChanged, "svc", at, api.NteChangedEvent{Amount: api.MustMoney("10", "USD")}))

	got, err := s.ColleagueChanges(ctx, since, "Bo Chen")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]ColleagueChange{2: {Name: "Ana Ruiz", Action: "CheckedInByContractor", At: at.Add(time.Minute)}}
	if len(got) != len(want) {
		t.Fatalf("colleagues' changes %+v, want %+v", got, want)
	}
	for id, w := range want {
		if g := got[id]; g.Name != w.Name || g.Action != w.Action || !g.At.Equal(w.At) {
			t.Errorf("work order %d: %+v, want %+v", id, g, w)
		}
	}
}

// BenchmarkColleagueChanges50kOld: the list asks on every reload; with a
// long event log and a busy hour it reads only the hour.
func BenchmarkColleagueChanges50kOld(b *testing.B) {
	s, clk := openAt(b, filepath.Join(b.TempDir(), "replica.db"))
	ctx := context.Background()
	for i := range 50_000 {
		if err := s.HandleEvent(ctx, hubEvent(b, int64(i%5000+1), "AcceptedByContractor", fmt.Sprintf("old-%d", i), "Ben Okafor", testNow)); err != nil {
			b.Fatal(err)
		}
	}
	clk.Advance(3 * time.Hour)
	for i := range 300 {
		if err := s.HandleEvent(ctx, hubEvent(b, int64(i+1), "CheckedInByContractor", fmt.Sprintf("new-%d", i), "Ana Ruiz", clk.Now())); err != nil {
			b.Fatal(err)
		}
	}
	since := clk.Now().Add(-time.Hour)
	b.ResetTimer()
	for b.Loop() {
		got, err := s.ColleagueChanges(ctx, since, "Bo Chen")
		if err != nil || len(got) != 300 {
			b.Fatalf("%d changes, %v", len(got), err)
		}
	}
}
