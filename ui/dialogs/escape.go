package dialogs

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// dismissLabels are the buttons that close a dialog without acting, in the
// words Fyne's and this app's dialogs use for them.
var dismissLabels = []string{"Cancel", "Close", "No", "OK", "Decide later"}

// AnswerKeys makes the dialogs of the window drawn on c answer Esc (as
// their Cancel, Close, No or OK button) and Enter (as their default
// button) while no widget has the keyboard, as in a dialog just opened:
// Fyne's dialogs take no keys. Every window of the app calls it once
// (NewWindow).
func AnswerKeys(c fyne.Canvas) {
	c.SetOnTypedKey(func(e *fyne.KeyEvent) {
		switch e.Name {
		case fyne.KeyEscape:
			DismissTop(c)
		case fyne.KeyReturn, fyne.KeyEnter:
			ConfirmTop(c)
		}
	})
}

// NewWindow opens a window of the app whose dialogs answer Enter and Esc:
// every window of the app is opened through it.
func NewWindow(a fyne.App, title string) fyne.Window {
	w := a.NewWindow(title)
	AnswerKeys(w.Canvas())
	return w
}

// DismissTop closes the topmost dialog as its Cancel (Close, No, OK)
// button does, so its callbacks run as on a tap: a file's link is let go,
// a confirmation answers no. It reports whether there was one to close.
func DismissTop(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	var final *finalCancel // a final question's Cancel, whatever it reads ("Keep what I typed")
	walkDialog(top, func(*widget.Button) {}, func(c *finalCancel) { final = c })
	if final != nil && final.OnTapped != nil && !final.Disabled() {
		final.OnTapped()
		return true
	}
	for _, label := range dismissLabels {
		if b := buttonLabelled(top, label); b != nil && b.OnTapped != nil && !b.Disabled() {
			b.OnTapped()
			return true
		}
	}
	return false
}

// ConfirmTop does what the topmost dialog offers, as a tap on its
// confirming button would (the one drawn as the default: Fyne gives it high
// importance, "Reject", "Save", "Yes"); a dialog with only a Close or OK
// closes, and so does a question about something final (Final): Enter
// never does what cannot be undone. The form of a final act (FinalForm)
// stays as it is, with what was typed in it. A confirming button still
// disabled (a reason not yet given) does nothing. It reports whether there
// was a dialog.
func ConfirmTop(c fyne.Canvas) bool {
	top := c.Overlays().Top()
	if top == nil {
		return false
	}
	var primary *widget.Button
	var final *finalCancel
	walkDialog(top, func(b *widget.Button) {
		if primary == nil && b.Importance == widget.HighImportance && b.OnTapped != nil {
			primary = b
		}
	}, func(c *finalCancel) { final = c })
	if final != nil && final.keepsTyped {
		return true // a final act's form: Enter neither acts nor drops what was typed
	}
	if primary != nil && final == nil {
		if !primary.Disabled() {
			primary.OnTapped()
		}
		return true
	}
	return DismissTop(c)
}

// walkDialog visits every visible button of a dialog, in order, and calls
// final if it is a question about something final (its Cancel is a
// finalCancel).
func walkDialog(o fyne.CanvasObject, visit func(*widget.Button), final func(*finalCancel)) {
	if o == nil || !o.Visible() {
		return
	}
	for _, ch := range dialogChildren(o) {
		if b, ok := ch.(*widget.Button); ok && b.Visible() {
			visit(b)
			continue
		}
		if b, ok := ch.(*finalCancel); ok && b.Visible() {
			final(b)
			visit(&b.Button)
			continue
		}
		if b, ok := ch.(*Button); ok && b.Visible() {
			visit(&b.Button)
			continue
		}
		walkDialog(ch, visit, final)
	}
}

// dialogChildren are the parts of a dialog's object that buttonLabelled
// looks into.
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

// buttonLabelled finds a visible button reading label in a dialog. A dialog
// is built of containers, pop-ups and splits whose parts are public; the
// overlay around a pop-up is internal to Fyne, so its exported Content is
// read by reflection.
func buttonLabelled(o fyne.CanvasObject, label string) *widget.Button {
	if o == nil || !o.Visible() {
		return nil
	}
	var children []fyne.CanvasObject
	switch x := o.(type) {
	case *widget.Button:
		if x.Text == label {
			return x
		}
		return nil
	case *finalCancel:
		if x.Text == label {
			return &x.Button
		}
		return nil
	case *Button:
		if x.Text == label {
			return &x.Button
		}
		return nil
	case *fyne.Container:
		children = x.Objects
	case *widget.PopUp:
		children = []fyne.CanvasObject{x.Content}
	default:
		v := reflect.ValueOf(o)
		if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
			if f := v.Elem().FieldByName("Content"); f.IsValid() && f.CanInterface() {
				if c, ok := f.Interface().(fyne.CanvasObject); ok {
					children = []fyne.CanvasObject{c}
				}
			}
		}
	}
	for _, ch := range children {
		if b := buttonLabelled(ch, label); b != nil {
			return b
		}
	}
	return nil
}

// Entry is a widget.Entry for a dialog that passes Esc on to close it: Fyne's
// entries keep every key they are given, so while a field has the focus
// Esc would otherwise do nothing.
type Entry struct {
	widget.Entry
}

// NewEntry is a one-line Entry.
func NewEntry() *Entry {
	e := &Entry{}
	e.ExtendBaseWidget(e)
	return e
}

// NewPasswordEntry hides what is typed, with Fyne's button to show it.
func NewPasswordEntry() *Entry {
	e := &Entry{}
	e.Password = true
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

// NewMultiLineEntry takes a text of several lines.
func NewMultiLineEntry() *Entry {
	e := &Entry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	switch k.Name {
	case fyne.KeyEscape:
		if c != nil && DismissTop(c) {
			return
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		// A line of its own confirms the dialog; a text of several lines
		// takes Enter as a new line (Ctrl+Enter confirms: TypedShortcut).
		if !e.MultiLine && c != nil && ConfirmTop(c) {
			return
		}
	}
	e.Entry.TypedKey(k)
}

// AcceptsTab is false: Tab moves on to the next field or button, in a text
// of several lines too (Fyne's keeps it, and the keyboard is stuck there).
func (e *Entry) AcceptsTab() bool { return false }

// TypedShortcut confirms the dialog on Ctrl+Enter, in a text of several
// lines too.
func (e *Entry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil && ConfirmTop(c) {
			return
		}
	}
	e.Entry.TypedShortcut(s)
}
