package storage

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkInvoiceFetch is the invoice fetch after a first sync (issue 37:
// at most 1 ms of CPU per invoice at any N), at syncBenchSize work orders
// (WORKDESK_BENCH_N). The sandbox answers in this process, so cpu-ms/
// invoice counts its side too: a profile (-cpuprofile) tells the two
// apart.
func BenchmarkInvoiceFetch(b *testing.B) {
	svc := syncService(b)
	ctx := context.Background()
	var cpu, wall time.Duration
	invoices := 0
	for b.Loop() {
		b.StopTimer()
		dir, _ := os.MkdirTemp("", "bench-invoices")
		s, err := Open(ctx, filepath.Join(dir, "replica.db"))
		if err != nil {
			b.Fatal(err)
		}
		y := NewSyncer(s, svc.client(), SyncOptions{})
		if err := y.SyncNow(ctx); err != nil {
			b.Fatal(err)
		}
		if err := s.waitFTS(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		started, startCPU := time.Now(), cpuTime()
		n, err := y.FetchInvoices(ctx)
		if err != nil || n == 0 {
			b.Fatalf("fetched %d invoices: %v", n, err)
		}
		cpu, wall, invoices = cpu+cpuTime()-startCPU, wall+time.Since(started), invoices+n
		s.Close()
		os.RemoveAll(dir)
	}
	b.ReportMetric(float64(invoices)/float64(b.N), "invoices/op")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(invoices), "cpu-ms/invoice")
	b.ReportMetric(float64(wall.Microseconds())/1000/float64(invoices), "wall-ms/invoice")
}

// BenchmarkIncrementalSync is a sync after the customer sent 100 new work
// orders, on a replica of syncBenchSize (issue 37: the same cost at 10,000
// and 200,000, within 20%): run it at WORKDESK_BENCH_N=10000 and 200000
// and compare sync-ms/op and cpu-ms/op. The sandbox answers in-process:
// its side counts too.
func BenchmarkIncrementalSync(b *testing.B) {
	svc := syncService(b)
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "replica.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	// An overlap of its own: the default 2 minutes would re-read every
	// earlier round's changes, all made within the benchmark's minute.
	y := NewSyncer(s, svc.client(), SyncOptions{Overlap: time.Millisecond})
	if err := y.SyncNow(ctx); err != nil {
		b.Fatal(err)
	}
	if err := s.waitFTS(ctx); err != nil {
		b.Fatal(err)
	}
	var cpu, wall time.Duration
	held := 0
	for b.Loop() {
		b.StopTimer()
		for range 100 {
			if _, err := svc.sb.DispatchWorkOrder(); err != nil {
				b.Fatal(err)
			}
		}
		before, _ := s.Count(ctx)
		held = before
		b.StartTimer()
		started, startCPU := time.Now(), cpuTime()
		if err := y.SyncNow(ctx); err != nil {
			b.Fatal(err)
		}
		cpu, wall = cpu+cpuTime()-startCPU, wall+time.Since(started)
		if after, _ := s.Count(ctx); after != before+100 {
			b.Fatalf("the sync stored %d new work orders, want 100", after-before)
		}
	}
	b.ReportMetric(float64(held), "work-orders")
	b.ReportMetric(float64(wall.Microseconds())/1000/float64(b.N), "sync-ms/op")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
