package ui

import (
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
)

// TestJobSheetOpens: Job sheet… atop the work order's Summary, then Open,
// hands the system's viewer a PDF of that work order with its steps.
func TestJobSheetOpens(t *testing.T) {
	var opened *url.URL
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(u *url.URL) error { opened = u; return nil }
	}})
	r := h.create(sandbox.WorkOrderSpec{Status: api.StatusAccepted, Currency: "EUR", Procedure: sandbox.ProcedureEditable})
	h.open(r.Id)
	test.Tap(buttonIn(t, h.win.Content(), "Job sheet…"))
	if got := h.overlayText(); !strings.Contains(got, "job sheet for "+strings.ToLower(r.Number)) {
		t.Fatalf("the dialog says %q", got)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Open"))
	h.flush()
	if opened == nil || opened.Scheme != "file" {
		t.Fatalf("the viewer was handed %v", opened)
	}
	t.Cleanup(func() { os.Remove(opened.Path) })
	if got := h.overlayText(); !strings.Contains(got, "opened "+strings.ToLower(r.Number)+" job sheet.pdf") {
		t.Errorf("the dialog says %q", got)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	out, err := exec.Command("pdftotext", opened.Path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	wo, err := h.store.WorkOrder(t.Context(), r.Id)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{r.Number}
	for _, p := range wo.Procedures() {
		for _, s := range p.Steps {
			want = append(want, s.Label)
		}
	}
	if len(want) < 3 {
		t.Fatal("the work order has no steps: the test would test nothing")
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the sheet lacks %q", w)
		}
	}
}

// TestJobSheetPrintsTheNoteOnlyWhenTicked: the internal note's access
// details print on the job sheet when the person ticks it, and not
// otherwise; the sheet names who is assigned as the window does, and is
// on the paper chosen.
func TestJobSheetPrintsTheNoteOnlyWhenTicked(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	var opened []*url.URL
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(u *url.URL) error { opened = append(opened, u); return nil }
	}})
	r := h.create(sandbox.WorkOrderSpec{Status: api.StatusAccepted, Currency: "USD", Procedure: sandbox.ProcedureEditable})
	const note = "Gate code 4471; the key safe is left of the loading dock."
	if _, err := h.store.SetNote(t.Context(), r.Id, note, ""); err != nil {
		t.Fatal(err)
	}
	who, err := h.store.AssigneesOf(t.Context(), []int64{r.Id})
	if err != nil {
		t.Fatal(err)
	}
	h.open(r.Id)
	sheet := func(tick bool, paper string) (text, info string) {
		t.Helper()
		test.Tap(buttonIn(t, h.win.Content(), "Job sheet…"))
		top := h.win.Canvas().Overlays().Top()
		checkIn(t, top, "Print the internal note (access details, gate codes)").SetChecked(tick)
		radioIn(t, top).SetSelected(paper)
		test.Tap(buttonIn(t, top, "Open"))
		h.flush()
		if len(opened) == 0 {
			t.Fatal("nothing was opened")
		}
		path := opened[len(opened)-1].Path
		t.Cleanup(func() { os.Remove(path) })
		out, err := exec.Command("pdftotext", path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		pi, _ := exec.Command("pdfinfo", path).Output()
		test.Tap(buttonIn(t, top, "Close"))
		return strings.Join(strings.Fields(string(out)), " "), string(pi)
	}
	text, info := sheet(true, "Letter")
	if !strings.Contains(text, note) || !strings.Contains(text, "ACCESS DETAILS (INTERNAL NOTE)") {
		t.Errorf("ticked, the sheet lacks the note:\n%s", text)
	}
	if !strings.Contains(info, "(letter)") {
		t.Errorf("Letter chosen, pdfinfo says:\n%s", info)
	}
	wantTech := "Technician: not assigned yet"
	if a := who[r.Id]; len(a.Who) > 0 {
		wantTech = "Technician: " + a.Who[0].Name
	} else if !a.Known {
		wantTech = ""
	}
	if !strings.Contains(text, wantTech) {
		t.Errorf("the sheet does not say %q:\n%s", wantTech, text)
	}
	text, info = sheet(false, "A4")
	if strings.Contains(text, "Gate code") || strings.Contains(text, "ACCESS DETAILS") {
		t.Errorf("not ticked, the sheet prints the note:\n%s", text)
	}
	if !strings.Contains(info, "(A4)") {
		t.Errorf("A4 chosen, pdfinfo says:\n%s", info)
	}
}

// radioIn finds the first radio group in o.
func radioIn(t *testing.T, o fyne.CanvasObject) *widget.RadioGroup {
	t.Helper()
	var found *widget.RadioGroup
	walk(o, func(c fyne.CanvasObject) {
		if x, ok := c.(*widget.RadioGroup); ok && found == nil {
			found = x
		}
	})
	if found == nil {
		t.Fatal("no radio group")
	}
	return found
}

// TestAJobSheetNoProgramOpensSaysWhereItIs: with no PDF viewer (no
// xdg-open), Open says where the sheet is and to use Save as…, in one
// sentence with one closing mark: the tryout's read "or use Save as….".
func TestAJobSheetNoProgramOpensSaysWhereItIs(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(*url.URL) error { return errors.New("xdg-open, which opens links in a browser, is not installed") }
	}})
	r := h.create(sandbox.WorkOrderSpec{Status: api.StatusAccepted, Currency: "EUR"})
	h.open(r.Id)
	test.Tap(buttonIn(t, h.win.Content(), "Job sheet…"))
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Open"))
	h.flush()
	var said string
	walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "The job sheet could not be opened") {
			said = l.Text
		}
	})
	t.Cleanup(func() { os.RemoveAll(filepath.Join(os.TempDir(), "workdesk-job-sheets", r.Number+" job sheet.pdf")) })
	if !strings.Contains(said, "workdesk-job-sheets") || !strings.HasSuffix(said, "or use Save as…") {
		t.Errorf("the dialog says %q", said)
	}
}
