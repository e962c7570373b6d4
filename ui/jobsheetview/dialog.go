package jobsheetview

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/jobsheet"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/printing"
)

// The job sheet dialog's words, in one place.
const (
	jobSheetFileName  = "%s job sheet.pdf"
	jobSheetTitle     = "Job sheet for %s"
	jobSheetAbout     = "A one- or two-page PDF to take on site: where to go and whom to call, the access and appointment, the technician, the deadlines and the NTE, and every procedure step with a box to tick and room for notes."
	jobSheetNoteTick  = "Print the internal note (access details, gate codes)"
	jobSheetPaper     = "Paper"
	jobSheetOpen      = "Open"
	jobSheetSaveAs    = "Save as…"
	jobSheetClose     = "Close"
	jobSheetMaking    = "Making the job sheet…"
	jobSheetSaving    = "Saving…"
	jobSheetNoProgram = "no program opened it (%s); it is at %s, or use Save as…"
	jobSheetNotOpened = "The job sheet could not be opened: "
	jobSheetOpened    = "Opened %s in your PDF viewer: print it from there."
	jobSheetNotSaved  = "The job sheet could not be saved, and nothing was: "
	jobSheetCantSave  = "Could not save: "
	jobSheetSavedAs   = "Saved as %s."
)

// jobSheetName is the file name of wo's sheet.
func jobSheetName(wo *api.WorkOrder) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '-'
		}
		return r
	}, wo.WorkOrderNumber)
	return fmt.Sprintf(jobSheetFileName, name)
}

// Dialog offers the job sheet of a work order.
type Dialog struct {
	store Replica
	win   Window
}

// New is the job sheet dialog, reading store, shown over win.
func New(store Replica, win Window) *Dialog {
	return &Dialog{store: store, win: win}
}

// render makes wo's sheet on paper, with who is assigned as the window
// shows it and, when note, the internal note; it takes a moment (the
// replica is read, the fonts are subset), so it runs off the main
// goroutine.
func (d *Dialog) render(ctx context.Context, wo *api.WorkOrder, paper pdftext.Paper, note bool) ([]byte, error) {
	fonts, err := printing.Fonts()
	if err != nil {
		return nil, err
	}
	opts := jobsheet.Options{Fonts: fonts, Paper: paper, Printed: format.Now()}
	who, err := d.store.AssigneesOf(ctx, []int64{wo.WorkOrderId})
	if err != nil {
		return nil, err
	}
	opts.Assigned, opts.AssignedKnown = who[wo.WorkOrderId].Who, who[wo.WorkOrderId].Known
	if note {
		n, err := d.store.Note(ctx, wo.WorkOrderId)
		if err != nil {
			return nil, err
		}
		opts.AccessNote = n.Text
	}
	var buf bytes.Buffer
	err = jobsheet.Write(&buf, wo, opts)
	return buf.Bytes(), err
}

// Show offers the open work order's job sheet to open in the system's
// PDF viewer (to print) or to save, as an attachment is.
func (d *Dialog) Show(wo *api.WorkOrder) {
	if wo == nil {
		return
	}
	wo = copyOf(wo) // the sheet is of the work order as it was asked for
	name := jobSheetName(wo)
	status := widget.NewLabel("")
	status.Wrapping = fyne.TextWrapWord
	status.Hide()
	var open, save *widget.Button
	withNote := dialogs.NewCheck(jobSheetNoteTick, nil)
	paperChoice, paper := printing.PaperChoice(d.win.Preferences())
	busy := func(on bool) { arrange.SetEnabled(open, !on); arrange.SetEnabled(save, !on) }
	say := func(text string, importance widget.Importance) {
		status.Importance = importance
		status.SetText(text)
		status.Show()
	}
	open = widget.NewButtonWithIcon(jobSheetOpen, theme.DocumentPrintIcon(), func() {
		busy(true)
		say(jobSheetMaking, widget.MediumImportance)
		var path string
		paper, note := paper(), withNote.Checked
		d.win.Run(func(ctx context.Context) error {
			pdf, err := d.render(ctx, wo, paper, note)
			if err != nil {
				return err
			}
			dir := filepath.Join(os.TempDir(), "workdesk-job-sheets")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			path = filepath.Join(dir, name)
			if err := os.WriteFile(path, pdf, 0o600); err != nil {
				return err
			}
			if err := d.win.OpenFile(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}); err != nil {
				return fmt.Errorf(jobSheetNoProgram, strings.TrimSuffix(format.Error(err), "."), path)
			}
			return nil
		}, func(err error) {
			busy(false)
			if err != nil {
				say(jobSheetNotOpened+format.Error(err), widget.WarningImportance)
				return
			}
			say(fmt.Sprintf(jobSheetOpened, name), widget.MediumImportance)
		})
	})
	open.Importance = widget.HighImportance
	save = widget.NewButtonWithIcon(jobSheetSaveAs, theme.DocumentSaveIcon(), func() {
		fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				say(jobSheetCantSave+format.Error(err), widget.WarningImportance)
				return
			}
			if w == nil {
				return
			}
			busy(true)
			say(jobSheetSaving, widget.MediumImportance)
			savedAs := dialogs.SavedName(w.URI())
			paper, note := paper(), withNote.Checked
			d.win.Run(func(ctx context.Context) error {
				pdf, err := d.render(ctx, wo, paper, note)
				if err == nil {
					_, err = io.Copy(w, bytes.NewReader(pdf))
				}
				return export.Finish(w, err, func() error { return fynestorage.Delete(w.URI()) })
			}, func(err error) {
				busy(false)
				if err != nil {
					say(jobSheetNotSaved+format.Error(err), widget.WarningImportance)
					return
				}
				say(fmt.Sprintf(jobSheetSavedAs, savedAs), widget.MediumImportance)
			})
		}, d.win.Window())
		fd.SetFileName(name)
		fd.SetFilter(fynestorage.NewExtensionFileFilter([]string{".pdf"}))
		dialogs.ShowFilePicker(fd, d.win.Window())
	})
	about := widget.NewLabel(jobSheetAbout)
	about.Wrapping = fyne.TextWrapWord
	dlg := dialogs.NewCustom(fmt.Sprintf(jobSheetTitle, wo.WorkOrderNumber), jobSheetClose,
		container.NewVBox(about, withNote, container.NewHBox(widget.NewLabel(jobSheetPaper), paperChoice),
			container.NewHBox(open, save), status), d.win.Window())
	dlg.Resize(fyne.NewSize(520, dlg.MinSize().Height+40))
	dlg.Show()
}

// copyOf is a copy of wo that later changes to the open work order leave
// alone (its slices are read, never written, by the sheet).
func copyOf(wo *api.WorkOrder) *api.WorkOrder {
	c := *wo
	return &c
}
