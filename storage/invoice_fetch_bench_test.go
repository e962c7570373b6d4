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
