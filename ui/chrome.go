package ui

import (
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/demo"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/settings"
)

func (d *Desk) toolbar() fyne.CanvasObject {
	return widget.NewToolbar(
		widget.NewToolbarAction(theme.ViewRefreshIcon(), func() { d.syncNow(nil) }),
		widget.NewToolbarAction(theme.SearchIcon(), d.focusSearch),
		widget.NewToolbarSeparator(),
		widget.NewToolbarAction(theme.HelpIcon(), d.showShortcuts),
	)
}

func (d *Desk) mainMenu() *fyne.MainMenu {
	live := fyne.NewMenuItem("Live connection…", d.settings.ShowLive)
	file := fyne.NewMenu("File", d.keyItem("Sync now"), d.keyItem("Save"), live,
		fyne.NewMenuItem("Check the connection…", d.showContractCheck),
		fyne.NewMenuItemSeparator(),
		d.keyItem("Export list…"),
		fyne.NewMenuItem("Day sheet…", func() { d.showDaySheet(d.win, 0, format.Now(), 1) }))
	if d.deps.SetPerformedBy != nil {
		file.Items = append(file.Items, fyne.NewMenuItem("Your name…", func() { d.askPersonName(nil) }))
	}
	if d.deps.ConnectOffice != nil {
		file.Items = append(file.Items, fyne.NewMenuItem("Connect to office hub…", d.settings.ShowOffice))
	}
	if d.deps.SwitchMode != nil {
		if d.deps.Demo {
			file.Items = append(file.Items, fyne.NewMenuItem("Switch to Live", func() {
				if !settings.LoadLive(d.app.Preferences()).Configured() {
					d.settings.ShowLive()
					return
				}
				d.deps.SwitchMode(true)
			}))
		} else {
			file.Items = append(file.Items, fyne.NewMenuItem("Switch to Demo", func() { d.deps.SwitchMode(false) }))
		}
	}
	if d.deps.Demo && d.deps.ResetDemo != nil {
		file.Items = append(file.Items, fyne.NewMenuItem("Reset demo…", func() { demo.ConfirmReset(d.win, d.deps.ResetDemo) }))
	}
	// Fyne adds a Quit item when a menu has none; this one saves the
	// layout before the app ends.
	quit := fyne.NewMenuItem("Quit", d.quit)
	quit.IsQuit = true
	file.Items = append(file.Items, fyne.NewMenuItemSeparator(), quit)
	view := fyne.NewMenu("View",
		d.keyItem("Find…"),
		d.keyItem("Move to the list"),
		d.tabsMenu(),
		fyne.NewMenuItemSeparator(),
		d.keyItem("Dispatch board"),
		fyne.NewMenuItem("Receivables", d.showReceivables),
		d.appearanceMenu(),
		fyne.NewMenuItem("Connection details", d.status.ShowDetails),
		d.keyItem("Keyboard shortcuts"),
	)
	work := fyne.NewMenu("Work order", d.keyItem("Accept"), d.keyItem("Reject…"),
		fyne.NewMenuItemSeparator(), d.keyItem("Check in"), d.keyItem("Check out"))
	help := fyne.NewMenu("Help",
		fyne.NewMenuItem("Getting started", d.showGettingStarted),
		d.keyItem("Keyboard shortcuts"))
	menus := []*fyne.Menu{file, view, work}
	if d.deps.Customer != nil {
		menus = append(menus, demo.Menu(d.deps.Customer, host{d}))
	}
	return fyne.NewMainMenu(append(menus, help)...)
}

// appearanceMenu is View › Appearance: follow the system's light or dark
// setting (the default), or always light, or always dark.
func (d *Desk) appearanceMenu() *fyne.MenuItem {
	item := fyne.NewMenuItem("Appearance", nil)
	item.ChildMenu = fyne.NewMenu("")
	for _, c := range []struct{ label, appearance string }{
		{"Follow the system", appearanceSystem}, {"Light", appearanceLight}, {"Dark", appearanceDark},
	} {
		choice := fyne.NewMenuItem(c.label, nil)
		choice.Action = func() {
			prefs := d.app.Preferences()
			prefs.SetString("view.appearance", c.appearance)
			prefs.SetBool("view.dark", false) // the old switch no longer decides
			d.app.Settings().SetTheme(newTheme(c.appearance, d.deps.SystemThemeSilent))
			for _, it := range item.ChildMenu.Items {
				it.Checked = it == choice
			}
			item.ChildMenu.Refresh()
		}
		choice.Checked = c.appearance == loadAppearance(d.app.Preferences())
		item.ChildMenu.Items = append(item.ChildMenu.Items, choice)
	}
	return item
}

// onMac: the shortcuts are Cmd ones there. Fyne's KeyModifierShortcutDefault,
// which they are registered with, is Super on macOS and Control elsewhere.
var onMac = runtime.GOOS == "darwin"

// shortcutLabel writes the shortcut of key as the keyboard says it:
// "Ctrl+F", or "Cmd+F" on a Mac.
func shortcutLabel(key string) string {
	if onMac {
		return "Cmd+" + key
	}
	return "Ctrl+" + key
}

func (d *Desk) focusSearch() { d.win.Canvas().Focus(d.list.Search()) }

// showShortcuts lists every key, the whole table at once (in a scroll
// only where the window is too low for it).
func (d *Desk) showShortcuts() {
	form := widget.NewForm(d.keysHelp()...)
	s := fitScroll(form, d.win, form.MinSize().Width)
	dialogs.ShowCustom("Keyboard shortcuts", "Close", s, d.win)
	d.win.Canvas().Focus(s) // Up, Down, Page Down read what the window cannot hold
}
