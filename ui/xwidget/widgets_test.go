package xwidget

import (
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// Regenerate a golden image after an intended change: run the test, look
// at testdata/failed/<name>.png, and copy it over testdata/<name>.png.

// testCalendar writes days as "Fri 20 Nov 2026" and takes only that; its
// today is Friday 20 November 2026.
type testCalendar struct{}

var today = time.Date(2026, 11, 20, 9, 0, 0, 0, time.Local)

func (testCalendar) Day(t time.Time) string { return t.Format("Mon 2 Jan 2006") }
func (testCalendar) ParseDay(s string) (time.Time, error) {
	d, err := time.ParseInLocation("Mon 2 Jan 2006", s, time.Local)
	if err != nil {
		return time.Time{}, errors.New("not a date")
	}
	return d, nil
}
func (testCalendar) DayExample() string            { return "e.g. Fri 20 Nov 2026" }
func (testCalendar) Month(t time.Time) string      { return t.Format("January 2006") }
func (testCalendar) Weekday(d time.Weekday) string { return d.String()[:2] }
func (testCalendar) Today() time.Time              { return today }
func (testCalendar) TodayLabel() string            { return "Today" }

// The gauge within, near and over its limit, and without one: the words
// go past 100% where the bar stops; the bar takes the colour given, the
// theme's own without one.
func TestGaugeGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	words := func(s float64) string { return fmt.Sprintf("%.0f%% of the NTE", s*100) }
	within, near, over, none := NewGauge(words), NewGauge(words), NewGauge(words), NewGauge(words)
	within.Set("Total $525.00 of the NTE $1,050.00", 0.5, nil)
	near.Set("Total $997.50 of the NTE $1,050.00", 0.95, amber)
	over.Set("Total $1,260.00 of the NTE $1,050.00", 1.2, red)
	none.SetText("NTE: no limit. The customer set no maximum for this work order.")
	w := test.NewTempWindow(t, container.NewPadded(container.NewVBox(within, near, over, none)))
	w.Resize(fyne.NewSize(420, 440))
	test.AssertImageMatches(t, "gauge_levels.png", w.Canvas().Capture())
	if over.Bar.Value != 1 || over.Bar.TextFormatter() != "120% of the NTE" || none.BarShown() || !over.BarShown() {
		t.Errorf("over the limit the bar stands at %v reading %q; without one it is shown: %v",
			over.Bar.Value, over.Bar.TextFormatter(), none.BarShown())
	}
}

// A badge as it is and queued (a clock before its text), and an empty one
// taking no room.
func TestBadgeGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	plain, queued, empty := NewBadge(), NewBadge(), NewBadge()
	plain.Set("Checked in", purple)
	queued.Set("Accepted · queued", blue)
	queued.SetQueued(true)
	empty.Set("", nil)
	w := test.NewTempWindow(t, container.NewPadded(container.NewHBox(plain, queued, empty)))
	w.Resize(fyne.NewSize(320, 50))
	test.AssertImageMatches(t, "badge_states.png", w.Canvas().Capture())
	if queued.Text() != "Accepted · queued" || !queued.Queued() || empty.MinSize().Width > 16 {
		t.Errorf("badge reads %q queued %v; an empty one is %.0f px wide", queued.Text(), queued.Queued(), empty.MinSize().Width)
	}
}

// A tick box ticks and unticks on a tap and says so; SetChecked draws it
// without telling.
func TestTickBoxGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	var told []bool
	off, on := NewTickBox(func(b bool) { told = append(told, b) }), NewTickBox(nil)
	on.SetChecked(true)
	w := test.NewTempWindow(t, container.NewHBox(off, on))
	w.Resize(fyne.NewSize(100, 50))
	test.AssertImageMatches(t, "tickbox_states.png", w.Canvas().Capture())
	test.Tap(off)
	test.Tap(off)
	if !slices.Equal(told, []bool{true, false}) || off.Checked {
		t.Errorf("two taps told %v, leaving it ticked: %v", told, off.Checked)
	}
	if w.Canvas().Focused() != nil {
		t.Error("a tap gave the tick box the keyboard focus")
	}
}

// A date field with its day, and its calendar open under it: today is
// marked (a filled button among flat ones), the field's day is drawn as
// chosen, with the keyboard on it; tapping a day fills the field with it as the calendar writes it.
func TestDateEntryAndMonthPickerGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	e := NewDateEntry(testCalendar{})
	if e.PlaceHolder != "e.g. Fri 20 Nov 2026" {
		t.Errorf("the empty field's example reads %q", e.PlaceHolder)
	}
	w := test.NewTempWindow(t, container.NewVBox(e))
	w.Resize(fyne.NewSize(320, 400))
	chosen := today.AddDate(0, 0, -3)
	e.SetDate(&chosen)
	test.Tap(e.Pick)
	test.AssertImageMatches(t, "date_entry_calendar.png", w.Canvas().Capture())
	var d21 *pickerButton
	walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := o.(*pickerButton); ok && b.Text == "21" {
			d21 = b
		}
	})
	if d21 == nil {
		t.Fatal("the calendar has no 21st")
	}
	test.Tap(d21)
	if e.Text != "Sat 21 Nov 2026" || e.Date == nil || e.Date.Day() != 21 || w.Canvas().Overlays().Top() != nil {
		t.Errorf("picking the 21st fills in %q (%v); calendar still open: %v", e.Text, e.Date, w.Canvas().Overlays().Top() != nil)
	}
	e.SetText("the 31st")
	if e.Date != nil || e.Validate() == nil {
		t.Errorf("a day the calendar cannot read gives %v", e.Date)
	}
}

