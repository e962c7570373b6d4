package dialogs

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/palette"
)

// A dialog's buttons answer the keys a person presses on them once Tab
// gave them the keyboard. Fyne's own dialog buttons answer only Space: a
// focused widget keeps every key, so Esc did not close the dialog nor
// Enter press the button (issue 38: every dialog answers Enter and Esc).

// Button is a dialog's button: Enter and Space press it, Esc closes
// the dialog as its Cancel or Close would. It is ringed while it has the
// keyboard: Fyne only tints a focused button, which on the blue default
// one ("Plan anyway") was a shade darker, and the window's own ring is
// drawn under its dialogs.
type Button struct {
	widget.Button
	esc     func()
	focused bool
}

func newKeyButton(text string, icon fyne.Resource, tapped, esc func()) *Button {
	b := &Button{esc: esc}
	b.Text, b.Icon, b.OnTapped = text, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// NewButton is a button that a dialog draws in its own content (a row of
// choices, a form's Connect): Enter and Space press it, and Esc closes the
// dialog on top as its Cancel, Close or "Decide later" would (DismissTop).
func NewButton(text string, icon fyne.Resource, tapped func()) *Button {
	var b *Button
	b = newKeyButton(text, icon, tapped, func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
			DismissTop(c)
		}
	})
	return b
}

func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
}

func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

// Ringed tells whether the button shows the focus ring now.
func (b *Button) Ringed() bool { return b.focused }

func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = ringWidth
	ring.CornerRadius = theme.InputRadiusSize() + ringGap
	ring.Hide()
	return &ringRenderer{WidgetRenderer: b.Button.CreateRenderer(), b: b, ring: ring}
}

// ringGap is how far outside the button the ring runs, ringWidth its line
// (as the window's ring).
const (
	ringGap   = 3
	ringWidth = 3
)

// ringRenderer is the button's own renderer with the ring drawn around it
// while the button has the keyboard.
type ringRenderer struct {
	fyne.WidgetRenderer
	b    *Button
	ring *canvas.Rectangle
}

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.ring.Move(fyne.NewPos(-ringGap, -ringGap))
	r.ring.Resize(size.AddWidthHeight(2*ringGap, 2*ringGap))
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	return append(slices.Clip(r.WidgetRenderer.Objects()), r.ring)
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.ring.StrokeColor = palette.FocusRing()
	r.ring.Hidden = !r.b.focused
	r.ring.Refresh()
}

func (b *Button) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		b.esc()
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() {
			b.Tapped(nil)
		}
	default:
		b.Button.TypedKey(k)
	}
}

// NewCustom is dialog.NewCustom whose button (dismiss: "Close", "OK")
// answers Enter and Esc when it has the keyboard.
func NewCustom(title, dismiss string, content fyne.CanvasObject, w fyne.Window) *dialog.CustomDialog {
	return withButtons(title, content, w, func(dlg *dialog.CustomDialog) []fyne.CanvasObject {
		return []fyne.CanvasObject{newKeyButton(dismiss, nil, dlg.Hide, dlg.Hide)}
	})
}

// withButtons is a dialog showing content above the buttons made for it.
// Fyne's SetButtons lays the dialog out at once at its narrowest, where a
// word-wrapped label in content would take a line a word and the dialog
// would open that tall; so content joins only once the buttons are set,
// and is first laid out at the dialog's own width.
func withButtons(title string, content fyne.CanvasObject, w fyne.Window, buttons func(*dialog.CustomDialog) []fyne.CanvasObject) *dialog.CustomDialog {
	holder := container.NewStack()
	dlg := dialog.NewCustomWithoutButtons(title, holder, w)
	dlg.SetButtons(buttons(dlg))
	holder.Objects = []fyne.CanvasObject{content}
	return dlg
}

// ShowCustom shows NewCustom's dialog.
func ShowCustom(title, dismiss string, content fyne.CanvasObject, w fyne.Window) {
	NewCustom(title, dismiss, content, w).Show()
}

// Confirm is a question with two answers, dialog.NewCustomConfirm's, whose
// buttons answer Enter and Esc when they have the keyboard; its callback
// hears one answer, whichever comes first.
type Confirm struct {
	*dialog.CustomDialog
	yes, no *Button
}

// NewCustomConfirm asks content, answered by confirm (drawn as the
// default) or dismiss.
func NewCustomConfirm(title, confirm, dismiss string, content fyne.CanvasObject, callback func(bool), w fyne.Window) *Confirm {
	var yes, no *Button
	dlg := withButtons(title, content, w, func(dlg *dialog.CustomDialog) []fyne.CanvasObject {
		answered := false
		answer := func(ok bool) {
			if answered {
				return
			}
			answered = true
			dlg.Hide()
			if callback != nil {
				callback(ok)
			}
		}
		no = newKeyButton(dismiss, theme.CancelIcon(), func() { answer(false) }, func() { answer(false) })
		yes = newKeyButton(confirm, theme.ConfirmIcon(), func() { answer(true) }, func() { answer(false) })
		yes.Importance = widget.HighImportance
		return []fyne.CanvasObject{no, yes}
	})
	return &Confirm{CustomDialog: dlg, yes: yes, no: no}
}

// SetConfirmText names the answer that goes ahead ("Plan anyway").
func (c *Confirm) SetConfirmText(s string) { c.yes.SetText(s) }

// SetDismissText names the answer that does not.
func (c *Confirm) SetDismissText(s string) { c.no.SetText(s) }
