package ui

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// syncedReplica fills a replica with n work orders of the sandbox world
// through a real first sync, and returns it (offline: no Online is wired).
func syncedReplica(tb testing.TB, n int) *storage.Store {
	tb.Helper()
	ctx := context.Background()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: n})
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	defer func() { srv.Close(); sb.Close() }()
	info := sb.InfoFor(srv.URL + "/")
	store, err := storage.Open(ctx, filepath.Join(tb.TempDir(), "replica.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	client, _ := api.NewClient(info.BaseURL, nil, api.NewClientCredentials(api.CredentialsConfig{
		TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}))
	if err := storage.NewSyncer(store, client, storage.SyncOptions{}).SyncNow(ctx); err != nil {
		tb.Fatal(err)
	}
	return store
}

func offlineDesk(tb testing.TB, store *storage.Store) *Desk {
	a := test.NewApp()
	tb.Cleanup(a.Quit)
	d := New(a, Deps{Store: store, Service: "offline", Background: func(f func()) { f() }, Do: func(f func()) { f() }})
	d.Window().Resize(fyne.NewSize(1280, 800))
	d.Window().Show()
	return d
}

// BenchmarkOpenList50k builds the window over 50,000 work orders: the list
// query plus the first layout of the table.
func BenchmarkOpenList50k(b *testing.B) {
	store := syncedReplica(b, 50000)
	b.ResetTimer()
	for b.Loop() {
		offlineDesk(b, store).Window().Close()
	}
}
