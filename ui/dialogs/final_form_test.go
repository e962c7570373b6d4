package dialogs

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// The form of a final act (a reason to reject) goes ahead only on its
// own button, once its field is valid: Enter and Ctrl+Enter in the field,
// and Enter with nothing focused, leave it open with what was typed; Esc
// gives up.
func TestAFinalFormGoesAheadOnlyOnItsButton(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	var answers []bool
	ask := func() *Entry {
		reason := NewMultiLineEntry()
		reason.Validator = func(s string) error {
			if s == "" {
				return errors.New("a reason is required")
			}
			return nil
		}
		FinalForm("Reject this work order", "Reject", []*widget.FormItem{widget.NewFormItem("Reason", reason)},
			func(ok bool) { answers = append(answers, ok) }, w).Show()
		c.Focus(reason)
		return reason
	}
	reason := ask()
	act := buttonLabelled(c.Overlays().Top(), "Reject")
	if act == nil || !act.Disabled() {
		t.Fatal("the act's button is missing or enabled before the reason is given")
	}
	test.Type(reason, "No technician free this week")
	if act.Disabled() {
		t.Fatal("the act's button stays disabled once the reason is valid")
	}
	reason.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	reason.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault})
	c.Unfocus()
	ConfirmTop(c)
	if len(answers) != 0 || c.Overlays().Top() == nil || reason.Text == "" {
		t.Fatalf("Enter answered %v, open %v, reason %q: want no answer, open, the reason kept", answers, c.Overlays().Top() != nil, reason.Text)
	}
	DismissTop(c)
	if len(answers) != 1 || answers[0] || c.Overlays().Top() != nil {
		t.Fatalf("Esc answered %v, open %v; want one no, closed", answers, c.Overlays().Top() != nil)
	}
	answers = nil
	reason = ask()
	test.Type(reason, "Outside our area")
	test.Tap(buttonLabelled(c.Overlays().Top(), "Reject"))
	if len(answers) != 1 || !answers[0] || c.Overlays().Top() != nil {
		t.Errorf("tapping Reject answered %v, open %v", answers, c.Overlays().Top() != nil)
	}
}

// FinalOr's Cancel reads what not going ahead keeps, and Esc and Enter
// answer it as they answer Cancel.
func TestAFinalQuestionsCancelMaySayWhatItKeeps(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	var answers []bool
	for _, key := range []func(){func() { DismissTop(c) }, func() { ConfirmTop(c) }} {
		FinalOr("Replace what you typed?", "Replace it?", "Replace", "Keep what I typed", true, func(ok bool) { answers = append(answers, ok) }, w)
		if buttonLabelled(c.Overlays().Top(), "Keep what I typed") == nil {
			t.Fatal("no Keep what I typed button")
		}
		c.Unfocus()
		key()
	}
	if len(answers) != 2 || answers[0] || answers[1] || c.Overlays().Top() != nil {
		t.Errorf("Esc and Enter answered %v, open %v; want two noes, closed", answers, c.Overlays().Top() != nil)
	}
}
