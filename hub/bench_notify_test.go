package hub

import (
	"fmt"
	"testing"
	"time"
)

// Forged notifications under a captured token, 300 in 2 s (or 1,000 in
// 2 s), every documented action in turn, naming work orders the hub holds
// whose records do not change: what they cost at the service, what they
// stream, and when the last is answered. Warmed: the hub holds what
// desktops read of the work orders (messages, attachments, invoice, note
// history); cold: it holds none of it, so a first read of each part
// counts as news. Targets: at most 60 calls at the service and 60 events
// for 300 in 2 s. Each part of a work order named (parts-named) costs a
// call of its own (the service reads no part of many work orders at
// once): naming more than a dozen work orders, those alone are more
// than 60.
//
//	go test -tags migrated_fynedo -run X -bench ForgedNotifications -benchtime 1x ./hub/
func BenchmarkForgedNotifications(b *testing.B) {
	for _, c := range []struct {
		n, wos int
		warmed bool
	}{
		{300, 5, true}, {300, 5, false}, {300, 20, true}, {300, 20, false}, {300, 300, true}, {1000, 5, true},
	} {
		state := "cold"
		if c.warmed {
			state = "warmed"
		}
		b.Run(fmt.Sprintf("%d-naming-%d-%s", c.n, c.wos, state), func(b *testing.B) {
			for b.Loop() {
				f := forgedFlood(b, c.wos, c.warmed, c.n, 2*time.Second)
				// Past the target, the six senders' addresses meet their
				// caps (no --notify-from here): those connections are
				// refused, and the service sends them again later.
				if f.refused > 0 && c.n <= 300 {
					b.Fatalf("%d notifications not answered 200", f.refused)
				}
				b.ReportMetric(float64(f.refused), "not-200")
				b.ReportMetric(float64(f.calls), "service-calls")
				b.ReportMetric(float64(len(f.events)), "events")
				b.ReportMetric(f.answered.Seconds(), "s-to-last-answer")
				named := 0
				for _, n := range f.named {
					named += n
				}
				b.ReportMetric(float64(named), "parts-named")
				fmt.Fprintf(b.Output(), "calls by path: %v; GET /api/workOrder ids: %v; parts named by path: %v\n", f.paths, f.batches, f.named)
			}
		})
	}
}
