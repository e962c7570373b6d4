package ui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/format"
)

// dateEntry is a day, typed or picked from a calendar, written the way the
// rest of the window writes days ("Sat 21 Nov 2026"). Fyne's DateEntry
// writes the system locale's numeric form (21/11/2026 or 11/21/2026) and
// answers a typo with Go's parse error; this one takes the day as the
// window shows it, with or without the weekday, or as 2026-11-21.
type dateEntry struct {
	widget.Entry
	// Date is the day typed or picked (local midnight); nil when the field
	// is empty or holds no day.
	Date *time.Time
	// OnChanged is called with Date whenever the text changes.
	OnChanged func(*time.Time)
	// form, when set, is the scroll the wheel moves over this field.
	form func() *container.Scroll

	pick  *widget.Button
	popUp *widget.PopUp
}

func newDateEntry() *dateEntry {
	e := &dateEntry{}
	e.ExtendBaseWidget(e)
	e.SetPlaceHolder(format.DayExample())
	e.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if _, err := format.ParseDay(s); err != nil {
			return err
		}
		return nil
	}
	e.Entry.OnChanged = func(s string) {
		e.Date = nil
		if d, err := format.ParseDay(s); err == nil {
			e.Date = &d
		}
		if e.OnChanged != nil {
			e.OnChanged(e.Date)
		}
	}
	e.pick = widget.NewButtonWithIcon("", theme.CalendarIcon(), e.showCalendar)
	e.pick.Importance = widget.LowImportance
	e.ActionItem = e.pick
	return e
}

func (e *dateEntry) CreateRenderer() fyne.WidgetRenderer {
	return passWheel(e.Entry.CreateRenderer(), e.form)
}

// SetDate shows d (nil empties the field).
func (e *dateEntry) SetDate(d *time.Time) {
	if d == nil {
		e.SetText("")
		return
	}
	e.SetText(format.Day(*d))
}

func (e *dateEntry) Enable() {
	e.pick.Enable()
	e.Entry.Enable()
}

func (e *dateEntry) Disable() {
	e.pick.Disable()
	e.Entry.Disable()
}

// showCalendar opens a month calendar under the field, at its day (or
// today, which it marks), and fills the field with the day tapped.
func (e *dateEntry) showCalendar() {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	if c == nil {
		return
	}
	at := format.Now()
	if e.Date != nil {
		at = *e.Date
	}
	cal := newMonthPicker(at, e.Date, func(d time.Time) {
		if e.popUp != nil {
			e.popUp.Hide()
		}
		day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.Local)
		e.SetDate(&day)
	}).content
	e.popUp = widget.NewPopUp(cal, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
	e.popUp.ShowAtPosition(pos.Add(fyne.NewPos(0, e.Size().Height)))
	e.popUp.Resize(fyne.NewSize(max(e.Size().Width, cal.MinSize().Width), cal.MinSize().Height))
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

func invoiceDateToLocal(d *time.Time) *time.Time { return invoiceDateIn(d, time.Local) }

// invoiceDateIn is the stored day d as midnight in loc.
func invoiceDateIn(d *time.Time, loc *time.Location) *time.Time {
	if d == nil || d.IsZero() {
		return nil
	}
	u := d.UTC()
	l := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, loc)
	return &l
}
