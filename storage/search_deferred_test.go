package storage

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSearchRightAfterFirstSync: the first sync returns before the search
// index is rebuilt. A search made then finds every work order it should,
// from the in-memory index, without waiting; a search only FTS5 can answer
// waits for the rebuild instead of answering from a half-built index; once
// it is done both agree.
func TestSearchRightAfterFirstSync(t *testing.T) {
	t.Parallel()
	svc := newService(t, 300)
	ctx := context.Background()
	s, _ := openTest(t)
	release := make(chan struct{})
	s.deferred.held = release
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	<-s.WarmSearch() // the window warms it when it opens, on an empty replica
	y := NewSyncer(s, svc.client, SyncOptions{})
	y.tune.bulkMin = 1 // 300 work orders written as a first sync of thousands is
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Indexing():
		t.Fatal("the search index was rebuilt before the test released it")
	default:
	}
	all, err := s.List(ctx, ListQuery{Sort: SortNumber})
	if err != nil || len(all) != 300 {
		t.Fatalf("listed %d work orders after the sync (%v), want 300", len(all), err)
	}
	// Searches a person types: a number, its digits, a customer's word, a
	// site's word.
	var searches []string
	for _, r := range all[:20] {
		searches = append(searches, r.Number, strings.TrimLeft(r.Number, "ABCDEFGHIJKLMNOPQRSTUVWXYZ-"))
		if w := strings.Fields(r.Customer); len(w) > 0 {
			searches = append(searches, strings.ToLower(w[0]))
		}
	}
	type answer struct {
		ids []int64
		n   int
	}
	search := func(ctx context.Context, text string) (answer, error) {
		rows, n, err := s.ListAndCount(ctx, ListQuery{Search: text, Sort: SortNumber, Limit: 500})
		return answer{ids(rows), n}, err
	}
	before := map[string]answer{}
	for i, text := range searches {
		// A deadline, not a timing: the in-memory index answers at once,
		// and only waiting for the held rebuild could pass it.
		dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		a, err := search(dctx, text)
		cancel()
		if err != nil {
			t.Fatalf("searching %q before the index was rebuilt: %v", text, err)
		}
		if i%3 == 0 && !slices.Contains(a.ids, all[i/3].Id) {
			t.Errorf("searching %q before the index was rebuilt does not find work order %d: %v", text, all[i/3].Id, a.ids)
		}
		before[text] = a
	}
	// A search the in-memory index cannot answer waits for the rebuild.
	ftsOnly(s, func() {
		dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if a, err := search(dctx, searches[0]); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("an FTS5 search before the rebuild answered %v, %v; want it to wait", a, err)
		}
	})
	close(release)
	if err := s.waitFTS(ctx); err != nil {
		t.Fatal(err)
	}
	ftsOnly(s, func() {
		for _, text := range searches {
			a, err := search(ctx, text)
			if err != nil {
				t.Fatal(err)
			}
			if b := before[text]; a.n != b.n || !slices.Equal(a.ids, b.ids) {
				t.Errorf("searching %q: %d before the rebuild %v, FTS5 after it %d %v", text, b.n, b.ids, a.n, a.ids)
			}
		}
	})
}
