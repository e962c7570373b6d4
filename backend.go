package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
)

// backend is everything behind the window: the replica, the client, the
// sync loop, the outbox sender and the notification receiver, plus the
// in-process sandbox in demo mode.
type backend struct {
	store    *storage.Store
	client   *api.Client
	tokens   *api.ClientCredentials
	syncer   *storage.Syncer
	sender   *storage.Sender
	sb       *sandbox.Sandbox // demo mode only
	service  string
	receiver string

	mu       sync.Mutex
	progress func(done, total int)
	// onEvent hears each notification after it was applied (desktop
	// notifications); set once the window exists.
	onEvent func(api.Event)

	stop context.CancelFunc
	srv  *http.Server
}

// startDemo runs the sandbox in-process on a loopback port, with its
// receiver, and a fresh replica: the demo world is regenerated on every
// start, so last run's replica would disagree with it.
func startDemo(ctx context.Context, dataDir string) (*backend, error) {
	sb, err := sandbox.New(sandbox.Options{
		CustomerEvery:  45 * time.Second,
		RetryIntervals: []time.Duration{2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second},
	})
	if err != nil {
		return nil, err
	}
	info, err := sb.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	path, err := replicaPath(dataDir, "demo")
	if err != nil {
		sb.Close()
		return nil, err
	}
	if err := storage.RemoveReplica(path); err != nil {
		sb.Close()
		return nil, fmt.Errorf("clearing the last demo's replica: %w", err)
	}
	b, err := open(ctx, path, api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret})
	if err != nil {
		sb.Close()
		return nil, err
	}
	b.sb = sb
	v, err := api.NewVerifier(info.CertPEM)
	if err != nil {
		b.Close()
		return nil, err
	}
	addr, err := b.listen(v, "127.0.0.1:0", api.ReceiverOptions{})
	if err != nil {
		b.Close()
		return nil, err
	}
	sb.SetNotifyURL("http://" + addr + "/notify")
	return b, nil
}

// startLive connects to a configured service; the receiver runs when a
// certificate is configured.
func startLive(ctx context.Context, dataDir string, conn api.Connection, receiverAddr string, checkSource bool) (*backend, error) {
	path, err := replicaPath(dataDir, storage.ProfileForBaseURL(conn.BaseURL))
	if err != nil {
		return nil, err
	}
	b, err := open(ctx, path, conn)
	if err != nil {
		return nil, err
	}
	if conn.CertPath != "" {
		v, err := api.LoadVerifier(conn.CertPath)
		if err != nil {
			b.Close()
			return nil, err
		}
		if _, err := b.listen(v, receiverAddr, api.ReceiverOptions{CheckSource: checkSource}); err != nil {
			b.Close()
			return nil, err
		}
	}
	return b, nil
}

// openOffline opens an existing replica with no service behind it: the
// window reads it, and actions wait in its outbox.
func openOffline(ctx context.Context, path string) (*backend, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no replica at %s", path)
	}
	store, err := storage.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("opening the replica: %w", err)
	}
	return &backend{store: store, service: "offline (" + filepath.Base(path) + ")", receiver: "off"}, nil
}

func replicaPath(dataDir, profile string) (string, error) {
	if dataDir != "" {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return "", err
		}
		return filepath.Join(dataDir, profile+".db"), nil
	}
	return storage.DefaultPath(profile)
}

func open(ctx context.Context, path string, conn api.Connection) (*backend, error) {
	store, err := storage.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("opening the local replica: %w", err)
	}
	hc := &http.Client{Timeout: 60 * time.Second}
	tokens := api.NewClientCredentials(api.CredentialsConfig{TokenURL: conn.TokenURL, ClientID: conn.ClientID, ClientSecret: conn.ClientSecret})
	client, err := api.NewClient(conn.BaseURL, hc, tokens)
	if err != nil {
		store.Close()
		return nil, err
	}
	b := &backend{store: store, client: client, tokens: tokens, service: conn.BaseURL, receiver: "off"}
	b.syncer = storage.NewSyncer(store, client, storage.SyncOptions{Progress: func(done, total int) {
		b.mu.Lock()
		p := b.progress
		b.mu.Unlock()
		if p != nil {
			p(done, total)
		}
	}})
	b.sender = storage.NewSender(store, client, storage.SenderOptions{})
	runCtx, stop := context.WithCancel(context.Background())
	b.stop = stop
	go b.sender.Run(runCtx)
	return b, nil
}

// listen serves the notification receiver on addr and returns where it listens.
func (b *backend) listen(v *api.Verifier, addr string, opts api.ReceiverOptions) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("notification receiver: %w", err)
	}
	opts.OnReject = func(status int, reason string) {
		slog.Warn("notification refused", "status", status, "reason", reason)
	}
	mux := http.NewServeMux()
	mux.Handle("/notify", api.NewReceiver(v, b.handleEvent, opts))
	b.srv = api.NewReceiverServer(mux, api.ReceiverLimits{})
	go b.srv.Serve(ln)
	b.receiver = "on " + ln.Addr().String()
	return ln.Addr().String(), nil
}

func (b *backend) handleEvent(ctx context.Context, ev api.Event) error {
	if err := b.store.HandleEvent(ctx, ev); err != nil {
		return err
	}
	b.mu.Lock()
	hear := b.onEvent
	b.mu.Unlock()
	if hear != nil {
		hear(ev)
	}
	return nil
}

func (b *backend) Close() {
	if b.stop != nil {
		b.stop()
	}
	if b.srv != nil {
		b.srv.Close()
	}
	if b.sb != nil {
		b.sb.Close()
	}
	b.store.Close()
}

// The ui.Online methods: what the window needs from the service right now.

func (b *backend) SyncNow(ctx context.Context, progress func(done, total int)) error {
	b.mu.Lock()
	b.progress = progress
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.progress = nil
		b.mu.Unlock()
	}()
	return b.syncer.SyncNow(ctx)
}

func (b *backend) Refresh(ctx context.Context, id int64) error { return b.syncer.Refresh(ctx, id) }

func (b *backend) AttachmentLink(ctx context.Context, woID int64, attID string) (api.DownloadURL, error) {
	return b.client.AttachmentDownloadURL(ctx, woID, attID)
}

func (b *backend) InvoiceAttachmentLink(ctx context.Context, woID int64, attID string) (api.DownloadURL, error) {
	return b.client.InvoiceAttachmentDownloadURL(ctx, woID, attID)
}

func (b *backend) StepAttachments(ctx context.Context, step api.StepRef) ([]api.StepAttachment, error) {
	return b.client.ListStepAttachments(ctx, step)
}

func (b *backend) StepAttachmentLink(ctx context.Context, step api.StepRef, attID string) (api.DownloadURL, error) {
	return b.client.StepAttachmentDownloadURL(ctx, step, attID)
}

func (b *backend) Download(ctx context.Context, link api.DownloadURL, w io.Writer, progress func(done, total int64)) error {
	return b.client.Download(ctx, link, w, progress)
}

func (b *backend) health() ui.Health {
	h := ui.Health{Receiver: b.receiver}
	if b.tokens != nil {
		h.TokenValidUntil = b.tokens.ValidUntil()
	}
	return h
}
