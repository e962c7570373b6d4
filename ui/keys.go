package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/messages"
	"github.com/workorderdesk/workdesk/ui/visit"
)

// The keyboard path: every detail tab, the actions a coordinator takes all
// day, and the list, each a shortcut; the table below is what the window
// registers and what View › Keyboard shortcuts lists, so the two never
// disagree.

// deskKey is one shortcut of the window: key with the platform's shortcut
// modifier (Ctrl, Cmd on a Mac), and Shift when shift is set.
type deskKey struct {
	key   fyne.KeyName
	shift bool
	what  string
	// item is its menu item's label ("" for none: Ctrl+Enter, which a
	// dialog's text takes to confirm, and a menu's shortcut would run
	// first).
	item string
	run  func(d *Desk)
}

// act runs k unless something is open over the window (a dialog, a menu,
// a drop-down): the menus take shortcuts before the dialog does, and a
// shortcut must never act behind a question not yet answered (Ctrl+S
// behind "Your name", Ctrl+Shift+A behind the reject dialog).
func (k deskKey) act(d *Desk) {
	if d.win.Canvas().Overlays().Top() != nil {
		return
	}
	k.run(d)
}

// keyLabel writes k as the keyboard says it: "Ctrl+Shift+A".
func (k deskKey) label() string {
	name := string(k.key)
	switch k.key {
	case fyne.KeyReturn:
		name = "Enter"
	}
	if k.shift {
		name = "Shift+" + name
	}
	return shortcutLabel(name)
}

func (k deskKey) shortcut() *desktop.CustomShortcut {
	mod := fyne.KeyModifierShortcutDefault
	if k.shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: k.key, Modifier: mod}
}

// tabKeys are Ctrl+1 … Ctrl+9, one per detail tab in their order.
var tabKeys = []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4, fyne.Key5, fyne.Key6, fyne.Key7, fyne.Key8, fyne.Key9}

// deskKeys is every shortcut of the window, in the order the help lists them.
func (d *Desk) deskKeys() []deskKey {
	keys := []deskKey{
		{key: fyne.KeyF, item: "Find…", what: "Find a work order (number, customer, site, description)", run: (*Desk).focusSearch},
		{key: fyne.KeyL, item: "Move to the list", what: "Move to the list", run: func(d *Desk) { d.win.Canvas().Focus(d.list.Table()) }},
		{key: fyne.KeyR, item: "Sync now", what: "Sync with the service now", run: func(d *Desk) { d.syncNow(nil) }},
		// Fyne's menus take no keys: without these a person on the
		// keyboard could not plan a visit nor find this list.
		{key: fyne.KeyD, item: "Dispatch board", what: "Open the dispatch board (" + shortcutLabel("W") + " closes it)", run: (*Desk).showBoard},
		{key: fyne.KeySlash, item: "Keyboard shortcuts", what: "List the keyboard shortcuts", run: (*Desk).showShortcuts},
		{key: fyne.KeyS, item: "Save", what: "Save the invoice draft, the internal note or the step (on its tab)", run: func(d *Desk) { saveShown(d.detail.selectedTab(), d.info) }},
		{key: fyne.KeyE, item: "Export list…", what: "Export the list as it is filtered (spreadsheet or CSV)", run: (*Desk).showExportList},
	}
	for i, t := range d.detail.tabs {
		if i >= len(tabKeys) {
			break
		}
		title := t.Title()
		keys = append(keys, deskKey{key: tabKeys[i], item: title, what: "Show the " + title + " tab", run: func(d *Desk) {
			if d.detail.showTab(title) {
				d.focusTab()
			}
		}})
	}
	return append(keys,
		deskKey{key: fyne.KeyA, shift: true, item: "Accept", what: "Accept the open work order", run: func(d *Desk) {
			d.press(d.detail.accept, "", api.Accept)
		}},
		deskKey{key: fyne.KeyR, shift: true, item: "Reject…", what: "Reject the open work order…", run: func(d *Desk) {
			d.press(d.detail.reject, "", api.Reject)
		}},
		deskKey{key: fyne.KeyI, shift: true, item: "Check in", what: "Check in (on the Visit tab, as it is filled in)", run: func(d *Desk) {
			d.press(d.visitTab().CheckInButton(), "Visit", api.CheckIn)
		}},
		deskKey{key: fyne.KeyO, shift: true, item: "Check out", what: "Check out (on the Visit tab, as it is filled in)", run: func(d *Desk) {
			d.press(d.visitTab().CheckOutButton(), "Visit", api.CheckOut)
		}},
		deskKey{key: fyne.KeyReturn, what: "Send the message being written (Messages tab)", run: func(d *Desk) {
			d.messagesTab().Press()
		}},
	)
}

// saver is a tab whose form is kept with a Save button: the invoice's
// draft, the internal note, a procedure's step.
type saver interface{ SaveButton() *widget.Button }

