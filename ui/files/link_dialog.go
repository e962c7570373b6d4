package files

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// linkDialog opens or saves one file through a temporary download link.
// The link lives only in this dialog's memory: it is never written to disk
// or logged, it is forgotten when it expires or the dialog closes, and an
// expired link is always replaced by a fresh one, never reused.
type linkDialog struct {
	host     Links
	name     string
	fetch    func(context.Context) (api.DownloadURL, error)
	link     api.DownloadURL
	fetching bool
	waiting  []linkWaiter // actions waiting for the link being fetched

	valid    *widget.Label
	status   *widget.Label
	progress *widget.ProgressBar
	openBtn  *widget.Button
	copyBtn  *widget.Button
	saveBtn  *widget.Button
	dlg      dialog.Dialog
	stop     chan struct{}
	onClosed func(*linkDialog)
}

// linkWaiter is an action waiting for a link: use runs with it, failed
// when none could be had.
type linkWaiter struct {
	use    func(api.DownloadURL)
	failed func()
}

// linkMargin: a link with less left than this is replaced before use, so
// it does not expire between the click and the request.
const linkMargin = 5 * time.Second

func newLinkDialog(host Links, name string, fetch func(context.Context) (api.DownloadURL, error)) *linkDialog {
	l := &linkDialog{host: host, name: name, fetch: fetch, stop: make(chan struct{})}
	l.valid = widget.NewLabel("")
	l.status = widget.NewLabel("")
	l.status.Wrapping = fyne.TextWrapWord
	l.progress = widget.NewProgressBar()
	l.progress.Hide()
	l.openBtn = widget.NewButtonWithIcon("Open in browser", theme.ComputerIcon(), l.openInBrowser)
	l.openBtn.Importance = widget.HighImportance
	l.copyBtn = widget.NewButtonWithIcon("Copy link", theme.ContentCopyIcon(), l.copyLink)
	l.saveBtn = widget.NewButtonWithIcon("Save as…", theme.DocumentSaveIcon(), l.askSave)
	note := widget.NewLabel("The service gives a link valid for 15 minutes. It is kept only while this window is open; an expired link is replaced by a new one.")
	note.Wrapping = fyne.TextWrapWord
	note.Importance = widget.LowImportance
	body := container.NewVBox(l.valid, container.NewHBox(l.openBtn, l.copyBtn, l.saveBtn), l.progress, l.status, note)
	l.dlg = dialogs.NewCustom("Open "+name, "Close", body, host.Window())
	l.dlg.SetOnClosed(l.close)
	l.dlg.Resize(fyne.NewSize(520, 260))
	l.dlg.Show()
	l.withLink(nil, nil)
	if host.Ticking() {
		go l.countdown()
	}
	return l
}

// countdown ticks the remaining validity once a second until the dialog
// or the window closes.
func (l *linkDialog) countdown() {
	tk := time.NewTicker(time.Second)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			l.host.Do(l.tick)
		case <-l.stop:
			return
		case <-l.host.Closed():
			return
		}
	}
}

// tick shows how long the link stays valid, and forgets it once expired.
func (l *linkDialog) tick() {
	if l.fetching {
		l.valid.SetText("Asking the service for a download link…")
		return
	}
	if l.link.URL == "" {
		l.valid.SetText("No link yet: one is fetched when you open or save the file.")
		return
	}
	left := l.link.Remaining(format.Now())
	if left <= 0 {
		l.link = api.DownloadURL{}
		l.valid.SetText("The link has expired: a new one is fetched when you open or save the file.")
		return
	}
	l.valid.SetText("Link valid for " + format.Countdown(left))
}

// withLink runs use with a link valid for at least linkMargin, fetching a
// fresh one when there is none or it is about to expire; failed runs
// instead when no link can be had. Either may be nil.
func (l *linkDialog) withLink(use func(api.DownloadURL), failed func()) {
	if l.link.URL != "" && l.link.Remaining(format.Now()) > linkMargin {
		if use != nil {
			use(l.link)
		}
		return
	}
	l.link = api.DownloadURL{}
	l.waiting = append(l.waiting, linkWaiter{use, failed})
	if l.fetching {
		return
	}
	l.fetching = true
	l.tick()
	l.status.SetText("")
	l.host.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		link, err := l.fetch(ctx)
		l.host.Do(func() {
			l.fetching = false
			waiting := l.waiting
			l.waiting = nil
			if l.closed() || err != nil {
				if err != nil && !l.closed() {
					l.status.SetText("Could not get a download link: " + format.Error(err))
					l.tick()
				}
				for _, w := range waiting {
					if w.failed != nil {
						w.failed()
					}
				}
				return
			}
			l.link = link
			l.tick()
			for _, w := range waiting {
				if w.use != nil {
					w.use(link)
				}
			}
		})
	})
}

