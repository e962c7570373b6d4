package dialogs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestTheFilePickerOpensWhereTheLastFileCameFrom: after a file is picked
// from a folder, the next picker opens there; a folder since removed is
// passed over for the one picked from before it, and five are kept.
func TestTheFilePickerOpensWhereTheLastFileCameFrom(t *testing.T) {
	test.NewTempApp(t)
	if lastFolder() != nil {
		t.Fatal("a fresh app remembers a folder")
	}
	root := t.TempDir()
	var dirs []string
	for _, name := range []string{"receipts", "photos", "tickets", "a", "b", "c"} {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
		rememberFolder(fynestorage.NewFileURI(filepath.Join(dir, "scan.pdf")))
	}
	if got := lastFolder(); got == nil || filepath.Clean(got.Path()) != dirs[5] {
		t.Fatalf("the picker opens at %v, want %s", got, dirs[5])
	}
	os.Remove(dirs[5])
	if got := lastFolder(); got == nil || filepath.Clean(got.Path()) != dirs[4] {
		t.Errorf("with the last folder gone the picker opens at %v, want %s", got, dirs[4])
	}
	if n := len(fyne.CurrentApp().Preferences().StringList(recentFoldersKey)); n != recentFolders {
		t.Errorf("%d folders are kept", n)
	}
}

// texts is every label and button text under o.
func texts(o fyne.CanvasObject) []string {
	var out []string
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Button:
			out = append(out, w.Text)
		}
		switch c := o.(type) {
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch)
			}
		}
	}
	walk(o)
	return out
}

// An error reads as a sentence (its first letter capitalised), and Esc in
// a dialog's field answers it as its Cancel button does.
func TestEscAnswersNoAndAnErrorReadsAsASentence(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))

	Error(errors.New("the invoice number is required"), w)
	if got := strings.Join(texts(w.Canvas().Overlays().Top()), "\n"); !strings.Contains(got, "The invoice number is required") {
		t.Errorf("the error dialog reads %q", got)
	}
	if !DismissTop(w.Canvas()) || w.Canvas().Overlays().Top() != nil {
		t.Fatal("the error dialog did not close as its OK does")
	}

	answer := "none"
	e := NewEntry()
	dialog.NewCustomConfirm("Reject this work order", "Reject", "Cancel", e, func(ok bool) {
		answer = map[bool]string{true: "yes", false: "no"}[ok]
	}, w).Show()
	w.Canvas().Focus(e)
	test.Type(e, "x")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if answer != "no" || w.Canvas().Overlays().Top() != nil {
		t.Errorf("Esc in the field answered %q; the dialog is open: %v", answer, w.Canvas().Overlays().Top() != nil)
	}
}
