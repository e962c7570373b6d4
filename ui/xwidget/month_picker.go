package xwidget

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// MonthPicker is the date entry's calendar: a month of day buttons, Monday
// first, with today marked (a filled button among flat ones), the day
// already in the field in the primary colour, and a Today button. Fyne's
// Calendar marks neither, so a person back-dating a visit had to count from
// a day they knew.
type MonthPicker struct {
	widget.BaseWidget
	// OnCancel is called on Esc in the calendar: it closes with no day
	// picked (a keyboard user was kept in it until they picked one).
	OnCancel func()

	cal     Calendar
	month   time.Time // the first of the month shown, local
	chosen  *time.Time
	onPick  func(time.Time)
	title   *widget.Label
	days    *fyne.Container
	content *fyne.Container
	start   fyne.Focusable // the chosen day's button, else today's, else the 1st
}

// pickerButton is one of the calendar's buttons: Enter presses it as Space
// does, Esc closes the calendar.
type pickerButton struct {
	widget.Button
	p *MonthPicker
}

func (p *MonthPicker) button(text string, icon fyne.Resource, tapped func()) *pickerButton {
	b := &pickerButton{p: p}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.Importance = widget.LowImportance
	b.ExtendBaseWidget(b)
	return b
}

func (b *pickerButton) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		if b.p.OnCancel != nil {
			b.p.OnCancel()
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() {
			b.Tapped(nil)
		}
	default:
		b.Button.TypedKey(k)
	}
}

// Start is the button the keyboard starts on once the calendar opens: the
// day in the field, else today, else the month's first day.
func (p *MonthPicker) Start() fyne.Focusable { return p.start }

// NewMonthPicker shows the month of at, chosen (nil: none) marked, and
// calls onPick with the day tapped.
func NewMonthPicker(cal Calendar, at time.Time, chosen *time.Time, onPick func(time.Time)) *MonthPicker {
	p := &MonthPicker{cal: cal, chosen: chosen, onPick: onPick}
	at = at.In(time.Local)
	p.month = time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.Local)
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	prev := p.button("", theme.NavigateBackIcon(), func() { p.show(p.month.AddDate(0, -1, 0)) })
	next := p.button("", theme.NavigateNextIcon(), func() { p.show(p.month.AddDate(0, 1, 0)) })
	today := p.button(cal.TodayLabel(), nil, func() { p.onPick(cal.Today().In(time.Local)) })
	p.days = container.NewGridWithColumns(7)
	p.content = container.NewBorder(container.NewBorder(nil, nil, prev, next, p.title), container.NewHBox(layout.NewSpacer(), today),
		nil, nil, p.days)
	p.show(p.month)
	p.ExtendBaseWidget(p)
	return p
}

func (p *MonthPicker) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(p.content)
}

// show lays out the month of first.
func (p *MonthPicker) show(first time.Time) {
	p.month = first
	p.title.SetText(p.cal.Month(first))
	now := p.cal.Today().In(time.Local)
	var cells []fyne.CanvasObject
	var first1, todays, chosens fyne.Focusable
	for d := time.Monday; d < time.Monday+7; d++ {
		cells = append(cells, widget.NewLabelWithStyle(p.cal.Weekday(d%7), fyne.TextAlignCenter, fyne.TextStyle{Italic: true}))
	}
	for range (int(first.Weekday()) + 6) % 7 { // Monday first
		cells = append(cells, layout.NewSpacer())
	}
	for day := first; day.Month() == first.Month(); day = day.AddDate(0, 0, 1) {
		b := p.button(strconv.Itoa(day.Day()), nil, func() { p.onPick(day) })
		if first1 == nil {
			first1 = b
		}
		if sameLocalDay(day, now) {
			b.Importance = widget.MediumImportance // today: a filled button among flat ones
			todays = b
		}
		if p.chosen != nil && sameLocalDay(day, *p.chosen) {
			b.Importance = widget.HighImportance
			chosens = b
		}
		cells = append(cells, b)
	}
	p.start = first1
	if todays != nil {
		p.start = todays
	}
	if chosens != nil {
		p.start = chosens
	}
	p.days.Objects = cells
	p.days.Refresh()
}

func sameLocalDay(a, b time.Time) bool {
	a, b = a.In(time.Local), b.In(time.Local)
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}
