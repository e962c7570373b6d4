package xwidget

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// DateEntry is a day, typed or picked from a calendar, written the way the
// rest of the window writes days (its Calendar). Fyne's DateEntry writes
// the system locale's numeric form (21/11/2026 or 11/21/2026) and answers
// a typo with Go's parse error; this one takes the day as the window shows
// it, in the ways its Calendar reads.
type DateEntry struct {
	widget.Entry
	// Date is the day typed or picked (local midnight); nil when the field
	// is empty or holds no day.
	Date *time.Time
	// OnChanged is called with Date whenever the text changes.
	OnChanged func(*time.Time)
	// Form, when set, is the scroll the wheel moves over this field.
	Form func() *container.Scroll

	cal      Calendar
	dayWidth struct{ size, w float32 } // widestDay's, at a text size
	Pick     *widget.Button            // opens the calendar
	popUp    *widget.PopUp
}

// NewDateEntry makes an empty date field writing days as cal does.
func NewDateEntry(cal Calendar) *DateEntry {
	e := &DateEntry{cal: cal}
	e.ExtendBaseWidget(e)
	e.SetPlaceHolder(cal.DayExample())
	e.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		if _, err := cal.ParseDay(s); err != nil {
			return err
		}
		return nil
	}
	e.Entry.OnChanged = func(s string) {
		e.Date = nil
		if d, err := cal.ParseDay(s); err == nil {
			e.Date = &d
		}
		if e.OnChanged != nil {
			e.OnChanged(e.Date)
		}
	}
	e.Pick = widget.NewButtonWithIcon("", theme.CalendarIcon(), e.showCalendar)
	e.Pick.Importance = widget.LowImportance
	e.ActionItem = e.Pick
	return e
}

// MinSize is wide enough for any day the field writes, and for its
// placeholder: Fyne's entry asks for a few characters only, and a narrow
// pane cut "Mon 30 Nov 2026" to "Mon 30 Nov" (issue 38).
func (e *DateEntry) MinSize() fyne.Size {
	m := e.Entry.MinSize()
	// The entry's own decoration: what it asks for beyond an empty text.
	text := max(e.widestDay(), fyne.MeasureText(e.PlaceHolder, theme.TextSize(), e.TextStyle).Width)
	return fyne.NewSize(max(m.Width, text+e.decoration()), m.Height)
}

// widestDay is the widest day the calendar writes (the last ten days of
// each month of a year, every weekday among them), measured once per text
// size.
func (e *DateEntry) widestDay() float32 {
	size := theme.TextSize()
	if e.dayWidth.size == size {
		return e.dayWidth.w
	}
	var w float32
	for d := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() == 2026; d = d.AddDate(0, 0, 1) {
		if d.Day() >= 20 {
			w = max(w, fyne.MeasureText(e.cal.Day(d), size, e.TextStyle).Width)
		}
	}
	e.dayWidth.size, e.dayWidth.w = size, w
	return w
}

// decoration is the room the entry takes around its text: its padding,
// the validation mark and the calendar button.
func (e *DateEntry) decoration() float32 {
	return 2*theme.InnerPadding() + 2*theme.Padding() + theme.IconInlineSize() + e.Pick.MinSize().Width
}

func (e *DateEntry) CreateRenderer() fyne.WidgetRenderer {
	return PassWheel(e.Entry.CreateRenderer(), e.Form)
}

// SetDate shows d (nil empties the field).
func (e *DateEntry) SetDate(d *time.Time) {
	if d == nil {
		e.SetText("")
		return
	}
	e.SetText(e.cal.Day(*d))
}

func (e *DateEntry) Enable() {
	e.Pick.Enable()
	e.Entry.Enable()
}

func (e *DateEntry) Disable() {
	e.Pick.Disable()
	e.Entry.Disable()
}

// showCalendar opens a month calendar under the field, at its day (or
// today, which it marks), and fills the field with the day tapped.
func (e *DateEntry) showCalendar() {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	if c == nil {
		return
	}
	at := e.cal.Today()
	if e.Date != nil {
		at = *e.Date
	}
	cal := NewMonthPicker(e.cal, at, e.Date, func(d time.Time) {
		if e.popUp != nil {
			e.popUp.Hide()
		}
		day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.Local)
		e.SetDate(&day)
		c.Focus(e)
	})
	cal.OnCancel = func() {
		if e.popUp != nil {
			e.popUp.Hide()
		}
		c.Focus(e)
	}
	e.popUp = widget.NewPopUp(cal, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
	e.popUp.ShowAtPosition(pos.Add(fyne.NewPos(0, e.Size().Height)))
	e.popUp.Resize(fyne.NewSize(max(e.Size().Width, cal.MinSize().Width), cal.MinSize().Height))
	// The keyboard goes into the calendar, on its day, so that arrows, Tab,
	// Enter and Esc work there; it stayed on the button under the pop-up,
	// where Esc did nothing.
	if f := cal.Start(); f != nil {
		c.Focus(f)
	}
}
