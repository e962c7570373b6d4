package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// dateEntry is Fyne's DateEntry with a validator in plain words: the stock
// one shows Go's parse error (`parsing time "" as "02/01/2006"…`), even on
// an empty field nobody touched.
type dateEntry struct {
	widget.DateEntry
}

func newDateEntry() *dateEntry {
	d := &dateEntry{}
	d.ExtendBaseWidget(d)
	return d
}

func (d *dateEntry) CreateRenderer() fyne.WidgetRenderer {
	r := d.DateEntry.CreateRenderer() // installs the stock validator, replaced here
	d.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" || d.Date != nil {
			return nil
		}
		return errors.New("not a date: pick it with the calendar button")
	}
	return r
}

// openFileDialog is dialog.ShowFileOpen at a size where a folder's files can
// be seen (Fyne's default shows about four rows).
func openFileDialog(cb func(fyne.URIReadCloser, error), w fyne.Window) {
	fd := dialog.NewFileOpen(cb, w)
	fd.Resize(fyne.NewSize(820, 560))
	fd.Show()
}