func (l *linkDialog) closed() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

func (l *linkDialog) close() {
	if l.closed() {
		return
	}
	close(l.stop)
	l.link = api.DownloadURL{}
	if l.onClosed != nil {
		l.onClosed(l)
	}
}

// openInBrowser hands the link to the system's browser and says what came
// of it: "Opened" only when the browser took it; otherwise what to do
// instead (copy the link, or save the file). Opening may wait on the
// system, so it happens off the main goroutine.
func (l *linkDialog) openInBrowser() {
	l.withLink(func(link api.DownloadURL) {
		l.status.Importance = widget.MediumImportance
		l.status.SetText("Opening " + l.name + " in your browser…")
		l.host.Background(func() {
			err := l.host.OpenURL(link)
			l.host.Do(func() {
				if l.closed() {
					return
				}
				if err != nil {
					l.status.Importance = widget.WarningImportance
					l.status.SetText(fmt.Sprintf("Your browser could not be opened (%s). Copy link and paste it into a browser while it is valid (%s left), or Save as… to keep the file.",
						strings.TrimSuffix(format.Error(err), "."), format.Countdown(link.Remaining(format.Now()))))
					return
				}
				l.status.SetText("Opened in your browser.")
			})
		})
	}, nil)
}

// copyLink puts the link on the clipboard, for a browser the app cannot
// open itself or another computer, and says how long it works.
func (l *linkDialog) copyLink() {
	l.withLink(func(link api.DownloadURL) {
		fyne.CurrentApp().Clipboard().SetContent(link.URL)
		l.status.Importance = widget.MediumImportance
		l.status.SetText(fmt.Sprintf("Link copied: paste it into a browser within %s (it stops working at %s).",
			format.Countdown(link.Remaining(format.Now())), format.Clock(format.Now().Add(link.Remaining(format.Now())))))
	}, nil)
}

func (l *linkDialog) askSave() {
	fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			l.status.SetText("Could not save: " + format.Error(err))
			return
		}
		if w == nil {
			return
		}
		l.saveTo(w)
	}, l.host.Window())
	fd.SetFileName(l.name)
	dialogs.ShowFilePicker(fd, l.host.Window())
}

// saveTo downloads the file into w, showing progress, and closes w; it
// reports the name the person chose (w's), in its folder.
func (l *linkDialog) saveTo(w io.WriteCloser) {
	savedAs := l.name
	if u, ok := w.(interface{ URI() fyne.URI }); ok && u.URI() != nil {
		savedAs = dialogs.SavedName(u.URI())
	}
	l.setBusy(true)
	l.withLink(func(link api.DownloadURL) {
		l.progress.SetValue(0)
		l.progress.Show()
		l.status.SetText("Downloading " + l.name + "…")
		l.host.Background(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			// The window going away ends the download: nobody is left to
			// see it finish, and the replica behind it is closing.
			go func() {
				select {
				case <-l.host.Closed():
					cancel()
				case <-ctx.Done():
				}
			}()
			err := l.host.Download(ctx, link, w, func(done, total int64) {
				if total > 0 {
					l.host.Do(func() { l.progress.SetValue(float64(done) / float64(total)) })
				}
			})
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			l.host.Do(func() {
				l.setBusy(false)
				if err != nil {
					l.status.SetText("The download failed: " + format.Error(err))
					return
				}
				l.progress.SetValue(1)
				l.status.SetText("Saved as " + savedAs + ".")
			})
		})
	}, func() {
		w.Close()
		l.setBusy(false)
	})
}

func (l *linkDialog) setBusy(busy bool) {
	arrange.SetEnabled(l.saveBtn, !busy)
	arrange.SetEnabled(l.openBtn, !busy)
}
