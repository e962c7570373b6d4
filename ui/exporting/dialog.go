package exporting

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Spec is one view's export (the list's, the receivables'): the table
// it writes and the words its dialogs say. Every view exports through
// Show, so each gets the same choice, progress and Cancel.
type Spec struct {
	win   fyne.Window // the view's window, where the dialogs show
	title string      // the dialogs' title: "Export list"
	noun  string      // what a row is, plural: "work orders"
	one   string      // and singular: "work order"
	file  string      // the offered file name's start: "work-orders"
	what  string      // what is exported, in a sentence
	empty string      // what is said when there is no row
	table export.Table
	// closed, when closed, ends the export: the view's window went away
	// (nil: only the main window's closing does).
	closed <-chan struct{}
}

// Exporter shows the exports over the window around it.
type Exporter struct {
	win Window
}

// New is the exports, shown over win.
func New(win Window) *Exporter {
	return &Exporter{win: win}
}

// fileName is the file name offered for an export in format f made at now.
func (s Spec) fileName(f export.Format, now time.Time) string {
	return s.file + "-" + now.Format("2006-01-02") + f.Ext()
}

// rows is n rows in words: "1 work order", "1,200 work orders".
func (s Spec) rows(n int) string {
	if n == 1 && s.one != "" {
		return "1 " + s.one
	}
	return format.Count(n) + " " + s.noun
}

// Show asks for the format, then where to save, then writes the file
// with Write.
func (e *Exporter) Show(s Spec) {
	if s.table.Len == 0 {
		dialogs.Info(s.title, s.empty, s.win)
		return
	}
	formats := []export.Format{export.XLSX, export.CSV}
	choice := widget.NewRadioGroup([]string{"Excel workbook (.xlsx): dates as dates, amounts as numbers in their currency", "CSV (.csv): plain text, for any program"}, nil)
	choice.SetSelected(choice.Options[0])
	choice.Required = true
	what := widget.NewLabel(s.what)
	what.Wrapping = fyne.TextWrapWord
	var dlg *dialog.CustomDialog
	next := dialogs.NewButton("Choose where to save…", theme.DocumentSaveIcon(), func() {
		f := formats[max(0, slices.Index(choice.Options, choice.Selected))]
		dlg.Hide()
		fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				e.win.ShowErrorIn(s.win, fmt.Errorf("the file could not be created: %w", err))
				return
			}
			if w == nil {
				return // the person closed the picker
			}
			e.Write(s, w, w.URI(), f)
		}, s.win)
		fd.SetFileName(s.fileName(f, format.Now()))
		fd.SetFilter(fynestorage.NewExtensionFileFilter([]string{f.Ext()}))
		dialogs.ShowFilePicker(fd, s.win)
	})
	next.Importance = widget.HighImportance
	cancel := dialogs.NewButton("Cancel", nil, func() { dlg.Hide() })
	dlg = dialog.NewCustomWithoutButtons(s.title, container.NewVBox(what, choice,
		container.NewHBox(layout.NewSpacer(), cancel, next)), s.win)
	dlg.Resize(fyne.NewSize(560, dlg.MinSize().Height))
	dlg.Show()
}

// Write writes s's table to w (the file at uri) in format f, off the
// main goroutine, with a progress bar and Cancel; a file it could not
// finish is removed. It says where the file went, in the person's words.
// Show calls it once the person chose where to save.
func (e *Exporter) Write(s Spec, w io.WriteCloser, uri fyne.URI, f export.Format) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newExportProgress(s, cancel)
	p.show()
	name := uri.Name()
	if uri.Path() != "" {
		name = uri.Path()
	}
	e.win.Run(func(context.Context) error {
		defer cancel()
		// The window going away ends the export: the replica it reads
		// is closing, or no one is left to tell where the file went.
		go func() {
			select {
			case <-e.win.Closed():
				cancel()
			case <-s.closed:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := export.Write(ctx, w, f, s.table, export.Options{Progress: p.progress(e.win.Do)})
		return export.Finish(w, err, func() error { return fynestorage.Delete(uri) })
	}, func(err error) {
		p.hide()
		switch {
		case errors.Is(err, context.Canceled):
			dialogs.Info(s.title, "Export cancelled: nothing was saved.", s.win)
		case err != nil:
			e.win.ShowErrorIn(s.win, fmt.Errorf("the %s could not be exported, and nothing was saved: %w", s.noun, err))
		default:
			dialogs.Info(s.title, fmt.Sprintf("Saved %s to %s.", s.rows(p.done()), name), s.win)
		}
	})
}

// exportProgress is the dialog an export shows while it runs.
type exportProgress struct {
	dlg   *dialog.CustomDialog
	bar   *widget.ProgressBar
	label *widget.Label
	noun  string
	total int

	mu      sync.Mutex
	written int
	shown   time.Time // when the bar last moved
}

func newExportProgress(s Spec, cancel func()) *exportProgress {
	p := &exportProgress{bar: widget.NewProgressBar(), label: widget.NewLabel("Starting…"), noun: s.noun, total: s.table.Len}
	var stop *dialogs.Button
	stop = dialogs.NewButton("Cancel", theme.CancelIcon(), func() {
		stop.Disable()
		p.label.SetText("Cancelling…")
		cancel()
	})
	p.dlg = dialog.NewCustomWithoutButtons("Exporting the "+s.noun,
		container.NewVBox(p.label, p.bar, container.NewHBox(layout.NewSpacer(), stop)), s.win)
	p.dlg.Resize(fyne.NewSize(460, p.dlg.MinSize().Height))
	return p
}

func (p *exportProgress) show() { p.dlg.Show() }
func (p *exportProgress) hide() { p.dlg.Hide() }

func (p *exportProgress) done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.written
}

// progress is the writer's Progress: it notes how far the export is and
// moves the bar on the main goroutine (do) at most every frame or so.
func (p *exportProgress) progress(do func(func())) func(int) {
	return func(n int) {
		p.mu.Lock()
		p.written = n
		now := time.Now()
		if now.Sub(p.shown) < 50*time.Millisecond && n < p.total {
			p.mu.Unlock()
			return
		}
		p.shown = now
		p.mu.Unlock()
		do(func() {
			if p.total > 0 {
				p.bar.SetValue(min(1, float64(n)/float64(p.total)))
			}
			p.label.SetText(fmt.Sprintf("%s of %s %s written…", format.Count(n), format.Count(p.total), p.noun))
		})
	}
}
