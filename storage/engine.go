package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Engine is everything behind a window or a headless receiver: the replica,
// the client, the sync loop, the outbox sender and the notification
// receiver. The window, `workdesk receive` and the tests all open one, so
// the wiring between them exists once.
type Engine struct {
	Store  *Store
	Client *api.Client // nil when the engine only keeps a replica (offline, receive)
	Tokens *api.ClientCredentials
	Syncer *Syncer
	Sender *Sender
	// Service names what the engine talks to, for the status bar.
	Service string

	mu       sync.Mutex
	rereadMu sync.Mutex // one notification's re-read and apply at a time
	progress func(done, total int)
	// invoiceProgress hears how far the background invoice fetch is.
	invoiceProgress func(done, total int)
	onEvent         []func(api.Event)
	onApplied       []func(api.Event)
	receiver        string
	stream          string // the hub's event stream, when Hub
	hubURL          string // the hub, without a trailing slash, when Hub
	hubHTTP         *http.Client

	stop context.CancelFunc
	srvs []*http.Server
	// Invoices of finished work, fetched after a sync (FetchInvoices):
	// runCtx ends with the engine, bg waits for the run, invoicing says
	// one runs and again that another sync ended meanwhile.
	runCtx           context.Context
	bg               sync.WaitGroup
	fetchInvoices    bool
	invoicing, again bool
	// answers watches every call for an answer: who is silent, since when.
	answers *answers
}

// EngineOptions say what an engine connects to; the zero value opens the
// replica alone.
type EngineOptions struct {
	// Connection is the service (or hub); with no BaseURL the engine has no
	// client, sync or sender, and actions wait in the outbox.
	Connection api.Connection
	HTTPClient *http.Client // nil = a client with a 60 s timeout
	// Now pins the clock of the replica and the tokens (tests).
	Now func() time.Time
	// ManualSend leaves the sender idle: the caller sends with
	// Sender.SendReady (tests that step through a send).
	ManualSend bool
	Sync       SyncOptions
	Send       SenderOptions
	// Hub: the connection is an office hub. The engine holds its event
	// stream (GET /api/hub/events) instead of running a receiver.
	Hub bool
	// AllowUnencrypted lets Hub use an http:// address that is not on
	// this computer (see CheckHubURL); HTTPClient trusts the hub's
	// certificate authority (HubHTTPClient).
	AllowUnencrypted bool
	// StreamBackoff is the wait before the attempt-th reconnection of the
	// stream; nil = DefaultBackoff.
	StreamBackoff func(attempt int) time.Duration
	// PerformedBy names the person the engine acts for: writes and uploads
	// carry it (api.Client.SetPerformedBy). With a hub, the name the hub
	// gives the person's credentials replaces it once known.
	PerformedBy string
	// SilentAfter is how long a call waits for an answer before the other
	// side counts as silent (Engine.Silent); 0 = DefaultSilentAfter.
	SilentAfter time.Duration
	// FetchInvoices: after each successful sync, the invoices of finished
	// work (CheckedOut, Verified) the replica lacks or holds stale are
	// fetched in the background, a few at a time, for the receivables.
	FetchInvoices bool
}

