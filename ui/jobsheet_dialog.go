package ui

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
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// jobSheetFonts are the fonts the sheet is set in: the Noto Sans Fyne
// bundles (and so the binary holds already), which prints "Köln", "¥" and
// "€" as the window shows them. Its licence is the SIL Open Font License.
func jobSheetFonts() jobsheet.Fonts {
	return jobsheet.Fonts{Regular: theme.DefaultTextFont().Content(), Bold: theme.DefaultTextBoldFont().Content()}
}

// jobSheetName is the file name of wo's sheet.
func jobSheetName(wo *api.WorkOrder) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '-'
		}
		return r
	}, wo.WorkOrderNumber)
	return name + " job sheet.pdf"
}

// renderJobSheet makes wo's sheet; it takes a moment (the fonts are
// subset), so it runs off the main goroutine.
func renderJobSheet(wo *api.WorkOrder) ([]byte, error) {
	var buf bytes.Buffer
	err := jobsheet.Write(&buf, wo, jobsheet.Options{Fonts: jobSheetFonts(), Printed: format.Now()})
	return buf.Bytes(), err
}

// showJobSheet offers the open work order's job sheet to open in the
// system's PDF viewer (to print) or to save, as an attachment is.
func (d *Desk) showJobSheet(wo *api.WorkOrder) {
	if wo == nil {
		return
	}
	wo = copyOf(wo) // the sheet is of the work order as it was asked for
	name := jobSheetName(wo)
	status := widget.NewLabel("")
	status.Wrapping = fyne.TextWrapWord
	status.Hide()
	var open, save *widget.Button
	busy := func(on bool) { arrange.SetEnabled(open, !on); arrange.SetEnabled(save, !on) }
	say := func(text string, importance widget.Importance) {
		status.Importance = importance
		status.SetText(text)
		status.Show()
	}
	open = widget.NewButtonWithIcon("Open", theme.DocumentPrintIcon(), func() {
		busy(true)
		say("Making the job sheet…", widget.MediumImportance)
		var path string
		d.run(func(context.Context) error {
			pdf, err := renderJobSheet(wo)
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
			opener := d.deps.OpenURL
			if opener == nil {
				opener = d.app.OpenURL
			}
			if err := opener(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}); err != nil {
				return fmt.Errorf("no program opened it (%s); it is at %s, or use Save as…", strings.TrimSuffix(format.Error(err), "."), path)
			}
			return nil
		}, func(err error) {
			busy(false)
			if err != nil {
				say("The job sheet could not be opened: "+format.Error(err), widget.WarningImportance)
				return
			}
			say("Opened "+name+" in your PDF viewer: print it from there.", widget.MediumImportance)
		})
	})
	open.Importance = widget.HighImportance
	save = widget.NewButtonWithIcon("Save as…", theme.DocumentSaveIcon(), func() {
		fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				say("Could not save: "+format.Error(err), widget.WarningImportance)
				return
			}
			if w == nil {
				return
			}
			busy(true)
			say("Saving…", widget.MediumImportance)
			savedAs := dialogs.SavedName(w.URI())
			d.run(func(context.Context) error {
				pdf, err := renderJobSheet(wo)
				if err == nil {
					_, err = io.Copy(w, bytes.NewReader(pdf))
				}
				return export.Finish(w, err, func() error { return fynestorage.Delete(w.URI()) })
			}, func(err error) {
				busy(false)
				if err != nil {
					say("The job sheet could not be saved, and nothing was: "+format.Error(err), widget.WarningImportance)
					return
				}
				say("Saved as "+savedAs+".", widget.MediumImportance)
			})
		}, d.win)
		fd.SetFileName(name)
		fd.SetFilter(fynestorage.NewExtensionFileFilter([]string{".pdf"}))
		dialogs.ShowFilePicker(fd, d.win)
	})
	about := widget.NewLabel("A one- or two-page PDF to take on site: where to go and whom to call, the access and appointment, the deadlines and the NTE, and every procedure step with a box to tick and room for notes.")
	about.Wrapping = fyne.TextWrapWord
	dlg := dialog.NewCustom("Job sheet for "+wo.WorkOrderNumber, "Close",
		container.NewVBox(about, container.NewHBox(open, save), status), d.win)
	dlg.Resize(fyne.NewSize(520, dlg.MinSize().Height+40))
	dlg.Show()
}

// copyOf is a copy of wo that later changes to the open work order leave
// alone (its slices are read, never written, by the sheet).
func copyOf(wo *api.WorkOrder) *api.WorkOrder {
	c := *wo
	return &c
}
