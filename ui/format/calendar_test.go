package format

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// The date widgets with this package's Calendar: what the window's date
// fields show and take.

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

// calendarButtons is the day buttons (and Today) of the calendar open in w.
func calendarButtons(t *testing.T, w fyne.Window) map[string]*widget.Button {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("the calendar button opened no calendar")
	}
	days := map[string]*widget.Button{}
	walk(top, func(o fyne.CanvasObject) {
		if b := asButton(o); b != nil && b.Text != "" {
			days[b.Text] = b
		}
	})
	return days
}

// asButton is o as a button: a *widget.Button, or the calendar's own
// button built on one (it answers Enter and Esc), reached by reflection.
func asButton(o fyne.CanvasObject) *widget.Button {
	if b, ok := o.(*widget.Button); ok {
		return b
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if f := v.Elem().FieldByName("Button"); f.IsValid() && f.Type() == reflect.TypeOf(widget.Button{}) {
		return f.Addr().Interface().(*widget.Button)
	}
	return nil
}

// TestTheDateEntryTakesTheDayAsTheWindowWritesIt: a date field shows its
// day as the window writes days, takes it typed that way (with or without
// the weekday, the month short or long, or as 2026-11-20), says in plain
// words what it cannot read, and the calendar fills it in the same way.
func TestTheDateEntryTakesTheDayAsTheWindowWritesIt(t *testing.T) {
	test.NewTempApp(t)
	e := xwidget.NewDateEntry(Calendar{})
	w := test.NewTempWindow(t, e)
	w.Resize(fyne.NewSize(400, 300))

	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	e.SetDate(&day)
	if e.Text != "Fri 20 Nov 2026" {
		t.Errorf("the field shows %q, want Fri 20 Nov 2026", e.Text)
	}
	if !strings.Contains(e.PlaceHolder, "Fri 20 Nov 2026") {
		t.Errorf("the empty field's example reads %q", e.PlaceHolder)
	}
	for _, typed := range []string{"20 Nov 2026", "Fri 20 Nov 2026", "20 November 2026", "friday 20 november 2026", "2026-11-20", " 20  Nov, 2026 "} {
		var told *time.Time
		e.OnChanged = func(d *time.Time) { told = d }
		e.SetText(typed)
		if e.Date == nil || !e.Date.Equal(day) || told == nil || !told.Equal(day) {
			t.Errorf("typing %q gives the day %v (told %v), want 20 Nov 2026", typed, e.Date, told)
		}
		if err := e.Validator(typed); err != nil {
			t.Errorf("typing %q is refused: %v", typed, err)
		}
	}
	e.SetText("20/11/2026")
	if e.Date != nil {
		t.Errorf("20/11/2026 (day or month first?) was read as %v", e.Date)
	}
	if err := e.Validator("20/11/2026"); err == nil || strings.Contains(err.Error(), "parsing") || !strings.Contains(err.Error(), "20 Nov 2026") {
		t.Errorf("a day it cannot read is explained as %v", err)
	}

	test.Tap(e.Pick)
	test.Tap(calendarButtons(t, w)["21"])
	if e.Text != "Sat 21 Nov 2026" || e.Date == nil || e.Date.Day() != 21 {
		t.Errorf("picking the 21st fills in %q (%v)", e.Text, e.Date)
	}
}

// TestDateEntrySaysWhatIsWrongInPlainWords: an empty date is not an error,
// a picked one is valid, and a typed one that cannot be read says so in
// words, never with Go's parse error.
func TestDateEntrySaysWhatIsWrongInPlainWords(t *testing.T) {
	test.NewTempApp(t)
	d := xwidget.NewDateEntry(Calendar{})
	test.NewTempWindow(t, d)

	if err := d.Validate(); err != nil {
		t.Fatalf("an untouched date entry says %v", err)
	}
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.Local)
	d.SetDate(&day)
	if err := d.Validate(); err != nil || d.Text == "" {
		t.Fatalf("a picked date reads %q and says %v", d.Text, err)
	}
	d.SetText("")
	test.Type(d, "the 31st")
	err := d.Validate()
	if err == nil || !strings.HasPrefix(err.Error(), "not a date: write it as ") || !strings.HasSuffix(err.Error(), "or pick it with the calendar button") || strings.Contains(err.Error(), "parsing time") {
		t.Fatalf("a date typed as words says %v", err)
	}
}

// TestTheDatePickerMarksToday: the calendar of a date field shows today
// apart from the other days, the day in the field as chosen, and picking
// a day fills the field with it.
func TestTheDatePickerMarksToday(t *testing.T) {
	test.NewTempApp(t)
	d := xwidget.NewDateEntry(Calendar{})
	w := test.NewTempWindow(t, d)
	w.Resize(fyne.NewSize(400, 400))
	chosen := fixedNow.AddDate(0, 0, -3)
	d.SetDate(&chosen)
	test.Tap(d.Pick)
	days := calendarButtons(t, w) // Fri 20 Nov 2026 is today
	if days["20"] == nil || days["20"].Importance != widget.MediumImportance {
		t.Errorf("today, the 20th, is not marked: %+v", days["20"])
	}
	if days["17"] == nil || days["17"].Importance != widget.HighImportance {
		t.Errorf("the chosen 17th is not drawn as chosen")
	}
	if days["18"] == nil || days["18"].Importance != widget.LowImportance {
		t.Errorf("another day looks marked")
	}
	test.Tap(days["Today"])
	if d.Date == nil || Day(*d.Date) != Day(fixedNow) {
		t.Errorf("Today filled the field with %v", d.Date)
	}
}