// OpenEngine opens the replica at path and, when opts names a service,
// the client, sync and sender; the sender starts at once unless ManualSend.
func OpenEngine(ctx context.Context, path string, opts EngineOptions) (*Engine, error) {
	store, err := Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("opening the local replica: %w", err)
	}
	if opts.Now != nil {
		store.SetClock(opts.Now)
	}
	e := &Engine{Store: store, receiver: "off"}
	conn := opts.Connection
	if conn.BaseURL == "" {
		return e, nil
	}
	if opts.Hub {
		if err := CheckHubURL(conn.BaseURL, opts.AllowUnencrypted); err != nil {
			store.Close()
			return nil, err
		}
	}
	hc, tokenHC := opts.HTTPClient, opts.HTTPClient
	var transport http.RoundTripper
	if hc == nil {
		hc, tokenHC = &http.Client{Timeout: 60 * time.Second}, &http.Client{Timeout: 30 * time.Second}
	} else {
		transport = hc.Transport
	}
	probe := conn.BaseURL
	if opts.Hub {
		probe = strings.TrimSuffix(conn.BaseURL, "/") + "/api/hub/me" // any answer will do, a 401 too
	}
	e.answers = newAnswers(transport, opts.SilentAfter, opts.Hub, probe)
	hc, tokenHC = e.answers.client(hc), e.answers.client(tokenHC)
	e.Tokens = api.NewClientCredentials(api.CredentialsConfig{TokenURL: conn.TokenURL, ClientID: conn.ClientID,
		ClientSecret: conn.ClientSecret, HTTPClient: tokenHC, Now: opts.Now})
	if e.Client, err = api.NewClient(conn.BaseURL, hc, e.Tokens); err != nil {
		store.Close()
		return nil, err
	}
	e.Client.SetPerformedBy(opts.PerformedBy)
	if opts.Hub {
		if kept := e.KeptHubPerson(ctx); kept != "" {
			e.Client.SetPerformedBy(kept)
		}
	}
	e.Service = conn.BaseURL
	syncOpts := opts.Sync
	outer := syncOpts.Progress
	syncOpts.Progress = func(done, total int) {
		if outer != nil {
			outer(done, total)
		}
		e.mu.Lock()
		p := e.progress
		e.mu.Unlock()
		if p != nil {
			p(done, total)
		}
	}
	outerInvoices := syncOpts.InvoiceProgress
	syncOpts.InvoiceProgress = func(done, total int) {
		if outerInvoices != nil {
			outerInvoices(done, total)
		}
		e.mu.Lock()
		p := e.invoiceProgress
		e.mu.Unlock()
		if p != nil {
			p(done, total)
		}
	}
	e.Syncer = NewSyncer(store, e.Client, syncOpts)
	e.Sender = NewSender(store, e.Client, opts.Send)
	runCtx, stop := context.WithCancel(context.Background())
	e.stop, e.runCtx, e.fetchInvoices = stop, runCtx, opts.FetchInvoices
	if !opts.ManualSend {
		go e.Sender.Run(runCtx)
	}
	e.answers.onChange(e.resendWhenHeardAgain(runCtx))
	if opts.Hub {
		e.stream = StreamConnecting
		// The stream stays open for hours: no overall timeout, the
		// caller's transport kept.
		sc := e.answers.client(&http.Client{Transport: transport})
		backoff := opts.StreamBackoff
		if backoff == nil {
			backoff = DefaultBackoff
		}
		e.hubURL, e.hubHTTP = strings.TrimSuffix(conn.BaseURL, "/"), sc
		wake := make(chan struct{}, 1)
		e.answers.onChange(e.wakeWhenHeardAgain(wake))
		go e.runStream(runCtx, e.hubURL+"/api/hub/events", sc, backoff, wake)
	}
	return e, nil
}

// OpenExistingEngine opens a replica that must already exist, with no
// service behind it: browsing a copy offline.
func OpenExistingEngine(ctx context.Context, path string) (*Engine, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no replica at %s", path)
	}
	return OpenEngine(ctx, path, EngineOptions{})
}

// OnEvent adds f to those told of each notification after it was applied
// to the replica (the window's refresh and desktop notifications, the
// receive command's output).
func (e *Engine) OnEvent(f func(api.Event)) {
	e.mu.Lock()
	e.onEvent = append(e.onEvent, f)
	e.mu.Unlock()
}

// HandleEvent takes a verified notification: unless it is a redelivery
// (logged already), it re-reads what the notification touched (the body is
// a hint) and applies that with the event, then tells those listening:
// OnEvent's of each one newly logged (the window lists it even when it
// changed nothing), OnApplied's of each one that changed the replica.
// Without a service (an engine that only keeps a replica) it logs only.
func (e *Engine) HandleEvent(ctx context.Context, ev api.Event) error {
	if logged, err := e.Store.EventLogged(ctx, ev); err != nil || logged {
		return err
	}
	return e.apply(ctx, ev, e.reread(ctx, ev, api.Touches(ev.Header.Action)))
}

// rereadTimeout bounds the re-read of one notification: the service waits
// for our answer, and what could not be read in time comes with the next
// sync.
const rereadTimeout = 20 * time.Second

