package exporting

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// BenchmarkExportList100k exports the whole list of 100,000 work orders
// from the replica (read one row at a time) to .xlsx and to CSV, as File ›
// Export list… does. Besides the time per export it reports the peak heap
// in use while it ran, sampled every 5 ms, above what was in use before
// (the memory the export costs), and the file's size.
//
//	go test -tags migrated_fynedo -run '^$' -bench ExportList100k -benchtime 3x ./ui/exporting/
func BenchmarkExportList100k(b *testing.B) {
	store := viewtest.GeneratedReplica(b, 100_000)
	n, err := store.CountList(context.Background(), storage.ListQuery{})
	if err != nil || n != 100_000 {
		b.Fatalf("%d rows, %v", n, err)
	}
	for _, f := range []export.Format{export.XLSX, export.CSV} {
		b.Run(f.String(), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "list"+f.Ext())
			var peak uint64
			for b.Loop() {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Go(func() {
					tick := time.NewTicker(5 * time.Millisecond)
					defer tick.Stop()
					for {
						var m runtime.MemStats
						runtime.ReadMemStats(&m)
						if m.HeapInuse > base {
							peak = max(peak, m.HeapInuse-base)
						}
						select {
						case <-stop:
							return
						case <-tick.C:
						}
					}
				})
				err := export.WriteFile(context.Background(), path, f, listTable(store, words{}, storage.ListQuery{}, n), export.Options{})
				close(stop)
				wg.Wait()
				if err != nil {
					b.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
			b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
		})
	}
}
