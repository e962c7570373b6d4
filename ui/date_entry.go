package ui

import (
	"errors"
	"strings"
	"time"

	"fyne.io/fyne/v2"
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

// invoiceDateFromLocal keeps the calendar day picked, as a UTC midnight:
// an invoice date is a day, not an instant, and must not shift by a zone.
func invoiceDateFromLocal(d *time.Time) *time.Time {
	if d == nil {
		return nil
	}
	u := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	return &u
}

func invoiceDateToLocal(d *time.Time) *time.Time {
	if d == nil || d.IsZero() {
		return nil
	}
	u := d.UTC()
	l := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.Local)
	return &l
}