// reread reads again what a notification touched; nil when there is no
// service, or nothing to read (an action the app does not know: logged,
// and otherwise ignored).
func (e *Engine) reread(ctx context.Context, ev api.Event, touches api.Touch) *Reread {
	if e.Syncer == nil || touches == 0 {
		return nil
	}
	// Once begun, the re-read ends even if the caller hangs up (the
	// service's delivery timed out): its redelivery is then a duplicate.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rereadTimeout)
	defer cancel()
	e.rereadMu.Lock()
	defer e.rereadMu.Unlock()
	rr, err := e.Syncer.Reread(ctx, ev.Header.WorkOrderId, touches)
	if err != nil {
		e.Store.log.Warn("re-reading after a notification; the next sync brings the rest",
			"action", ev.Header.Action, "workOrder", ev.Header.WorkOrderId, "err", err)
	}
	return rr
}

// apply logs ev with what was re-read and tells the listeners.
func (e *Engine) apply(ctx context.Context, ev api.Event, rr *Reread) error {
	out, err := e.Store.ApplyNotification(ctx, ev, rr)
	if err != nil || !out.Fresh {
		return err
	}
	e.tell(ev, out.Applied)
	return nil
}

// tell hands a fresh event to those listening (OnEvent), and to those told
// of the changes (OnApplied) when it changed the replica.
func (e *Engine) tell(ev api.Event, applied bool) {
	e.mu.Lock()
	hear := slices.Clone(e.onEvent)
	if applied {
		hear = append(hear, e.onApplied...)
	}
	e.mu.Unlock()
	for _, f := range hear {
		f(ev)
	}
}

// OnApplied adds f to those told of each notification that changed the
// replica (the receive command prints only those).
func (e *Engine) OnApplied(f func(api.Event)) {
	e.mu.Lock()
	e.onApplied = append(e.onApplied, f)
	e.mu.Unlock()
}

// Receiver is the notification endpoint: verified with v, applied to the
// replica. Refusals are logged unless opts.OnReject says otherwise.
func (e *Engine) Receiver(v *api.Verifier, opts api.ReceiverOptions) http.Handler {
	if opts.OnReject == nil {
		opts.OnReject = func(status int, reason string) {
			slog.Warn("notification refused", "status", status, "reason", reason)
		}
	}
	return api.NewReceiver(v, e.HandleEvent, opts)
}

// Listen serves h (a Receiver) at urlPath on addr until Close or Shutdown,
// and returns the address it listens on.
func (e *Engine) Listen(addr, urlPath string, h http.Handler) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("notification receiver: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle(urlPath, h)
	srv := api.NewReceiverServer(mux, api.ReceiverLimits{})
	e.mu.Lock()
	e.srvs = append(e.srvs, srv)
	e.receiver = "on " + ln.Addr().String()
	e.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Warn("notification receiver stopped", "err", err)
		}
	}()
	return ln.Addr(), nil
}

// ReceiverStatus is "off" or "on HOST:PORT".
func (e *Engine) ReceiverStatus() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.receiver
}

