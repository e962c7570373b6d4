package hub

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// heardAt is when a stream heard an event, by the event's id.
type heardAt struct {
	id int64
	at time.Time
}

// openStreamFrom opens the event stream of the hub at url with tok, its
// connection from ip (a desktop of its own), and reports when each event
// arrives.
func openStreamFrom(b testing.TB, url, tok, ip string) <-chan heardAt {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	d := dialerFrom(ip)
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/hub/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("events stream: HTTP %d", resp.StatusCode)
	}
	out := make(chan heardAt, 100)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		var id int64
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "id: "):
				fmt.Sscan(line[4:], &id)
			case strings.HasPrefix(line, "data: "):
				out <- heardAt{id, time.Now()}
			}
		}
	}()
	return out
}

// 1,000 desktops (each a person of its own, at an address of its own)
// hold event streams on two hub instances, each in a process of its own as
// `hub serve` runs: the time from a notification's arrival at one instance
// to its delivery on every stream of both (the instance reads the work
// order again first), and each instance's resident memory. Targets: p99
// under 1 s; each instance under 300 MB.
//
//	go test -tags migrated_fynedo -run X -bench 'NotificationTo1000Streams' -benchtime 20x ./hub/
func BenchmarkNotificationTo1000StreamsOnTwoInstances(b *testing.B) {
	const desktops = 1000
	o := newOffice(b, sandbox.Options{})
	cfg := childConfig{CertPEM: o.info.CertPEM, SyncEvery: time.Minute}
	childA, urlA := o.startChildWith(b, cfg, 2*time.Minute)
	cfg.Follower = true // A syncs
	childB, urlB := o.startChildWith(b, cfg, 2*time.Minute)
	var streams []<-chan heardAt
	for i, tok := range streamTokens(b, o, desktops) {
		url := urlA
		if i%2 == 1 {
			url = urlB
		}
		ip := fmt.Sprintf("127.1.%d.%d", i/200, i%200+1)
		streams = append(streams, openStreamFrom(b, url, tok, ip))
	}
	wo := newWorkOrder(b, o)
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		postNotificationAt(b, o, urlA, wo)
		var id int64
		for _, s := range streams {
			select {
			case h, ok := <-s:
				if !ok {
					b.Fatal("a stream ended")
				}
				if id == 0 {
					id = h.id
				} else if h.id != id {
					b.Fatalf("streams heard events %d and %d for one notification", id, h.id)
				}
				lat = append(lat, h.at.Sub(start))
			case <-time.After(10 * time.Second):
				b.Fatal("a stream missed the notification")
			}
		}
	}
	slices.Sort(lat)
	peakA, rssA := procMemory(b, childA.Process.Pid)
	peakB, rssB := procMemory(b, childB.Process.Pid)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(max(rssA, rssB), "resident-MB-max")
	b.ReportMetric(max(peakA, peakB), "peak-MB-max")
}
