// Package ui holds the Fyne views of Work Order Desk. It reads the local
// replica, hands every action to the outbox, and touches widgets only on the
// main goroutine (fyne.Do for results from elsewhere). It never calls HTTP.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/activity"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/assign"
	"github.com/workorderdesk/workdesk/ui/attachments"
	"github.com/workorderdesk/workdesk/ui/decision"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/invoice"
	"github.com/workorderdesk/workdesk/ui/list"
	"github.com/workorderdesk/workdesk/ui/messages"
	"github.com/workorderdesk/workdesk/ui/note"
	"github.com/workorderdesk/workdesk/ui/pending"
	"github.com/workorderdesk/workdesk/ui/procedures"
	"github.com/workorderdesk/workdesk/ui/quote"
	"github.com/workorderdesk/workdesk/ui/settings"
	"github.com/workorderdesk/workdesk/ui/status"
	"github.com/workorderdesk/workdesk/ui/summary"
	"github.com/workorderdesk/workdesk/ui/visit"
)

// Online is what needs the service right now and cannot be queued: syncing,
// fetching a work order's details, and temporary download links. main
// implements it with storage and the api Client; the UI never calls HTTP.
type Online interface {
	SyncNow(ctx context.Context, progress func(done, total int)) error
	// Refresh writes the work order's details into the replica, which
	// tells its subscribers (the window) what changed.
	Refresh(ctx context.Context, workOrderId int64) error
	AttachmentLink(ctx context.Context, workOrderId int64, attachmentId string) (api.DownloadURL, error)
	InvoiceAttachmentLink(ctx context.Context, workOrderId int64, attachmentId string) (api.DownloadURL, error)
	// Step attachments are listed live, not kept in the replica: the list
	// has no count limit and changes only through the service.
	StepAttachments(ctx context.Context, step api.StepRef) ([]api.StepAttachment, error)
	StepAttachmentLink(ctx context.Context, step api.StepRef, attachmentId string) (api.DownloadURL, error)
	Download(ctx context.Context, link api.DownloadURL, w io.Writer, progress func(done, total int64)) error
}

// Health reports the connection for the status bar.
type Health = status.Health

// Deps is what main hands the window.
type Deps struct {
	Store   *storage.Store
	Online  Online
	Demo    bool   // running against the built-in sandbox
	Office  bool   // Service is an office hub
	Service string // the base URL of the service
	Health  func() Health
	// Ready, when set, is closed once the window shows real data (the first
	// sync finished or failed): --screenshot waits for it.
	Ready chan struct{}
	// Background runs work that must not block the window; nil = a new
	// goroutine. Tests run it inline: Fyne's test driver executes fyne.Do
	// on the calling goroutine, so real goroutines would race the test.
	Background func(func())
	// Do hands work from other goroutines to the main goroutine; nil =
	// fyne.Do. Tests queue it and drain the queue on the test goroutine.
	Do func(func())
	// Customer acts as the customer through the sandbox (demo mode only).
	Customer Customer
	// Secrets holds the live client secret (the OS keyring).
	Secrets settings.SecretStore
	// OpenURL opens a link in the system's browser and says whether it
	// did; nil = the app's OpenURL (which on Linux cannot tell).
	OpenURL func(*url.URL) error
	// TestConnection runs the `workdesk doctor` checks for the settings dialog.
	TestConnection func(ctx context.Context, conn api.Connection, report func(api.Check)) bool
	// CheckContract runs `workdesk doctor --contract` against the service
	// the window is connected to (File › Check the connection…); nil when
	// it is connected to none.
	CheckContract func(ctx context.Context) *api.ContractReport
	// SwitchMode restarts behind a new window on the live (or demo) replica.
	SwitchMode func(live bool)
	// ConnectOffice saves the office connection (the secret in the
	// keyring) and opens office mode behind a new window.
	ConnectOffice func(s settings.Office, secret string) error
	// AskOffice, when set, is an office hub the window was asked to open
	// (workdesk --hub URL) without the person's client id and secret: it
	// opens Connect to office hub… for that hub at once.
	AskOffice string
	// ResetDemo forgets everything done in the demo and starts it over
	// behind a new window (demo mode only).
	ResetDemo func()
	// SetPerformedBy names the person the service's records say acted
	// (api.Client.SetPerformedBy) on a desktop without a hub: the name
	// they give (File › Your name…) instead of the computer's account
	// ("root"). Nil in office mode, where the hub names them.
	SetPerformedBy func(name string)
	// SyncEvery is the background sync interval; 0 = settings.DefaultSyncEvery.
	SyncEvery time.Duration
	// Notice, when set, is a banner above the list saying why the window is
	// not connected as configured (no secret on this computer, the live
	// connection failed); its button opens the connection settings.
	Notice string
	// NoDesktopNotifications: the system cannot show them (Linux without a
	// session bus), so sending each one would only log an error.
	NoDesktopNotifications bool
	// Notifier shows desktop notifications; nil = the app's own (Fyne's,
	// which never expire on Linux).
	Notifier DesktopNotifier
	// SystemThemeSilent: the system states no light/dark preference (Linux
	// without a session bus); following the system then means light.
	SystemThemeSilent bool
}