// Shutdown stops the receivers gracefully (handlers finish) within ctx.
func (e *Engine) Shutdown(ctx context.Context) error {
	e.mu.Lock()
	srvs := e.srvs
	e.srvs = nil
	e.mu.Unlock()
	var errs []error
	for _, s := range srvs {
		errs = append(errs, s.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

// Close stops the sender and the receivers and closes the replica.
func (e *Engine) Close() {
	if e.stop != nil {
		e.mu.Lock() // no invoice fetch starts after this (invoicesAfterSync)
		e.stop()
		e.mu.Unlock()
	}
	e.bg.Wait() // the invoice fetch writes to the store
	if e.answers != nil {
		e.answers.close()
	}
	e.mu.Lock()
	srvs := e.srvs
	e.srvs = nil
	e.mu.Unlock()
	for _, s := range srvs {
		s.Close()
	}
	e.Store.Close()
}

// Silent says who has not answered (the customer's service, or the office
// hub) and since when; nil while they answer, or with no service at all.
func (e *Engine) Silent() *Silence {
	if e.answers == nil {
		return nil
	}
	return e.answers.Silent()
}

// Heard is when the service (or hub) last answered anything; zero before
// its first answer.
func (e *Engine) Heard() time.Time {
	if e.answers == nil {
		return time.Time{}
	}
	return e.answers.Heard()
}

// OnSilence adds f to those told when who is silent changes (Silent); f
// runs on a goroutine of its own.
func (e *Engine) OnSilence(f func()) {
	if e.answers != nil {
		e.answers.onChange(f)
	}
}

// resendWhenHeardAgain: once the silent side answers again, the actions
// waiting for it go now rather than at the end of their back-off.
func (e *Engine) resendWhenHeardAgain(ctx context.Context) func() {
	var mu sync.Mutex
	silent := false
	return func() {
		mu.Lock()
		defer mu.Unlock()
		now := e.answers.Silent() != nil
		if silent && !now && ctx.Err() == nil {
			if err := e.Store.retryWaiting(ctx); err != nil {
				e.Store.log.Warn("sending the waiting actions again", "err", err)
			}
			e.Sender.Kick()
		}
		silent = now
	}
}

// What the window needs from the service right now (ui.Online).

// SyncNow syncs once, reporting progress to progress.
func (e *Engine) SyncNow(ctx context.Context, progress func(done, total int)) error {
	e.mu.Lock()
	e.progress = progress
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.progress = nil
		e.mu.Unlock()
	}()
	if err := e.Syncer.SyncNow(ctx); err != nil {
		return err
	}
	e.invoicesAfterSync()
	return nil
}

// invoicesAfterSync starts the background fetch of finished work's
// invoices, once the sync is over; after a sync that ends while one runs,
// it runs once more when that one ends.
func (e *Engine) invoicesAfterSync() {
	if !e.fetchInvoices {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.invoicing {
		e.again = true
		return
	}
	if e.runCtx.Err() != nil {
		return
	}
	e.invoicing = true
	e.bg.Add(1)
	go func() {
		defer e.bg.Done()
		for {
			if _, err := e.Syncer.FetchInvoices(e.runCtx); err != nil && e.runCtx.Err() == nil {
				slog.Info("fetching invoices in the background stopped; the next sync tries again", "err", err)
			}
			e.mu.Lock()
			if !e.again || e.runCtx.Err() != nil {
				e.invoicing = false
				e.mu.Unlock()
				return
			}
			e.again = false
			e.mu.Unlock()
		}
	}()
}

// OnInvoiceProgress has f told how far the background fetch of finished
// work's invoices is (done of total; done == total when it ends or stops),
// on a goroutine of the fetch.
func (e *Engine) OnInvoiceProgress(f func(done, total int)) {
	e.mu.Lock()
	e.invoiceProgress = f
	e.mu.Unlock()
}

func (e *Engine) Refresh(ctx context.Context, id int64) error { return e.Syncer.Refresh(ctx, id) }

// RefreshProcedures reads the work order's procedures from GET
// /api/procedure into the replica (Syncer.RefreshProcedures): the
// Procedures tab asks as it opens.
func (e *Engine) RefreshProcedures(ctx context.Context, id int64) error {
	return e.Syncer.RefreshProcedures(ctx, id)
}

func (e *Engine) AttachmentLink(ctx context.Context, woID int64, attID string) (api.DownloadURL, error) {
	return e.Client.AttachmentDownloadURL(ctx, woID, attID)
}

func (e *Engine) InvoiceAttachmentLink(ctx context.Context, woID int64, attID string) (api.DownloadURL, error) {
	return e.Client.InvoiceAttachmentDownloadURL(ctx, woID, attID)
}

func (e *Engine) StepAttachments(ctx context.Context, step api.StepRef) ([]api.StepAttachment, error) {
	return e.Client.ListStepAttachments(ctx, step)
}

func (e *Engine) StepAttachmentLink(ctx context.Context, step api.StepRef, attID string) (api.DownloadURL, error) {
	return e.Client.StepAttachmentDownloadURL(ctx, step, attID)
}

func (e *Engine) Download(ctx context.Context, link api.DownloadURL, w io.Writer, progress func(done, total int64)) error {
	return e.Client.Download(ctx, link, w, progress)
}
