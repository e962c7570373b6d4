package hub

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// holdWrites makes the service hold every write that match accepts until
// the test ends, and counts those it holds.
func holdWrites(o *office, match func(*http.Request) bool) *atomic.Int64 {
	var held atomic.Int64
	release := make(chan struct{})
	o.t.Cleanup(func() { close(release) })
	o.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if isWrite(r) && match(r) {
			held.Add(1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		return false
	})
	return &held
}

// More large uploads than the writes have database connections, all stuck
// at a slow service, leave room for the office's other writes: uploads take
// at most half of the writes' connections at once.
func TestSlowUploadsLeaveRoomForOtherWrites(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	// A small pool: the writes get 4 connections, uploads 2 of them.
	// The accept waits for a connection for longer than the test would.
	a := o.startOn(o.url+"&pool_max_conns=8", func(opts *Options) { opts.WriteWait = time.Minute })
	conns := int64(a.db.writes.Config().MaxConns)
	ana, _ := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	var ids []int64
	for range conns + 2 {
		ids = append(ids, newWorkOrder(t, o))
	}
	held := holdWrites(o, func(r *http.Request) bool { return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") })
	for _, id := range ids[1:] {
		go ana.UploadAttachment(ctx, id, api.Upload{Name: "roof.jpg", MimeType: "image/jpeg",
			Content: bytes.NewReader(bytes.Repeat([]byte("roof photo "), 1000))})
	}
	waitFor(t, 10*time.Second, "every upload at the service or waiting for a slot", func() bool {
		return held.Load() > 0 && held.Load()+a.hub.WritesWaiting() == int64(len(ids)-1)
	})
	if n := held.Load(); n > conns/2 {
		t.Fatalf("%d uploads with the service at once, with %d connections for the writes", n, conns)
	}

	quick, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := ana.Accept(quick, &api.AcceptRequest{WorkOrderId: ids[0]}); err != nil {
		t.Fatalf("an accept while %d uploads are stuck at the service: %v", held.Load(), err)
	}
}

// Writes to many work orders at once, all stuck at a slow service, fill
// the writes' database connections: the next one is told the hub is busy
// (503, which the desktop's outbox retries) after WriteWait, rather than
// wait for ever.
func TestAWriteWaitsForAConnectionOnlySoLong(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.startOn(o.url+"&pool_max_conns=4", func(opts *Options) { opts.WriteWait = time.Second })
	ana, _ := o.person(a, "Ana Ruiz")
	ctx := context.Background()
	// The writes the service holds find their connections open, however
	// long a busy machine takes to open one: only the fifth write waits.
	var open []*pgxpool.Conn
	for range a.db.writes.Config().MaxConns {
		c, err := a.db.writes.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
	}
	for _, c := range open {
		c.Release()
	}
	var ids []int64
	for range 5 {
		ids = append(ids, newWorkOrder(t, o))
	}
	held := holdWrites(o, func(*http.Request) bool { return true })
	for _, id := range ids[1:] {
		go ana.Accept(ctx, &api.AcceptRequest{WorkOrderId: id})
	}
	waitFor(t, 10*time.Second, "writes at the service", func() bool { return held.Load() == 4 })

	quick, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	start := time.Now()
	err := ana.Accept(quick, &api.AcceptRequest{WorkOrderId: ids[0]})
	var e *api.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusServiceUnavailable || !api.IsTemporary(err) {
		t.Fatalf("a fifth write with four stuck at the service, after %v: %v, want a temporary 503", time.Since(start), err)
	}
	if n := held.Load(); n != 4 {
		t.Fatalf("%d writes reached the service", n)
	}
}
