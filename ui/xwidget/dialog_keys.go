package xwidget

import (
	"reflect"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Fyne's dialogs take no keys: Enter and Esc reach the window's canvas
// (no widget has the focus in a dialog just opened) or the focused entry,
// and both drop them. AnswerDialogKeys and DialogEntry make every dialog
// of a window answer them, whichever package built the dialog.

// DismissLabels are the buttons that close a dialog without acting, in the
// words Fyne's and this app's dialogs use for them, the likeliest first.
var DismissLabels = []string{"Cancel", "Close", "No", "OK", "Decide later"}

// AnswerDialogKeys makes the dialogs of the window drawn on c answer Esc
// (as their Cancel, Close, No or OK button) and Enter (as their default
// button). Every window of the app calls it once.
func AnswerDialogKeys(c fyne.Canvas) {
	c.SetOnTypedKey(func(e *fyne.KeyEvent) {
		switch e.Name {
		case fyne.KeyEscape:
			DismissTop(c)
		case fyne.KeyReturn, fyne.KeyEnter:
			ConfirmTop(c)
		}
	})
}

// DismissTop closes the topmost dialog as its Cancel (Close, No, OK)
// button does, so its callbacks run as on a tap: a file's link is let go,
// a confirmation answers no. It reports whether there was one to close.
func DismissTop(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	for _, label := range DismissLabels {
		if b := ButtonLabelled(top, label); b != nil && b.OnTapped != nil && !b.Disabled() {
			b.OnTapped()
			return true
		}
	}
	return false
}

// ConfirmTop does what the topmost dialog offers, as a tap on its
// confirming button would (the one drawn as the default: Fyne gives it
// high importance, "Reject", "Save", "Yes"); a dialog with only a Close or
// OK closes. A confirming button still disabled (a reason not yet given)
// does nothing. It reports whether there was a dialog.
func ConfirmTop(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	var primary *widget.Button
	WalkButtons(top, func(b *widget.Button) {
		if primary == nil && b.Importance == widget.HighImportance && b.OnTapped != nil {
			primary = b
		}
	})
	if primary != nil {
		if !primary.Disabled() {
			primary.OnTapped()
		}
		return true
	}
	return DismissTop(c)
}

// WalkButtons visits every visible button of a dialog, in order.
func WalkButtons(o fyne.CanvasObject, visit func(*widget.Button)) {
	if o == nil || !o.Visible() {
		return
	}
	if b, ok := o.(*widget.Button); ok {
		visit(b)
		return
	}
	for _, ch := range dialogChildren(o) {
		WalkButtons(ch, visit)
	}
}

// ButtonLabelled finds a visible button reading label in a dialog.
func ButtonLabelled(o fyne.CanvasObject, label string) *widget.Button {
	var found *widget.Button
	WalkButtons(o, func(b *widget.Button) {
		if found == nil && b.Text == label {
			found = b
		}
	})
	return found
}

// dialogChildren are the parts of a dialog's object looked into. A dialog
// is built of containers, pop-ups and splits whose parts are public; the
// overlay around a pop-up is internal to Fyne, so its exported Content is
// read by reflection.
func dialogChildren(o fyne.CanvasObject) []fyne.CanvasObject {
	switch x := o.(type) {
	case *fyne.Container:
		return x.Objects
	case *widget.PopUp:
		return []fyne.CanvasObject{x.Content}
	}
	v := reflect.ValueOf(o)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("Content"); f.IsValid() && f.CanInterface() {
			if c, ok := f.Interface().(fyne.CanvasObject); ok {
				return []fyne.CanvasObject{c}
			}
		}
	}
	return nil
}

// DialogEntry is an Entry for a dialog that passes Esc on to close it and
// Enter (in a single line) to confirm it: Fyne's entries keep every key
// they are given, so while a field has the focus the dialog would
// otherwise not hear them. In a text of several lines Enter is a new line
// and Ctrl+Enter confirms. Tab moves on, in a text of several lines too.
type DialogEntry struct {
	widget.Entry
}

// NewDialogEntry is a single-line DialogEntry.
func NewDialogEntry() *DialogEntry {
	e := &DialogEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// NewDialogPasswordEntry hides what is typed, with Fyne's button to show it.
func NewDialogPasswordEntry() *DialogEntry {
	e := &DialogEntry{}
	e.Password = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// NewDialogMultiLineEntry is a DialogEntry of several word-wrapped lines.
func NewDialogMultiLineEntry() *DialogEntry {
	e := &DialogEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

func (e *DialogEntry) TypedKey(k *fyne.KeyEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	switch k.Name {
	case fyne.KeyEscape:
		if c != nil && DismissTop(c) {
			return
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if !e.MultiLine && c != nil && ConfirmTop(c) {
			return
		}
	}
	e.Entry.TypedKey(k)
}

// AcceptsTab is false: Tab moves on to the next field or button (Fyne's
// multi-line entry keeps it, and the keyboard is stuck there).
func (e *DialogEntry) AcceptsTab() bool { return false }

// TypedShortcut confirms the dialog on Ctrl+Enter, in a text of several
// lines too.
func (e *DialogEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && slices.Contains([]fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter}, cs.KeyName) && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil && ConfirmTop(c) {
			return
		}
	}
	e.Entry.TypedShortcut(s)
}
