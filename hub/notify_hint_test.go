package hub

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// The customer's service says a work order changed (here: accepted in
// the customer's own system). Three desktops in the office hear of it; the
// hub reads the work order again once, and each desktop's replica shows
// what the service says from the event alone: the service is asked once,
// not once per desktop, and no desktop asks the hub either.
func TestSecurityAHintIsReadAgainOnceForEveryDesktop(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ctx := context.Background()
	id := newWorkOrder(t, o)
	firstSyncDone(t, a)
	if err := a.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	// The desktops reach the hub through a watch on their calls.
	var asked atomic.Int64
	hubURL, _ := url.Parse(a.srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(hubURL)
	proxy.FlushInterval = -1 // events pass at once
	watch := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path != "/api/hub/events" && r.URL.Path != "/api/hub/me" {
			asked.Add(1)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(watch.Close)
	var desks []*storage.Engine
	var hears []<-chan api.Event
	for i := range 3 {
		_, creds := o.person(a, fmt.Sprintf("Desk %d", i))
		eng := openOfficeDesktop(t, watch.URL, filepath.Join(t.TempDir(), fmt.Sprintf("desk%d.db", i)), creds, nil)
		syncDesktop(t, eng)
		waitStream(t, eng, storage.StreamConnected)
		desks = append(desks, eng)
		hears = append(hears, heard(eng))
	}
	if err := o.direct().Accept(ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	reads := o.countReads()
	asked.Store(0)
	body, err := api.MarshalEvent(api.EventHeader{WorkOrderId: id, Action: "Accepted", ActionDate: time.Now().UTC(), MessageId: uuid.NewString()},
		map[string]string{"Status": "Accepted"})
	if err != nil {
		t.Fatal(err)
	}
	if status := notifyWith(t, nil, a.srv.URL, notificationToken(t, o), body, ""); status != 200 {
		t.Fatalf("the notification: HTTP %d", status)
	}
	for i, eng := range desks {
		waitHeard(t, hears[i], id, "Accepted", 10*time.Second)
		if wo, err := eng.Store.WorkOrder(ctx, id); err != nil || wo.Status != api.StatusAccepted {
			t.Fatalf("desktop %d's replica after the event: %+v, %v", i, wo, err)
		}
	}
	if n := reads.total(); n != 1 {
		t.Fatalf("the service was read %d times for one notification heard by three desktops, want once", n)
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("the desktops asked the hub %d times for what the event carried, want none", n)
	}
}
