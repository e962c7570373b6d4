package ui

import (
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

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
