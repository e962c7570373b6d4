package storage

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// A bulk answer whose items name their outcome under other names than we
// guessed (ErrorCode, Outcome) is not a success by itself: the work order
// is re-read and judged by what the service shows. Here the service did not
// take the second work order (it never saw it): it is still New, so the
// row is not done, and that work order is kept for the person.
func TestAnUnreadableBulkItemIsNotSuccess(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s := syncedStore(t, svc)
	ctx := context.Background()
	var news []int64
	rows, _ := s.List(ctx, ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew}, Sort: SortNumber})
	for _, r := range rows {
		if wo, _ := s.WorkOrder(ctx, r.Id); !wo.IsPreBilled && len(news) < 2 {
			news = append(news, r.Id)
		}
	}
	if len(news) < 2 {
		t.Fatal("the world has fewer than 2 New work orders")
	}
	// The service's item for the second work order comes under names we
	// do not read.
	svc.wire.wrapNext(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/bulk/accept" {
				next.ServeHTTP(w, r)
				return
			}
			// The service is asked about the first only, and answers for
			// the second under names we do not read.
			b, _ := io.ReadAll(r.Body)
			b = bytes.Replace(b, []byte(fmt.Sprintf(",%d]", news[1])), []byte("]"), 1)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := bytes.Replace(rec.Body.Bytes(), []byte(`]`), []byte(fmt.Sprintf(`,{"WorkOrderId":%d,"ErrorCode":0,"Outcome":"Pending"}]`, news[1])), 1)
			w.WriteHeader(rec.Code)
			w.Write(body)
		})
	})
	row := mustRow(t)(s.BulkAccept(ctx, news))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	r := rowState(t, s, row.Id)
	if r.State == OutboxDone {
		t.Fatalf("the row is done though the service's answer did not say it took %d: %+v", news[1], r.BulkResults)
	}
	var second *api.BulkResult
	for i := range r.BulkResults {
		if r.BulkResults[i].WorkOrderId == news[1] {
			second = &r.BulkResults[i]
		}
	}
	if second == nil || second.Succeeded() || !second.Unknown || !strings.Contains(r.Error, "did not say") {
		t.Errorf("the second work order's result: %+v, the row says %q; want it unknown, in words", second, r.Error)
	}
}

// The same unreadable item for a work order the service did take is judged
// by re-reading it: accepted, it is done, and so is the row.
func TestAnUnreadableBulkItemIsJudgedByTheWorkOrder(t *testing.T) {
	t.Parallel()
	svc := newService(t, 120)
	s := syncedStore(t, svc)
	ctx := context.Background()
	var news []int64
	rows, _ := s.List(ctx, ListQuery{Statuses: []api.WorkOrderStatus{api.StatusNew}, Sort: SortNumber})
	for _, r := range rows {
		if wo, _ := s.WorkOrder(ctx, r.Id); !wo.IsPreBilled && len(news) < 2 {
			news = append(news, r.Id)
		}
	}
	svc.wire.wrapNext(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/bulk/accept" {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := bytes.Replace(rec.Body.Bytes(), []byte(`}]`), []byte(`,"ErrorCode":0,"Outcome":"Pending"}]`), 1)
			w.WriteHeader(rec.Code)
			w.Write(body)
		})
	})
	row := mustRow(t)(s.BulkAccept(ctx, news))
	sendAll(t, NewSender(s, svc.client, SenderOptions{Backoff: noWait}))
	if r := rowState(t, s, row.Id); r.State != OutboxDone {
		t.Fatalf("the row is %s %q; want done: the service shows both work orders accepted", r.State, r.Error)
	}
}
