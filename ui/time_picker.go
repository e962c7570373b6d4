package ui

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// timePicker picks a local time of day from an hour select and a minute
// select in minuteStep steps. A time set from elsewhere whose minute falls
// between the steps (a scheduled start the service holds) is offered
// exactly as well, never rounded.
type timePicker struct {
	hour   *widget.Select
	minute *widget.Select
	box    *fyne.Container
}

// minuteStep is the picker's minute granularity: to the minute, as a
// back-dated arrival is written down ("arrived 14:07").
const minuteStep = 1

func newTimePicker() *timePicker {
	p := &timePicker{}
	var hours []string
	for h := 0; h < 24; h++ {
		hours = append(hours, fmt.Sprintf("%02d", h))
	}
	p.hour = widget.NewSelect(hours, nil)
	p.hour.PlaceHolder = "hh"
	p.minute = widget.NewSelect(stepMinutes(), nil)
	p.minute.PlaceHolder = "mm"
	p.box = container.NewHBox(p.hour, widget.NewLabel(":"), p.minute)
	return p
}

func stepMinutes() []string {
	var out []string
	for m := 0; m < 60; m += minuteStep {
		out = append(out, fmt.Sprintf("%02d", m))
	}
	return out
}

// content is the two selects side by side.
func (p *timePicker) content() fyne.CanvasObject { return p.box }

// setTime selects the hour and minute of t (its wall clock, seconds dropped).
func (p *timePicker) setTime(t time.Time) { p.set(t.Hour(), t.Minute()) }

func (p *timePicker) set(h, m int) {
	opts := stepMinutes()
	mm := fmt.Sprintf("%02d", m)
	if !slices.Contains(opts, mm) {
		opts = append(opts, mm)
		slices.Sort(opts)
	}
	p.minute.Options = opts
	p.hour.SetSelected(fmt.Sprintf("%02d", h))
	p.minute.SetSelected(mm)
}

func (p *timePicker) clear() {
	p.minute.Options = stepMinutes()
	p.hour.ClearSelected()
	p.minute.ClearSelected()
}

// value is the picked hour and minute; ok is false until both are picked.
func (p *timePicker) value() (h, m int, ok bool) {
	h, err1 := strconv.Atoi(p.hour.Selected)
	m, err2 := strconv.Atoi(p.minute.Selected)
	return h, m, err1 == nil && err2 == nil
}
