package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
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
	"github.com/workorderdesk/workdesk/storage"
)

// listExportColumns are the columns of an exported list: what the list shows,
// typed, and the deadline's name beside its date.
var listExportColumns = []export.Column{
	{Title: "Number", Kind: export.Text, Width: 12},
	{Title: "Customer", Kind: export.Text, Width: 24},
	{Title: "Site", Kind: export.Text, Width: 28},
	{Title: "Status", Kind: export.Text, Width: 12},
	{Title: "NTE", Kind: export.Money},
	{Title: "Currency", Kind: export.Text, Width: 9},
	{Title: "Quote", Kind: export.Text, Width: 11},
	{Title: "Scheduled", Kind: export.DateTime},
	{Title: "Next deadline", Kind: export.Text, Width: 15},
	{Title: "Deadline at", Kind: export.DateTime},
	{Title: "Needs attention", Kind: export.Text, Width: 15},
}

// listTable is the list of query q as a table to export: every row the
// list shows for it, in its order, read from the replica one at a time.
// n is how many the list counted, for the progress bar.
func listTable(store *storage.Store, q storage.ListQuery, n int) export.Table {
	return export.Table{Sheet: "Work orders", Columns: listExportColumns, Len: n,
		Rows: func(ctx context.Context, yield func([]any) error) error {
			row := make([]any, len(listExportColumns))
			return store.EachRow(ctx, q, func(r storage.Row) error {
				row[0], row[1], row[2] = r.Number, r.Customer, r.Site
				row[3] = statusText(r.Status)
				// An NTE of 0 is no limit, not an amount: a sum over the
				// column must not take it for one.
				row[4], row[5] = "No limit", ""
				if !r.Nte.IsZero() {
					row[4], row[5] = r.Nte, r.Nte.Currency
				}
				row[6] = nil
				if r.QuoteStatus != "" {
					row[6] = statusText(r.QuoteStatus)
				}
				row[7], row[8], row[9] = r.ScheduledStart, r.NextDeadlineLabel, r.NextDeadline
				row[10] = ""
				if r.Attention {
					row[10] = "Yes"
				}
				return yield(row)
			})
		}}
}

// exportName is the file name offered for an export made at now.
func exportName(f export.Format, now time.Time) string {
	return "work-orders-" + now.Format("2006-01-02") + f.Ext()
}

// showExportList is File › Export list…: the list as it is searched,
// filtered and sorted now, to CSV or Excel, in a file the person picks.
func (d *Desk) showExportList() {
	q, n := d.list.shown, d.list.total
	q.Limit, q.Offset = 0, 0
	if n == 0 {
		d.info("Export list", "The list shows no work orders: there is nothing to export. Clear the search or the filters first.")
		return
	}
	formats := []export.Format{export.XLSX, export.CSV}
	choice := widget.NewRadioGroup([]string{"Excel workbook (.xlsx): dates as dates, amounts as numbers in their currency", "CSV (.csv): plain text, for any program"}, nil)
	choice.SetSelected(choice.Options[0])
	choice.Required = true
	what := widget.NewLabel(fmt.Sprintf("Exports the %s work orders the list shows now%s, in its order.", count(n), listDescription(q)))
	what.Wrapping = fyne.TextWrapWord
	var dlg *dialog.CustomDialog
	next := widget.NewButtonWithIcon("Choose where to save…", theme.DocumentSaveIcon(), func() {
		f := formats[max(0, slices.Index(choice.Options, choice.Selected))]
		dlg.Hide()
		fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				d.showError(fmt.Errorf("the file could not be created: %w", err))
				return
			}
			if w == nil {
				return // the person closed the picker
			}
			d.exportTo(w, w.URI(), f, listTable(d.store, q, n))
		}, d.win)
		fd.SetFileName(exportName(f, nowFunc()))
		fd.SetFilter(fynestorage.NewExtensionFileFilter([]string{f.Ext()}))
		showFilePicker(fd, d.win)
	})
	next.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { dlg.Hide() })
	dlg = dialog.NewCustomWithoutButtons("Export list", container.NewVBox(what, choice,
		container.NewHBox(layout.NewSpacer(), cancel, next)), d.win)
	dlg.Resize(fyne.NewSize(560, dlg.MinSize().Height))
	dlg.Show()
}

// listDescription says what narrows the list: " (search "main", status
// Accepted, needing attention)"; "" when nothing does.
func listDescription(q storage.ListQuery) string {
	var parts []string
	if s := strings.TrimSpace(q.Search); s != "" {
		parts = append(parts, fmt.Sprintf("search %q", s))
	}
	for _, st := range q.Statuses {
		parts = append(parts, "status "+statusText(st))
	}
	if q.NeedsAttention {
		parts = append(parts, "needing attention")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// count is n with thousands separated: "100,000".
func count(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// exportTo writes t to w (the file at uri) in format f, off the main
// goroutine, with a progress bar and Cancel; a file it could not finish is
// removed. It says where the file went, in the person's words.
func (d *Desk) exportTo(w io.WriteCloser, uri fyne.URI, f export.Format, t export.Table) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newExportProgress(d.win, t.Len, cancel)
	p.show()
	name := uri.Name()
	if uri.Path() != "" {
		name = uri.Path()
	}
	d.run(func(context.Context) error {
		defer cancel()
		// The window going away ends the export: the replica it reads
		// is closing.
		go func() {
			select {
			case <-d.closed:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := export.Write(ctx, w, f, t, export.Options{Progress: p.progress(d.do)})
		return export.Finish(w, err, func() error { return fynestorage.Delete(uri) })
	}, func(err error) {
		p.hide()
		switch {
		case errors.Is(err, context.Canceled):
			d.info("Export list", "Export cancelled: nothing was saved.")
		case err != nil:
			d.showError(fmt.Errorf("the list could not be exported, and nothing was saved: %w", err))
		default:
			d.info("Export list", fmt.Sprintf("Saved %s work orders to %s.", count(p.done()), name))
		}
	})
}

// exportProgress is the dialog an export shows while it runs.
type exportProgress struct {
	dlg   *dialog.CustomDialog
	bar   *widget.ProgressBar
	label *widget.Label
	total int

	mu      sync.Mutex
	written int
	shown   time.Time // when the bar last moved
}

func newExportProgress(win fyne.Window, total int, cancel func()) *exportProgress {
	p := &exportProgress{bar: widget.NewProgressBar(), label: widget.NewLabel("Starting…"), total: total}
	var stop *widget.Button
	stop = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		stop.Disable()
		p.label.SetText("Cancelling…")
		cancel()
	})
	p.dlg = dialog.NewCustomWithoutButtons("Exporting the list",
		container.NewVBox(p.label, p.bar, container.NewHBox(layout.NewSpacer(), stop)), win)
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
			p.label.SetText(fmt.Sprintf("%s of %s work orders written…", count(n), count(p.total)))
		})
	}
}
