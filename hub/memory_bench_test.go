package hub

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"golang.org/x/sync/errgroup"
)

// procMemory reads a process's peak and current resident memory, in MB,
// from /proc/PID/status (VmHWM, VmRSS).
func procMemory(b testing.TB, pid int) (peak, now float64) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Skip("no /proc here:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[0], 64)
		switch name {
		case "VmHWM":
			peak = kb / 1024
		case "VmRSS":
			now = kb / 1024
		}
	}
	return peak, now
}

// One hub instance in a process of its own, as `hub serve` runs, with
// 100,000 work orders (its first sync of them included) and 100 event
// streams open: its peak and resident memory. Each iteration is a desktop
// reading all of it through the instance (a search of all 100,000, then
// every work order 50 at a time, 4 calls at once), with a notification
// reaching the 100 streams. Target: under 300 MB resident.
//
//	go test -tags migrated_fynedo -run X -bench HubMemory100k -benchtime 1x ./hub/
func BenchmarkHubMemory100k(b *testing.B) {
	const workOrders, streams = 100000, 100
	o := newOffice(b, sandbox.Options{WorkOrders: workOrders})
	start := time.Now()
	child, url := o.startChildWith(b, childConfig{CertPEM: o.info.CertPEM, SyncEvery: time.Minute}, 10*time.Minute)
	firstSync := time.Since(start)
	pid := child.Process.Pid
	afterSync, _ := procMemory(b, pid)
	ctx := context.Background()
	creds, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		b.Fatal(err)
	}
	var open []<-chan sseEvent
	for _, tok := range streamTokens(b, o, streams) {
		open = append(open, openStreamAt(b, url, tok, ""))
	}
	desk := desktopAt(b, url, creds)
	for b.Loop() {
		found, err := desk.SearchWorkOrders(ctx, api.SearchParameters{})
		if err != nil || len(found) != workOrders {
			b.Fatalf("search through the instance: %d work orders, %v", len(found), err)
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(4)
		for i := 0; i < len(found); i += api.MaxReadBatch {
			ids := make([]int64, 0, api.MaxReadBatch)
			for _, w := range found[i:min(i+api.MaxReadBatch, len(found))] {
				ids = append(ids, w.WorkOrderId)
			}
			g.Go(func() error {
				_, err := desk.GetWorkOrders(gctx, ids)
				return err
			})
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
		postNotificationAt(b, o, url, found[0].WorkOrderId)
		for _, s := range open {
			select {
			case _, ok := <-s:
				if !ok {
					b.Fatal("a stream ended")
				}
			case <-time.After(10 * time.Second):
				b.Fatal("a stream missed the notification")
			}
		}
	}
	peak, now := procMemory(b, pid)
	b.ReportMetric(firstSync.Seconds(), "first-sync-s")
	b.ReportMetric(afterSync, "peak-MB-after-first-sync")
	b.ReportMetric(peak, "peak-MB")
	b.ReportMetric(now, "resident-MB")
}

// One workdesk-hub process as an office runs it (the demo's 72 work
// orders): its resident memory once it has synced and serves nobody
// (idle), then with 100 event streams open, one per person, each having
// received a notification. tools/hub-mem.sh runs it on the shipped build.
//
//	go test -tags migrated_fynedo -run X -bench HubMemoryIdleAnd100Streams -benchtime 3x ./hub/
func BenchmarkHubMemoryIdleAnd100Streams(b *testing.B) {
	const streams = 100
	o := newOffice(b, sandbox.Options{})
	child, url := o.startChildWith(b, childConfig{CertPEM: o.info.CertPEM, SyncEvery: time.Minute}, 2*time.Minute)
	pid := child.Process.Pid
	_, idle := procMemory(b, pid)
	var open []<-chan sseEvent
	for _, tok := range streamTokens(b, o, streams) {
		open = append(open, openStreamAt(b, url, tok, ""))
	}
	creds, err := o.db.AddPerson(context.Background(), "Ana Ruiz")
	if err != nil {
		b.Fatal(err)
	}
	found, err := desktopAt(b, url, creds).SearchWorkOrders(context.Background(), api.SearchParameters{})
	if err != nil || len(found) == 0 {
		b.Fatalf("search through the instance: %d work orders, %v", len(found), err)
	}
	for b.Loop() {
		postNotificationAt(b, o, url, found[0].WorkOrderId)
		for _, s := range open {
			select {
			case _, ok := <-s:
				if !ok {
					b.Fatal("a stream ended")
				}
			case <-time.After(10 * time.Second):
				b.Fatal("a stream missed the notification")
			}
		}
	}
	peak, now := procMemory(b, pid)
	b.ReportMetric(idle, "idle-resident-MB")
	b.ReportMetric(now, "100-streams-resident-MB")
	b.ReportMetric(peak, "peak-MB")
}