// Desk is the main window and everything in it.
type Desk struct {
	app    fyne.App
	win    fyne.Window
	store  *storage.Store
	online Online
	deps   Deps

	list   *list.View
	detail *detailView
	status *status.Bar
	assign *assign.Dialog
	split  *container.Split
	panes  *fyne.Container // the split, kept fitting by arrange.PaneFit
	fit    *arrange.PaneFit
	ring   *focusRing // around what has the keyboard
	// recvWin is the receivables window while open (View › Receivables).
	recvWin *receivablesWindow
	// results shows a bulk action's outcome per work order.
	results *pending.Results
	// decision accepts and rejects work orders.
	decision *decision.Decision
	// settings opens the connection dialogs (Live, office hub).
	settings *settings.Dialogs

	// seen is, per work order, the newest colleague's change the person
	// has opened it since (office mode): its list mark is cleared.
	seen map[int64]time.Time
	// refused says the office hub refused the sign-in (office mode only).
	refused *fyne.Container
	// correcting is the refused action the person is correcting in its
	// form (nil: none); refusals announces each action refused, once.
	correcting *correction
	refusals   *pending.Notice
	// boardWin is the dispatch board's window, while open.
	boardWin *boardWindow

	// news is the desktop notifications of the last minute, shown as one.
	news customerNews

	syncing bool
	// frame holds the banners, the panes and the status bar: a banner
	// that comes or goes lays it out again (bannerChanged).
	frame *fyne.Container
	// inFlight holds the controls whose action is being queued (act),
	// each with the enabled state the rules asked for meanwhile.
	inFlight map[fyne.Disableable]bool
	// lastWrite is closed once the newest store write is done (write).
	lastWrite chan struct{}
	closed    chan struct{} // closed with the window: stops the tickers
	// started is set by Start: tests never call it, so per-second tickers
	// (link countdowns) run only in the real window.
	started bool
}

