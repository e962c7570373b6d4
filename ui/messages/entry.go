package messages

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// messageEntry is the message being written: Ctrl+Enter sends it (Enter
// is a new line), and the window's other shortcuts work while typing.
type messageEntry struct {
	widget.Entry
	send   func()
	window func(fyne.Shortcut) bool // the window's shortcuts (Window.Shortcut)
}

func newMessageEntry(send func(), window func(fyne.Shortcut) bool) *messageEntry {
	e := &messageEntry{send: send, window: window}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab is false: Tab moves on to the visibility and Send (Fyne's
// multi-line entry keeps it, and the keyboard is stuck in the box).
func (e *messageEntry) AcceptsTab() bool { return false }

func (e *messageEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier == fyne.KeyModifierShortcutDefault {
		e.send()
		return
	}
	if !e.window(s) {
		e.Entry.TypedShortcut(s)
	}
}
