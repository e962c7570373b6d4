package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Check is a tick box in a dialog: with the keyboard on it, Enter confirms
// the dialog and Esc dismisses it, as in an Entry. Fyne's Check keeps
// every key it is given, so a dialog whose tick box had the keyboard
// ignored Enter and Esc (the Assign dialog, after ticking with Space).
type Check struct {
	widget.Check
}

// NewCheck is a tick box reading label, calling changed when ticked or not.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

func (c *Check) TypedKey(k *fyne.KeyEvent) {
	if canvas := fyne.CurrentApp().Driver().CanvasForObject(c); canvas != nil {
		switch k.Name {
		case fyne.KeyEscape:
			if DismissTop(canvas) {
				return
			}
		case fyne.KeyReturn, fyne.KeyEnter:
			if ConfirmTop(canvas) {
				return
			}
		}
	}
	c.Check.TypedKey(k)
}