// New builds the main window over the replica.
func New(a fyne.App, deps Deps) *Desk {
	a.Settings().SetTheme(newTheme(loadAppearance(a.Preferences()), deps.SystemThemeSilent))
	if deps.Do == nil {
		deps.Do = fyne.Do
	}
	if deps.Background == nil {
		deps.Background = func(f func()) { go f() }
	}
	d := &Desk{app: a, store: deps.Store, online: deps.Online, deps: deps, closed: make(chan struct{}),
		inFlight: map[fyne.Disableable]bool{}}
	d.win = dialogs.NewWindow(a, "Work Order Desk")
	if deps.Demo {
		d.win.SetTitle("Work Order Desk — Demo")
	}
	prefs := a.Preferences()

	d.list = list.New(d.store, prefs, host{d})
	if deps.Office {
		d.list.MarkColleagues(host{d})
	}

	d.detail = newDetailView(d, []tab{
		summary.New(d.store, host{d}), quote.New(d.store, d.store, host{d}), visit.New(d.store, d.store, host{d}), messages.New(d.store, d.store, host{d}), attachments.New(d.store, d.store, d.online, host{d}), invoice.New(d.store, d.store, d.online, host{d}, host{d}), procedures.New(d.store, d.store, d.online, host{d}), note.New(d.store, d.store, host{d}), activity.New(d.store, host{d}),
	})
	d.status = status.New(status.Connection{Service: d.deps.Service, Demo: d.deps.Demo, Office: d.deps.Office, Health: d.deps.Health}, d.store, host{d})
	d.assign = assign.New(d.store, d.store, host{d})
	d.refusals = pending.NewNotice(d.store, host{d})
	d.results = pending.NewResults(d.store, host{d})
	d.decision = decision.New(d.store, host{d})
	d.settings = settings.New(host{d}, host{d})

	d.split = container.NewHSplit(d.list.Content(), d.detail.content())
	d.split.Offset = prefs.FloatWithFallback("split.offset", 0.6)
	top := d.toolbar()
	if deps.Notice != "" {
		top = container.NewVBox(top, d.noticeBanner(deps.Notice))
	}
	if deps.Office {
		d.refused = d.noticeBanner(signInRefused)
		d.refused.Hide()
		top = container.NewVBox(top, d.refused)
	}
	d.fit = arrange.NewPaneFit(d.split, d.list.LeastWidth, d.detail.wants, d.detail.tabsFit.setCompact)
	d.panes = container.New(d.fit, d.split)
	d.ring = newFocusRing()
	d.frame = container.NewBorder(top, d.status.Content(), nil, nil, d.panes)
	d.win.SetContent(d.ring.over(d.frame))
	d.win.SetMainMenu(d.mainMenu())
	d.addShortcuts()
	d.win.Resize(fyne.NewSize(
		float32(prefs.FloatWithFallback("window.width", 1280)),
		float32(prefs.FloatWithFallback("window.height", 800))))
	unsubscribe := d.store.Subscribe(d.paced(d.list.Pace, d.changed))
	if p, ok := deps.Online.(invoiceFetch); ok {
		p.OnInvoiceProgress(func(done, total int) { d.do(func() { d.invoiceProgress(done, total) }) })
	}
	// The layout is saved however the window goes: its close button, File ›
	// Quit, a switch between Demo and Live (which closes it), or the app
	// stopping without closing it (a quit from the system tray or the OS).
	d.win.SetOnClosed(func() {
		select {
		case <-d.closed:
			return // already closed (Fyne's test driver calls this on every Close)
		default:
		}
		d.saveLayout()
		unsubscribe()
		if d.boardWin != nil {
			d.boardWin.win.Close() // it reads this window's replica
		}
		close(d.closed)
	})
	a.Lifecycle().SetOnStopped(func() {
		select {
		case <-d.closed: // saved when it closed
		default:
			d.saveLayout()
		}
	})
	d.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { d.dropped(droppedPaths(uris)) })

	d.usePersonName()
	d.list.Reload()
	d.openFirst()
	d.status.Refresh()
	d.refusals.Look()
	return d
}

// saveLayout remembers the window size and the split position for the next
// start (the column widths are saved as they are dragged).
func (d *Desk) saveLayout() {
	prefs := d.app.Preferences()
	if s := d.win.Canvas().Size(); s.Width > 0 && s.Height > 0 {
		prefs.SetFloat("window.width", float64(s.Width))
		prefs.SetFloat("window.height", float64(s.Height))
	}
	prefs.SetFloat("split.offset", d.fit.Preferred())
}

// quit saves the layout and ends the app (File › Quit).
func (d *Desk) quit() {
	d.saveLayout()
	d.app.Quit()
}

// Window is the main window, for main to show and run.
func (d *Desk) Window() fyne.Window { return d.win }

// Start begins the first sync, the periodic sync and the status bar's
// clock; call after Show.
func (d *Desk) Start() {
	d.started = true
	d.status.Start()
	d.every(150*time.Millisecond, func() { d.ring.update(d.win.Canvas()) })
	d.firstStartGuide()
	if d.deps.AskOffice != "" {
		d.settings.ShowOffice()
	}
	d.syncNow(d.deps.Ready)
	every := d.deps.SyncEvery
	if every <= 0 {
		every = settings.DefaultSyncEvery
	}
	d.every(every, func() { d.syncNow(nil) })
}

