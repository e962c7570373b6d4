package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// Help › Getting started: what a coordinator's day is made of, in the
// window's own words, for the first day without a colleague beside them.
// The demo opens it once, on its first start.

// guideShownKey remembers that the guide opened on the demo's first start.
const guideShownKey = "help.guideShown"

// guideText is the guide, in Markdown (Fyne's RichText draws it).
func (d *Desk) guideText() string {
	s := `**The list** on the left is every work order the customer sent you, the most urgent deadline first. Search with ` + shortcutLabel("F") + `; a click, or Up, Down and Enter, opens one on the right.

**Accept** a new work order (the Accept button, or ` + shortcutLabel("Shift+A") + `), or reject it with a reason. Tick several rows to accept, reject or assign them together.

**Assign and plan**: View › Dispatch board shows each technician's week. Drag a work order onto a technician and a time, or select it and press ` + shortcutLabel("P") + `. The day sheet (File › Day sheet…) hands the technician their day.

**Visit**: on the Visit tab, check in when the technician is on site and check out when they leave, back-dated if it happened earlier. The Procedures tab holds the steps the customer wants done.

**Invoice**: when the work is done, the Invoice tab builds the invoice from the customer's price list. View › Receivables follows what was billed and paid.

Everything you do is saved here first and sent on; the status bar says whether all is sent.`
	if d.deps.Demo {
		s += `

**This is a demo**: the work orders come from a made-up customer on this computer. The Customer menu plays that customer: approve a quote, pay an invoice, send a new work order.`
	}
	return s + `

Help › Keyboard shortcuts lists every key.`
}

// showGettingStarted opens the guide.
func (d *Desk) showGettingStarted() {
	text := widget.NewRichTextFromMarkdown(d.guideText())
	text.Wrapping = fyne.TextWrapWord
	s := fitScroll(text, d.win, 560)
	dlg := dialogs.NewCustom("Getting started", "Close", s, d.win)
	dlg.Show()
	d.win.Canvas().Focus(s) // the keys scroll what the window cannot hold
}

// firstStartGuide opens the guide on the demo's first start, once.
func (d *Desk) firstStartGuide() {
	prefs := d.app.Preferences()
	if !d.deps.Demo || prefs.Bool(guideShownKey) {
		return
	}
	prefs.SetBool(guideShownKey, true)
	d.showGettingStarted()
}

// fitScroll shows content whole in a dialog of width wide (or the
// window's, if narrower), scrolling only what the window cannot hold: a
// scroll on its own is as small as one line.
func fitScroll(content fyne.CanvasObject, w fyne.Window, width float32) *dialogs.Scroll {
	win := w.Canvas().Size()
	if win.Width > 0 {
		width = min(width, win.Width-80)
	}
	// A word-wrapped text knows its height once it has its width.
	content.Resize(fyne.NewSize(width, content.MinSize().Height))
	h := content.MinSize().Height
	if win.Height > 0 {
		h = min(h, win.Height-160) // the dialog's title, button and margins
	}
	s := dialogs.NewVScroll(content)
	s.SetMinSize(fyne.NewSize(width, h))
	return s
}
