package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/palette"
)

// Once Tab has given a dialog's button the keyboard, Esc still closes the
// dialog (answering no) and Enter presses the button: Fyne's own buttons
// kept both keys and did nothing.
func TestADialogsButtonsAnswerEnterAndEscOnceTabbedTo(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	press := func(k fyne.KeyName) { c.Focused().(fyne.Focusable).TypedKey(&fyne.KeyEvent{Name: k}) }

	// A dialog with one button: Tab to Close, then Esc; again, then Enter.
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		NewCustom("Getting started", "Close", widget.NewLabel("What the list is…"), w).Show()
		c.FocusNext()
		if b, ok := c.Focused().(*Button); !ok || b.Text != "Close" {
			t.Fatalf("Tab gave the keyboard to %T, not Close", c.Focused())
		}
		press(k)
		if c.Overlays().Top() != nil {
			t.Errorf("%s on the focused Close left the dialog open", k)
		}
	}

	// A question: Esc on either button answers no; Enter on the one that
	// goes ahead answers yes, and only once.
	cases := []struct {
		tabs int
		key  fyne.KeyName
		want []bool
	}{
		{1, fyne.KeyEscape, []bool{false}}, // on Cancel
		{2, fyne.KeyEscape, []bool{false}}, // on Plan anyway
		{2, fyne.KeyReturn, []bool{true}},  // Enter on Plan anyway
		{1, fyne.KeyReturn, []bool{false}}, // Enter on Cancel
	}
	for _, tc := range cases {
		var got []bool
		q := NewConfirm("Plan this visit anyway?", "Kenji Sato already has NWR73201 then.", func(ok bool) { got = append(got, ok) }, w)
		q.SetConfirmText("Plan anyway")
		q.SetDismissText("Cancel")
		q.Show()
		c.Unfocus()
		for range tc.tabs {
			c.FocusNext()
		}
		on := c.Focused()
		press(tc.key)
		on.TypedKey(&fyne.KeyEvent{Name: tc.key}) // pressed again as it goes: no second answer
		if len(got) != len(tc.want) || got[0] != tc.want[0] || c.Overlays().Top() != nil {
			t.Errorf("%d Tab(s), %s: answers %v, open %v; want %v, closed", tc.tabs, tc.key, got, c.Overlays().Top() != nil, tc.want)
		}
	}

	// A dialog that draws its own row of buttons (the export's Cancel and
	// Choose where to save…): Esc on either closes it as its Cancel does,
	// Enter presses the one that has the keyboard.
	for _, tc := range []struct {
		tabs int
		key  fyne.KeyName
		want string
	}{
		{1, fyne.KeyEscape, "cancelled"},
		{2, fyne.KeyEscape, "cancelled"},
		{2, fyne.KeyReturn, "chose"},
		{1, fyne.KeyReturn, "cancelled"},
	} {
		var got []string
		var dlg *dialog.CustomDialog
		cancel := NewButton("Cancel", nil, func() { got = append(got, "cancelled"); dlg.Hide() })
		next := NewButton("Choose where to save…", nil, func() { got = append(got, "chose"); dlg.Hide() })
		dlg = dialog.NewCustomWithoutButtons("Export the list", container.NewVBox(widget.NewLabel("4,210 work orders"), container.NewHBox(cancel, next)), w)
		dlg.Show()
		c.Unfocus()
		for range tc.tabs {
			c.FocusNext()
		}
		press(tc.key)
		if len(got) != 1 || got[0] != tc.want || c.Overlays().Top() != nil {
			t.Errorf("%d Tab(s), %s in a dialog's own row: %v, open %v; want %s, closed", tc.tabs, tc.key, got, c.Overlays().Top() != nil, tc.want)
		}
	}
}

// A dialog with a word-wrapped text opens as tall as Fyne's own with the
// same content: giving it its own buttons must not lay the text out a word
// a line first and open the dialog that tall, with blank space above its
// buttons.
func TestADialogWithItsOwnButtonsOpensAsTallAsFynes(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1000, 800))
	content := func() fyne.CanvasObject {
		note := widget.NewLabel("The service gives a link valid for 15 minutes. It is kept only while this window is open; an expired link is replaced by a new one.")
		note.Wrapping = fyne.TextWrapWord
		return container.NewVBox(widget.NewLabel("Link valid for 15:00"), note)
	}
	// How tall a dialog opens at the width asked.
	opened := func(dlg dialog.Dialog) float32 {
		dlg.Resize(fyne.NewSize(520, 200))
		dlg.Show()
		defer dlg.Hide()
		return dialogChildren(w.Canvas().Overlays().Top())[0].Size().Height // the dialog in its overlay
	}
	want := opened(dialog.NewCustom("Open receipt.pdf", "Close", content(), w))
	for _, tc := range []struct {
		name string
		dlg  dialog.Dialog
	}{
		{"NewCustom", NewCustom("Open receipt.pdf", "Close", content(), w)},
		{"NewCustomConfirm", NewCustomConfirm("Open receipt.pdf", "Open", "Cancel", content(), nil, w)},
	} {
		if got := opened(tc.dlg); got > want+1 {
			t.Errorf("%s opens %.0f px tall; Fyne's own %.0f", tc.name, got, want)
		}
	}
}

// TestTheButtonWithTheKeyboardIsRinged: the dialog button Tab moved to is
// drawn with the focus ring around it, in the ring's colour, and only that
// one: Fyne's tint alone left "Plan anyway" a shade darker blue, hard to
// find (the board's question, issue 38).
func TestTheButtonWithTheKeyboardIsRinged(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	q := NewConfirm("Plan this visit anyway?", "Kenji Sato already has NWR73201 then.", nil, w)
	q.SetConfirmText("Plan anyway")
	q.SetDismissText("Cancel")
	q.Show()
	c.Unfocus()

	// ringAt tells whether the ring's colour is drawn just above b's
	// middle, where the ring's top line runs (the buttons sit side by
	// side, so their sides are not read).
	ringAt := func(b *Button) bool {
		img := c.Capture()
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
		scale := float32(img.Bounds().Dx()) / c.Size().Width
		x := int((pos.X + b.Size().Width/2) * scale)
		wr, wg, wb, _ := palette.FocusRing().RGBA()
		near := func(a, b uint32) bool { return a>>8+24 >= b>>8 && a>>8 <= b>>8+24 }
		for dy := float32(0.5); dy <= ringGap+0.5; dy++ {
			r, g, bl, _ := img.At(x, int((pos.Y-dy)*scale)).RGBA()
			if near(r, wr) && near(g, wg) && near(bl, wb) {
				return true
			}
		}
		return false
	}
	c.FocusNext()
	c.FocusNext()
	plan, ok := c.Focused().(*Button)
	if !ok || plan.Text != "Plan anyway" {
		t.Fatalf("two Tabs gave the keyboard to %v", c.Focused())
	}
	if !ringAt(plan) {
		t.Errorf("Plan anyway has the keyboard but no ring is drawn around it")
	}
	c.FocusPrevious()
	cancel := c.Focused().(*Button)
	if !ringAt(cancel) || ringAt(plan) {
		t.Errorf("with the keyboard on %s the ring is around Cancel %v, Plan anyway %v", cancel.Text, ringAt(cancel), ringAt(plan))
	}
}
