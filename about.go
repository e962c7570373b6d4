package main

import (
	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// addHelpMenu appends About to the window's Help menu (a Help menu of
// its own when the window has none); it says which version is running,
// which is the first thing support asks.
func addHelpMenu(w fyne.Window) {
	about := fyne.NewMenuItem("About Work Order Desk", func() {
		dialogs.Info("About Work Order Desk", aboutText(), w)
	})
	menu := w.MainMenu()
	if menu == nil {
		menu = fyne.NewMainMenu()
	}
	for _, m := range menu.Items {
		if m.Label == "Help" {
			m.Items = append(m.Items, fyne.NewMenuItemSeparator(), about)
			w.SetMainMenu(menu)
			return
		}
	}
	menu.Items = append(menu.Items, fyne.NewMenu("Help", about))
	w.SetMainMenu(menu)
}

func aboutText() string {
	return "Work Order Desk " + appVersion + "\n\n" +
		"Work orders, quotes, visits and invoices for contractors.\n" +
		"https://github.com/workorderdesk/workdesk"
}
