package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// Who acts: the service's records (the internal note's "Last changed by")
// name the person from what the desktop says. Without a hub that was the
// computer's account, "root" on a shared office machine; the person now
// gives their name once (File › Your name…, or asked at the first save of
// a note), and it is kept in the preferences. In office mode the hub
// names them and nothing is asked.

const (
	personNameKey  = "person.name"
	personAskedKey = "person.asked" // asked once, answered or not
)

// usePersonName hands the saved name to the connection.
func (d *Desk) usePersonName() {
	if d.deps.SetPerformedBy == nil {
		return
	}
	if name := strings.TrimSpace(d.app.Preferences().String(personNameKey)); name != "" {
		d.deps.SetPerformedBy(name)
	}
}

// withPersonName runs then once the person was asked for their name, if
// they never were: a write whose record names them (the internal note)
// asks first. A dialog closed without a name does not stop the write.
func (d *Desk) withPersonName(then func()) {
	prefs := d.app.Preferences()
	if d.deps.SetPerformedBy == nil || prefs.Bool(personAskedKey) || strings.TrimSpace(prefs.String(personNameKey)) != "" {
		then()
		return
	}
	d.askPersonName(then)
}

// askPersonName asks for the person's name and keeps it; then (may be nil)
// runs after, whatever the answer.
func (d *Desk) askPersonName(then func()) {
	prefs := d.app.Preferences()
	prefs.SetBool(personAskedKey, true)
	name := dialogs.NewEntry()
	name.SetPlaceHolder("e.g. Ana Ruiz")
	name.SetText(prefs.String(personNameKey))
	// Not "the customer's records": asked as a note is saved, under "It is
	// never shown to the customer", that read as if the note were.
	say := widget.NewLabel("The work order's records name who changed what, such as the internal note's \"Last changed by\". Which name should they show for you?")
	say.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(widget.NewFormItem("Your name", name))
	form.Items[0].HintText = "Kept on this computer; File › Your name… changes it."
	dlg := dialogs.NewCustomConfirm("Your name", "Save", "Cancel", container.NewVBox(say, form), func(ok bool) {
		if n := strings.TrimSpace(name.Text); ok && n != "" {
			prefs.SetString(personNameKey, n)
			d.deps.SetPerformedBy(n)
		}
		if then != nil {
			then()
		}
	}, d.win)
	for range 2 { // a word-wrapped text knows its height once it has its width
		dlg.Resize(fyne.NewSize(min(480, d.win.Canvas().Size().Width-40), 0))
	}
	dlg.Show()
	d.win.Canvas().Focus(name)
}
