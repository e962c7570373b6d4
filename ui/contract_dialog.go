package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// showContractCheck is File › Check the connection…: the report of
// `workdesk doctor --contract` for the service the window is connected
// to, made in the background (reads only), with a button that saves the
// answers, anonymised, for a support request.
func (d *Desk) showContractCheck() {
	if d.deps.CheckContract == nil {
		d.info("Check the connection", "This window is not connected to a service: there is nothing to check.")
		return
	}
	text := widget.NewLabel("Reading what the app relies on from " + d.deps.Service + " (nothing is written)…")
	text.Wrapping = fyne.TextWrapWord
	text.TextStyle.Monospace = true
	saved := widget.NewLabel("")
	saved.Wrapping = fyne.TextWrapWord
	saved.Hide()
	var report *api.ContractReport
	save := widget.NewButtonWithIcon("Save the answers for support", theme.DocumentSaveIcon(), func() {
		if report == nil {
			return
		}
		dir := contractFolder()
		d.deps.Background(func() {
			files, err := report.Save(dir)
			d.do(func() {
				if err != nil {
					d.showError(err)
					return
				}
				saved.SetText(fmt.Sprintf("%d files saved,", len(files)) + " anonymised (ids, names, addresses, texts and links replaced), in " + dir)
				saved.Show()
			})
		})
	})
	save.Disable()
	body := container.NewBorder(nil, container.NewVBox(saved, container.NewHBox(save)), nil, nil, container.NewVScroll(text))
	dlg := dialogs.NewCustom("Check the connection", "Close", body, d.win)
	dlg.Resize(fyne.NewSize(860, 560))
	dlg.Show()
	d.deps.Background(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		r := d.deps.CheckContract(ctx)
		d.do(func() {
			report = r
			if r == nil {
				text.SetText("There is no service to check.")
				return
			}
			text.SetText(r.Text())
			save.Enable()
		})
	})
}

// contractFolder is where the saved answers go: a new folder in the
// person's home, named for the moment.
func contractFolder() string {
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, "Work Order Desk check "+time.Now().Format("2006-01-02 1504"))
}
