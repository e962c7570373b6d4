package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// Relayout lays c and every container inside it out again, as Fyne's
// Container.Refresh does, without refreshing the widgets in them. A
// container only re-lays out its children when it is refreshed or resized,
// so a row that appeared or wrapped needs this; but Container.Refresh also
// refreshes every widget below it, which re-measures every text and
// re-colours every icon, and a tab bar refreshes the content of every tab:
// the detail's header, grown by a line, redrew the whole work order, and
// such refreshes were some 40% of what opening one cost. Widgets lay
// themselves out when their size changes; what changed in them is theirs
// to refresh.
func Relayout(c *fyne.Container) {
	layoutAll(c)
	canvas.Refresh(c) // once: a refreshed container's whole tree is redrawn
}

func layoutAll(c *fyne.Container) {
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	for _, o := range c.Objects {
		if k, ok := o.(*fyne.Container); ok && k.Visible() {
			layoutAll(k)
		}
	}
}

// ShowIf shows the objects when on holds and hides them otherwise.
func ShowIf(on bool, objs ...fyne.CanvasObject) {
	for _, o := range objs {
		if on {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// SetEnabled enables w when on holds and disables it otherwise.
func SetEnabled(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}
