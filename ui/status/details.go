package status

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// The status bar's technical side: where the app connects, until when its
// token holds, where notifications arrive. A click on the mode (or View ›
// Connection details) shows them, for whoever sets the connection up.

// tapArea does something when what it holds is clicked (the status bar's
// mode, a label: widgets that read it still find a label).
type tapArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func()
}

func newTapArea(content fyne.CanvasObject, onTap func()) *tapArea {
	a := &tapArea{content: content, onTap: onTap}
	a.ExtendBaseWidget(a)
	return a
}

func (a *tapArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.content) }

func (a *tapArea) Tapped(*fyne.PointEvent) {
	if a.onTap != nil {
		a.onTap()
	}
}

// ShowDetails lists the connection's facts as the status bar last read
// them.
func (s *Bar) ShowDetails() {
	s.Refresh()
	from := "The customer's work order service"
	switch {
	case s.conn.Demo:
		from = "A made-up customer on this computer (the demo's built-in sandbox)"
	case s.conn.Office:
		from = "The office hub, which speaks to the customer's service for everyone"
	}
	value := func(text string) *widget.Label {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	items := []*widget.FormItem{
		widget.NewFormItem("Work orders from", value(from)),
		widget.NewFormItem("Address", value(s.conn.Service)),
	}
	if !s.conn.Office {
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
	dlg := dialogs.NewCustom("Connection details", "Close", form, s.win.Window())
	dlg.Resize(fyne.NewSize(min(560, s.win.Window().Canvas().Size().Width-40), 0))
	dlg.Show()
}
