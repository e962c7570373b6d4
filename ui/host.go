package ui

import (
	"context"
	"io"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// host is the window as its views and widgets see it. Each of them
// declares the few methods it uses, as an interface of its own
// (files.Host, ...); host has them all, so a view is handed host{d} and
// sees only its own interface, while its tests hand it a fake.
type host struct{ d *Desk }

func (h host) Window() fyne.Window     { return h.d.win }
func (h host) ShowError(err error)     { h.d.showError(err) }
func (h host) Queued(what string)      { h.d.status.Queued(what) }
func (h host) Background(f func())     { h.d.deps.Background(f) }
func (h host) Do(f func())             { h.d.do(f) }
func (h host) Closed() <-chan struct{} { return h.d.closed }
func (h host) Ticking() bool           { return h.d.started }
func (h host) Connected() bool         { return h.d.online != nil }

func (h host) Run(work func(ctx context.Context) error, done func(error))   { h.d.run(work, done) }
func (h host) Write(work func(ctx context.Context) error, done func(error)) { h.d.write(work, done) }

func (h host) OpenURL(link api.DownloadURL) error { return h.d.openURL(link) }

func (h host) Download(ctx context.Context, link api.DownloadURL, w io.Writer, progress func(done, total int64)) error {
	return h.d.online.Download(ctx, link, w, progress)
}

func (h host) Act(controls []fyne.Disableable, write func(ctx context.Context) error, done func(error)) {
	h.d.act(controls, write, done)
}
func (h host) Busy(w fyne.Disableable) bool       { return h.d.busy(w) }
func (h host) Enable(w fyne.Disableable, on bool) { h.d.enable(w, on) }

func (h host) Replacing(woID int64, group outbox.Group) context.Context {
	return h.d.actionCtx(woID, group)
}

// WriteToCustomer opens the Messages tab with text to the customer, the
// keyboard in it.
func (h host) WriteToCustomer(text string) {
	m := h.d.messagesTab()
	if m == nil {
		return
	}
	h.d.detail.showTab(m.Title())
	m.WriteToCustomer(text)
}
