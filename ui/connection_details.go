package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// The status bar's technical side: where the app connects, until when its
// token holds, where notifications arrive. A click on the mode (or View ›
// Connection details) shows them, for whoever sets the connection up.

// tapLabel is a label that does something when clicked.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel(text string, onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Text = text
	l.ExtendBaseWidget(l)
	return l
}

func (l *tapLabel) Tapped(*fyne.PointEvent) {
	if l.onTap != nil {
		l.onTap()
	}
}

// showConnectionDetails lists the connection's facts as the status bar
// last read them.
func (d *Desk) showConnectionDetails() {
	s := d.status
	s.refresh()
	from := "The customer's work order service"
	switch {
	case d.deps.Demo:
		from = "A made-up customer on this computer (the demo's built-in sandbox)"
	case d.deps.Office:
		from = "The office hub, which speaks to the customer's service for everyone"
	}
	value := func(text string) *widget.Label {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	items := []*widget.FormItem{
		widget.NewFormItem("Work orders from", value(from)),
		widget.NewFormItem("Address", value(d.deps.Service)),
	}
	if !d.deps.Office {
		items = append(items,
			widget.NewFormItem("Sign-in", value(s.token.Text)),
			widget.NewFormItem("Notifications", value(s.receiver.Text)))
	} else {
		items = append(items, widget.NewFormItem("Colleagues' updates", value(s.receiver.Text)))
	}
	items = append(items,
		widget.NewFormItem("Outbox", value(s.outbox.Text)),
		widget.NewFormItem("Sync", value(s.sync.Text)))
	form := widget.NewForm(items...)
	dlg := dialog.NewCustom("Connection details", "Close", form, d.win)
	dlg.Resize(fyne.NewSize(min(560, d.win.Canvas().Size().Width-40), 0))
	dlg.Show()
}
