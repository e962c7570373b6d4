package storage

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// A bulk answer whose items name their outcome under other names than we
// guessed (ErrorCode, ErrorMessage) is not a success: the row is not done,
// and the work order it did not plainly take is kept for the person.
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
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := bytes.Replace(rec.Body.Bytes(), []byte(`}]`), []byte(`,"ErrorCode":0,"Outcome":"Pending"}]`), 1)
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