// saveShown presses the shown tab's Save (Ctrl+S), as a tap would: nothing
// when there is nothing new to save; on a tab with no Save, says where
// there is one.
func saveShown(shown tab, info func(title, msg string)) {
	s, ok := shown.(saver)
	if !ok {
		info("Nothing to save here", "Save ("+shortcutLabel("S")+") keeps the invoice draft on the Invoice tab, the internal note on its tab and a step on the Procedures tab. On the other tabs an action goes as you take it.")
		return
	}
	if b := s.SaveButton(); !b.Disabled() && b.Visible() && b.OnTapped != nil {
		b.OnTapped()
	}
}

// keyItem is the menu item of the shortcut whose item is label, showing
// its keys: the menus teach the shortcuts.
func (d *Desk) keyItem(label string) *fyne.MenuItem {
	for _, k := range d.deskKeys() {
		if k.item == label {
			it := fyne.NewMenuItem(label, func() { k.act(d) })
			it.Shortcut = k.shortcut()
			return it
		}
	}
	panic("no shortcut for menu item " + label)
}

// tabsMenu is View › Tab: each detail tab with its Ctrl+1 … Ctrl+9.
func (d *Desk) tabsMenu() *fyne.MenuItem {
	item := fyne.NewMenuItem("Tab", nil)
	item.ChildMenu = fyne.NewMenu("")
	for i, t := range d.detail.tabs {
		if i < len(tabKeys) {
			item.ChildMenu.Items = append(item.ChildMenu.Items, d.keyItem(t.Title()))
		}
	}
	return item
}

// press does what tapping b does, on the tab it is on: if the open work
// order's rules refuse the action, the person is told why instead (a key
// press on a greyed-out button would otherwise do nothing, silently).
func (d *Desk) press(b *widget.Button, tab string, a api.Action) {
	wo := d.detail.wo
	if wo == nil {
		d.info("No work order open", "Open a work order first: the shortcut acts on the one shown on the right.")
		return
	}
	if tab != "" {
		d.detail.showTab(tab)
	}
	if err := wo.Can(a); err != nil {
		d.showError(err)
		return
	}
	if b.Disabled() || !b.Visible() || b.OnTapped == nil {
		return // being queued already, or waiting for what the form needs
	}
	b.OnTapped()
}

func (d *Desk) visitTab() *visit.Tab {
	for _, t := range d.detail.tabs {
		if v, ok := t.(*visit.Tab); ok {
			return v
		}
	}
	return nil
}

func (d *Desk) messagesTab() *messages.Tab {
	for _, t := range d.detail.tabs {
		if m, ok := t.(*messages.Tab); ok {
			return m
		}
	}
	return nil
}

// addShortcuts registers deskKeys on the window's canvas (Enter and Esc
// for the dialogs come with the window: newWindow).
func (d *Desk) addShortcuts() {
	c := d.win.Canvas()
	for _, k := range d.deskKeys() {
		c.AddShortcut(k.shortcut(), func(fyne.Shortcut) { k.act(d) })
	}
}

// typedShortcut runs the window's shortcut s, if it is one, for an entry
// that has the keyboard: Fyne gives every shortcut to the focused entry,
// which drops those it has no use for, so Ctrl+1 … Ctrl+9 and the actions
// would not work while the person types. It reports whether s was one.
func (d *Desk) typedShortcut(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok {
		return false
	}
	for _, k := range d.deskKeys() {
		if k.shortcut().ShortcutName() == cs.ShortcutName() {
			k.act(d)
			return true
		}
	}
	return false
}

// keysHelp is the shortcut help's table: every deskKey, and the keys that
// are not shortcuts.
func (d *Desk) keysHelp() []*widget.FormItem {
	var items []*widget.FormItem
	for _, k := range d.deskKeys() {
		items = append(items, widget.NewFormItem(k.label(), widget.NewLabel(k.what)))
	}
	return append(items,
		widget.NewFormItem("Up, Down", widget.NewLabel("Move through the list")),
		widget.NewFormItem("Space", widget.NewLabel("Tick or untick the highlighted row (to accept or reject several)")),
		widget.NewFormItem("Enter", widget.NewLabel("Open the highlighted work order; in a dialog, do what it offers")),
		widget.NewFormItem("Esc", widget.NewLabel("Clear the search (in the search box); in a dialog, cancel it")),
		widget.NewFormItem("Tab", widget.NewLabel("Move to the next field or button")),
		// Fyne's menu bar opens when Alt is pressed and let go alone (on
		// Windows and Linux; a Mac's menus are the system's): every item
		// without a shortcut, Receivables or Getting started, is reached so.
		widget.NewFormItem("Alt", widget.NewLabel("Open the menus; then the arrows move, Enter chooses, Esc closes")),
	)
}