// The calendar takes the keyboard when it opens, on the field's day; Esc
// closes it with nothing picked and the keyboard back in the field, and
// Enter picks the day the keyboard is on. In the real window Esc did
// nothing and a keyboard user had to pick a day to get out (issue 38's
// second tryout).
func TestTheCalendarAnswersEscAndEnter(t *testing.T) {
	test.NewTempApp(t)
	e := NewDateEntry(testCalendar{})
	w := test.NewTempWindow(t, container.NewVBox(e))
	w.Resize(fyne.NewSize(320, 400))
	c := w.Canvas()
	chosen := today.AddDate(0, 0, -3)
	e.SetDate(&chosen)
	before := e.Text

	test.Tap(e.Pick)
	b, ok := c.Focused().(*pickerButton)
	if !ok || b.Text != strconv.Itoa(chosen.Day()) {
		t.Fatalf("the open calendar's keyboard is on a %T %v, not the field's day", c.Focused(), c.Focused())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil || e.Text != before || c.Focused() != e {
		t.Errorf("after Esc: calendar open %v, field %q (was %q), keyboard in %T", c.Overlays().Top() != nil, e.Text, before, c.Focused())
	}

	test.Tap(e.Pick)
	c.FocusNext() // Tab, as the driver moves it
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	want := chosen.AddDate(0, 0, 1)
	if c.Overlays().Top() != nil || e.Date == nil || !sameLocalDay(*e.Date, want) || c.Focused() != e {
		t.Errorf("Tab and Enter picked %v (%q), want %v; calendar open %v; keyboard in %T", e.Date, e.Text, want, c.Overlays().Top() != nil, c.Focused())
	}
}

// The time picker: nothing is picked until both the hour and the minute
// are; every minute is offered (a back-dated arrival is written to the
// minute), and a time set from elsewhere is offered as it is, never
// rounded, until cleared.
func TestTimePickerGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	p := NewTimePicker()
	w := test.NewTempWindow(t, p)
	w.Resize(fyne.NewSize(220, 50))
	var each []string
	for m := range 60 {
		each = append(each, fmt.Sprintf("%02d", m))
	}
	if _, _, ok := p.Value(); ok {
		t.Fatal("an untouched picker has a time")
	}
	if len(p.Hour.Options) != 24 || strings.Join(p.Minute.Options, " ") != strings.Join(each, " ") {
		t.Fatalf("the picker offers hours %v and minutes %v", p.Hour.Options, p.Minute.Options)
	}
	p.Hour.SetSelected("14")
	if _, _, ok := p.Value(); ok {
		t.Fatal("an hour without a minute is a time")
	}
	p.SetTime(time.Date(2026, 11, 20, 9, 7, 42, 0, time.UTC))
	if h, m, ok := p.Value(); !ok || h != 9 || m != 7 {
		t.Fatalf("setting 09:07:42 reads %02d:%02d (%v)", h, m, ok)
	}
	test.AssertImageMatches(t, "time_picker.png", w.Canvas().Capture())
	p.Clear()
	if _, _, ok := p.Value(); ok {
		t.Fatal("after Clear a time is still picked")
	}
}

// The wheel over a field scrolls the form around it, as it does over the
// gaps between fields; the field itself looks like any entry.
func TestWheelEntryPassesTheWheelGolden(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, test.Theme())
	var form *container.Scroll
	e := NewWheelEntry(func() *container.Scroll { return form })
	e.SetText("INV-2026-0142")
	d := NewDateEntry(testCalendar{})
	d.Form = func() *container.Scroll { return form }
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(10, 600))
	form = container.NewVScroll(container.NewVBox(e, d, tall))
	w := test.NewTempWindow(t, form)
	w.Resize(fyne.NewSize(260, 150))
	test.AssertImageMatches(t, "wheel_entry.png", w.Canvas().Capture())
	for _, f := range []fyne.CanvasObject{e, d} {
		form.ScrollToTop()
		at := fyne.CurrentApp().Driver().AbsolutePositionForObject(f).AddXY(20, f.Size().Height/2)
		test.Scroll(w.Canvas(), at, 0, -60)
		if form.Offset.Y <= 0 {
			t.Errorf("the wheel over %T did not scroll the form", f)
		}
	}
}

// A themed fill follows the theme when refreshed; a tint is the colour at
// the alpha given.
func TestThemedFillFollowsTheTheme(t *testing.T) {
	test.NewTempApp(t)
	test.ApplyTheme(t, theme.LightTheme())
	fill := NewThemedFill(theme.ColorNameHeaderBackground)
	tint := NewThemedTint(theme.ColorNameWarning, 0x24)
	w := test.NewTempWindow(t, container.NewGridWithColumns(2, fill, tint))
	w.Resize(fyne.NewSize(200, 60))
	light := fill.Color()
	test.ApplyTheme(t, theme.DarkTheme())
	fill.Refresh()
	lr, lg, lb, _ := light.RGBA()
	dr, dg, db, _ := fill.Color().RGBA()
	if dr+dg+db >= lr+lg+lb {
		t.Errorf("the fill did not darken with the theme: %v, then %v", light, fill.Color())
	}
	if _, _, _, a := tint.Color().RGBA(); a>>8 != 0x24 {
		t.Errorf("the tint's alpha is %#x", a>>8)
	}
	test.AssertImageMatches(t, "themed_fill_dark.png", w.Canvas().Capture())
}

// walk visits every object under o, through containers and widget renderers.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			walk(ch, visit)
		}
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(c).Objects() {
			walk(ch, visit)
		}
	}
}