func (d *Desk) openWorkOrder(id int64) {
	d.sawColleagues(id)
	d.detail.open(id)
}

// changed is called on the main goroutine when sync, the outbox or a
// notification changed work orders: the list and the open detail refresh in
// place, keeping the selection and the scroll position.
func (d *Desk) changed(ids []int64) {
	d.list.ReloadLater()
	if wo := d.detail.wo; wo != nil {
		d.sawColleagues(wo.WorkOrderId) // its header says it: seen, not news once the person moves on
	}
	d.detail.reloadIfOpen(ids)
	d.status.Refresh()
	d.refusals.Look()
	d.boardChanged()
	d.receivablesChanged()
}

// refreshDetails fetches the open work order's messages, attachments and
// invoice into the replica; offline, the cached copies stay on screen.
func (d *Desk) refreshDetails(id int64) {
	if d.online == nil {
		return
	}
	d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// What the refresh writes reaches the window as every write does,
		// through the replica's change notification (Store.Subscribe,
		// d.changed); showing the work order here as well drew it twice.
		if err := d.online.Refresh(ctx, id); err != nil {
			slog.Info("detail refresh failed; showing cached data", "workOrder", id, "err", err)
		}
	})
}

// refreshProcedures reads a work order's procedures from GET
// /api/procedure into the replica, where the connection can (the engine
// does; the window hears of a change through the replica).
func (d *Desk) refreshProcedures(id int64) {
	r, ok := d.online.(interface {
		RefreshProcedures(ctx context.Context, workOrderId int64) error
	})
	if !ok {
		return
	}
	d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := r.RefreshProcedures(ctx, id); err != nil {
			slog.Info("could not read the procedures; showing the work order's", "workOrder", id, "err", err)
		}
	})
}

func (d *Desk) syncNow(done chan struct{}) {
	if d.online == nil && done != nil {
		close(done) // a replica browsed offline shows all it will at once
	}
	if d.syncing || d.online == nil {
		return
	}
	d.syncing = true
	d.status.SyncStarted()
	d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		err := d.online.SyncNow(ctx, func(n, total int) {
			d.do(func() { d.status.Progress("Syncing", n, total) })
		})
		d.do(func() {
			d.syncing = false
			d.status.SyncEnded(err)
			d.list.Reload()
			d.receivablesChanged()
			d.openFirst() // the first start: the replica was empty until now
			if done != nil {
				close(done)
			}
		})
	})
}

// coalesced hands changes to f on the main goroutine, those that come
// while one hand-over waits merged into it: a burst of writes (a sync, the
// invoice fetch) then costs the window one reload, not one per write
// queued behind each other.
func (d *Desk) coalesced(f func(ids []int64)) func(changed []int64) {
	var (
		mu      sync.Mutex
		pending []int64
		queued  bool
	)
	return func(changed []int64) {
		mu.Lock()
		pending = append(pending, changed...)
		if queued {
			mu.Unlock()
			return
		}
		queued = true
		mu.Unlock()
		d.do(func() {
			mu.Lock()
			ids := pending
			pending, queued = nil, false
			mu.Unlock()
			f(ids)
		})
	}
}

// paced is coalesced for the window's reload after a change, which on a
// replica of reloadPaceFrom work orders or more also waits, after the
// last, reloadPace times what that reload's reads took (pace: how many
// the last reload counted and what its reads took) (at least
// reloadGapMin, at most reloadGapMax): at 100,000 work orders a reload's
// counts cost tens of milliseconds, and the invoice fetch, which tells the
// window of what it stored once a second, spent more on reloading the list
// than on the invoices. A change after a quiet spell, or on a smaller
// replica, is shown at once.
func (d *Desk) paced(pace func() (works int, cost time.Duration), f func(ids []int64)) func(changed []int64) {
	var (
		mu      sync.Mutex
		pending []int64
		queued  bool
		last    time.Time // when the last reload began
	)
	run := func() {
		select {
		case <-d.closed:
			return
		default:
		}
		mu.Lock()
		ids := pending
		pending, queued = nil, false
		last = time.Now()
		mu.Unlock()
		f(ids)
	}
	return func(changed []int64) {
		mu.Lock()
		pending = append(pending, changed...)
		if queued {
			mu.Unlock()
			return
		}
		queued = true
		wait := time.Until(last.Add(reloadGap(pace())))
		mu.Unlock()
		if wait <= 0 {
			d.do(run)
			return
		}
		time.AfterFunc(wait, func() { d.do(run) })
	}
}

