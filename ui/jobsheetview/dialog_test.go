package jobsheetview

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
	"github.com/workorderdesk/workdesk/ui/printing"
)

// TestOpenHandsTheViewerThePDF: Open writes the work order's sheet, a
// PDF named after its number, and hands it to the system's viewer; the
// dialog says where to print it. The internal note is read only when
// its box is ticked.
func TestOpenHandsTheViewerThePDF(t *testing.T) {
	f := newFake(t)
	wo := f.wo()
	f.d.Show(wo)
	if got := viewtest.Texts(f.dialog()); !strings.Contains(got, "Job sheet for "+wo.WorkOrderNumber) || !strings.Contains(got, "Save as…") {
		t.Fatalf("the dialog says %q", got)
	}
	for _, tick := range []bool{false, true} {
		check := checkIn(t, f.dialog())
		check.SetChecked(tick)
		before := f.reads.notes
		f.tap("Open")
		if len(f.opened) == 0 {
			t.Fatal("nothing was opened")
		}
		u := f.opened[len(f.opened)-1]
		t.Cleanup(func() { os.Remove(u.Path) })
		if u.Scheme != "file" || filepath.Base(u.Path) != wo.WorkOrderNumber+" job sheet.pdf" {
			t.Errorf("the viewer was handed %v", u)
		}
		pdf, err := os.ReadFile(filepath.FromSlash(u.Path))
		if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("the file opened is no PDF (%d bytes, %v)", len(pdf), err)
		}
		if read := f.reads.notes > before; read != tick {
			t.Errorf("ticked %v, the internal note was read: %v", tick, read)
		}
		if got := viewtest.Texts(f.dialog()); !strings.Contains(got, "Opened "+wo.WorkOrderNumber+" job sheet.pdf in your PDF viewer: print it from there.") {
			t.Errorf("the dialog says %q", got)
		}
	}
	f.tap("Close")
	if top := f.Win.Canvas().Overlays().Top(); top != nil {
		t.Errorf("Close left %q", viewtest.Texts(top))
	}
}

// TestNoViewerSaysWhereTheSheetIs: with no program to open it, the dialog
// says where the sheet is and to use Save as…, in one sentence.
func TestNoViewerSaysWhereTheSheetIs(t *testing.T) {
	f := newFake(t)
	f.openErr = errors.New("xdg-open, which opens links in a browser, is not installed")
	wo := f.wo()
	f.d.Show(wo)
	f.tap("Open")
	t.Cleanup(func() { os.RemoveAll(filepath.Join(os.TempDir(), "workdesk-job-sheets", jobSheetName(wo))) })
	var said string
	viewtest.Walk(f.dialog(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "The job sheet could not be opened: ") {
			said = l.Text
		}
	})
	if !strings.Contains(said, filepath.Join(os.TempDir(), "workdesk-job-sheets", jobSheetName(wo))) || !strings.HasSuffix(said, "or use Save as…") {
		t.Errorf("the dialog says %q", said)
	}
}

// TestTheSheetIsOnThePaperChosen: the paper picked in the dialog is the
// one kept for the next sheet.
func TestTheSheetIsOnThePaperChosen(t *testing.T) {
	f := newFake(t)
	f.d.Show(f.wo())
	var paper *widget.RadioGroup
	viewtest.Walk(f.dialog(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RadioGroup); ok {
			paper = r
		}
	})
	if paper == nil || len(paper.Options) != 2 {
		t.Fatalf("the paper choice is %+v", paper)
	}
	for _, p := range paper.Options {
		paper.SetSelected(p)
		if got := printing.Paper(f.prefs); (p == "Letter") != (got == pdftext.Letter) {
			t.Errorf("%s chosen, %s kept", p, got)
		}
	}
}

// A work order number that holds what a file name may not still names a
// file: each such character becomes a dash.
func TestJobSheetNameIsAFileName(t *testing.T) {
	for number, want := range map[string]string{
		"WO-100001":     "WO-100001 job sheet.pdf",
		`NW/12:3*?"<>|`: "NW-12-3------ job sheet.pdf",
		`a\b`:           "a-b job sheet.pdf",
	} {
		if got := jobSheetName(&api.WorkOrder{WorkOrderNumber: number}); got != want {
			t.Errorf("%q: %q, want %q", number, got, want)
		}
	}
}

// checkIn is the dialog's tick box.
func checkIn(t *testing.T, o fyne.CanvasObject) *dialogs.Check {
	t.Helper()
	var found *dialogs.Check
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if x, ok := c.(*dialogs.Check); ok && found == nil {
			found = x
		}
	})
	if found == nil {
		t.Fatal("no tick box")
	}
	return found
}
