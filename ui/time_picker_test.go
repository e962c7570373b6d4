package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestTimePicker: nothing is picked until both the hour and the minute are;
// the minutes come one by one (a back-dated arrival is written to the
// minute), and a time set from elsewhere is offered as it is, never
// rounded, until cleared.
func TestTimePicker(t *testing.T) {
	test.NewTempApp(t)
	p := newTimePicker()
	test.NewTempWindow(t, p.content())
	var each []string
	for m := range 60 {
		each = append(each, fmt.Sprintf("%02d", m))
	}
	steps := strings.Join(each, " ")

	if _, _, ok := p.value(); ok {
		t.Fatal("an untouched picker has a time")
	}
	if len(p.hour.Options) != 24 || strings.Join(p.minute.Options, " ") != steps {
		t.Fatalf("the picker offers hours %v and minutes %v", p.hour.Options, p.minute.Options)
	}
	p.hour.SetSelected("14")
	if _, _, ok := p.value(); ok {
		t.Fatal("an hour without a minute is a time")
	}
	p.minute.SetSelected("35")
	if h, m, ok := p.value(); !ok || h != 14 || m != 35 {
		t.Fatalf("picking 14 and 35 reads %02d:%02d (%v)", h, m, ok)
	}

	p.setTime(time.Date(2026, 11, 20, 9, 7, 42, 0, time.UTC))
	if h, m, ok := p.value(); !ok || h != 9 || m != 7 {
		t.Fatalf("setting 09:07:42 reads %02d:%02d (%v)", h, m, ok)
	}
	if !slices.Contains(p.minute.Options, "07") || !slices.IsSorted(p.minute.Options) {
		t.Fatalf("09:07 is not offered in order among the minutes %v", p.minute.Options)
	}

	p.clear()
	if _, _, ok := p.value(); ok || strings.Join(p.minute.Options, " ") != steps {
		t.Fatalf("after clear: a time is picked (%v), minutes %v", ok, p.minute.Options)
	}
}