// reloadGap is how long after a reload of a list of n work orders whose
// reads took cost the next waits.
func reloadGap(n int, cost time.Duration) time.Duration {
	if n < reloadPaceFrom {
		return 0
	}
	return min(max(cost*reloadPace, reloadGapMin), reloadGapMax)
}

const (
	reloadPaceFrom = 5_000
	reloadPace     = 20
	reloadGapMin   = time.Second
	reloadGapMax   = 10 * time.Second
)

// invoiceFetch is what an Online that fetches the invoices of finished
// work in the background tells of it (storage.Engine).
type invoiceFetch interface {
	OnInvoiceProgress(func(done, total int))
}

// invoiceProgress shows how far the background invoice fetch is, while
// no sync shows its own progress.
func (d *Desk) invoiceProgress(done, total int) {
	if d.syncing {
		return
	}
	if done >= total {
		d.status.HideProgress()
		return
	}
	d.status.Progress(fmt.Sprintf("Reading invoices: %s of %s", count(done), count(total)), done, total)
}

// showError tells the person what went wrong in plain words.
func (d *Desk) showError(err error) { d.showErrorIn(d.win, err) }

// showErrorIn tells it in window w (a view's own window).
func (d *Desk) showErrorIn(w fyne.Window, err error) {
	if err == nil {
		return
	}
	var apiErr *api.Error
	var rule *api.RuleError
	var first dialogs.NotYet
	switch {
	case errors.As(err, &first):
		dialogs.Info("Not yet", err.Error(), w)
		return
	case errors.As(err, &rule):
		// The rules say what to do instead ("accept it first, then
		// check in"): guidance, not an error.
		dialogs.Info("Not possible now", err.Error(), w)
		return
	case errors.As(err, &apiErr):
		err = errors.New(apiErr.Message)
	}
	dialogs.Error(err, w)
}

func (d *Desk) info(title, msg string) { dialogs.Info(title, msg, d.win) }

// Showcase opens the first work order of the list, so a screenshot shows
// the detail view too.
func (d *Desk) Showcase() {
	d.list.OpenFirst()
}

// openFirst opens the list's first work order when none is open, so the
// window never starts half empty: by default the list is sorted by the
// next deadline, and the first is the most urgent.
func (d *Desk) openFirst() {
	if d.detail.wo == nil {
		d.Showcase()
	}
}

// ShowError shows err in the window (for main's mode switch).
func (d *Desk) ShowError(err error) { d.showError(err) }

// every runs f on the main goroutine each period until the window closes.
func (d *Desk) every(period time.Duration, f func()) {
	go func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				d.do(f)
			case <-d.closed:
				return
			}
		}
	}()
}

// do runs f on the main goroutine (see Deps.Do).
func (d *Desk) do(f func()) { d.deps.Do(f) }

// fileTab is a tab showing files: files dropped on the window while it is
// shown go there.
type fileTab interface {
	tab
	AddFiles(paths []string)
}

// dropped attaches files dropped on the window where the person is looking:
// to the invoice on the Invoice tab, to the chosen step on the Procedures
// tab, otherwise to the open work order.
func (d *Desk) dropped(paths []string) {
	if len(paths) == 0 {
		return
	}
	if d.detail.wo == nil {
		d.showError(dialogs.NotYet("open a work order first, then drop the files on the window"))
		return
	}
	var workOrder fileTab
	for _, t := range d.detail.tabs {
		ft, ok := t.(fileTab)
		if !ok {
			continue
		}
		if d.detail.selectedTab() == t {
			ft.AddFiles(paths)
			return
		}
		if _, ok := t.(*attachments.Tab); ok {
			workOrder = ft
		}
	}
	workOrder.AddFiles(paths)
}
