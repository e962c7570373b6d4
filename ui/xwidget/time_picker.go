package xwidget

import (
	"fmt"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// TimePicker picks a local time of day from an hour select and a minute
// select, minute by minute: a back-dated arrival is written down to the
// minute ("arrived 14:07"), and a time set from elsewhere (a scheduled
// start the service holds) is offered as it is, never rounded.
type TimePicker struct {
	widget.BaseWidget
	Hour   *widget.Select
	Minute *widget.Select
	box    *fyne.Container
}

// NewTimePicker makes a picker with nothing picked.
func NewTimePicker() *TimePicker {
	p := &TimePicker{}
	var hours []string
	for h := 0; h < 24; h++ {
		hours = append(hours, fmt.Sprintf("%02d", h))
	}
	p.Hour = widget.NewSelect(hours, nil)
	p.Hour.PlaceHolder = "hh"
	p.Minute = widget.NewSelect(minutes(), nil)
	p.Minute.PlaceHolder = "mm"
	p.box = container.NewHBox(p.Hour, widget.NewLabel(":"), p.Minute)
	p.ExtendBaseWidget(p)
	return p
}

func (p *TimePicker) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(p.box) }

func minutes() []string {
	var out []string
	for m := range 60 {
		out = append(out, fmt.Sprintf("%02d", m))
	}
	return out
}

// SetTime selects the hour and minute of t (its wall clock, seconds dropped).
func (p *TimePicker) SetTime(t time.Time) {
	p.Hour.SetSelected(fmt.Sprintf("%02d", t.Hour()))
	p.Minute.SetSelected(fmt.Sprintf("%02d", t.Minute()))
}

// Clear picks nothing.
func (p *TimePicker) Clear() {
	p.Hour.ClearSelected()
	p.Minute.ClearSelected()
}

// Value is the picked hour and minute; ok is false until both are picked.
func (p *TimePicker) Value() (h, m int, ok bool) {
	h, err1 := strconv.Atoi(p.Hour.Selected)
	m, err2 := strconv.Atoi(p.Minute.Selected)
	return h, m, err1 == nil && err2 == nil
}
