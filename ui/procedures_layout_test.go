package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// capture writes the window to $WORKDESK_SHOTS/name.png when that is set,
// to look at what a test asserts.
func (h *harness) capture(name string) {
	dir := os.Getenv("WORKDESK_SHOTS")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	png.Encode(f, h.win.Canvas().Capture())
}

// cutOff reports whether a label shows less than its whole text: it is
// narrower than the same text needs untruncated.
func cutOff(l *widget.Label) bool {
	whole := widget.NewLabelWithStyle(l.Text, l.Alignment, l.TextStyle)
	return l.Size().Width+0.5 < whole.MinSize().Width
}

// At the default window size, with the detail pane as wide as it opens,
// the Procedures tab shows step names, the step's description and its
// files' names whole, the description clear of the buttons under it.
func TestTheProceduresTabIsReadableAtTheDefaultSize(t *testing.T) {
	h := newHarness(t)
	p, ref := openStep(h, func(*api.WorkOrder, api.Procedure) bool { return true })
	h.settle()
	h.capture("procedures-step")
	if w := h.desk.detail.scroller.Size().Width; w > 600 {
		t.Fatalf("the detail pane is %.0f px wide, wider than it opens; the test proves nothing", w)
	}

	var steps []*widget.Label
	walk(p.tree(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, ". ") {
			steps = append(steps, l)
		}
	})
	if len(steps) == 0 {
		t.Fatal("the tree shows no steps")
	}
	for _, l := range steps {
		if cutOff(l) {
			t.Errorf("the step %q is cut off: %.0f px shown", l.Text, l.Size().Width)
		}
	}

	// The description sits above the buttons, not under them.
	wo := h.desk.detail.wo
	var step api.Step
	for _, pr := range wo.Procedures() {
		for _, s := range pr.Steps {
			if pr.Id == ref.ProcedureId && s.Id == ref.StepId {
				step = s
			}
		}
	}
	if step.Description != "" && step.Description != step.Label && !p.shows(step.Description) {
		t.Errorf("the step's description %q is not shown:\n%s", step.Description, p.says())
	}
	// A long description, as customers write them, wraps and pushes the
	// buttons down when the step is chosen (no window resize in between:
	// the desktop does not lay the pane out again by itself).
	long := "Record supply and return air temperatures at the unit and at the farthest diffuser, with the outside temperature and the time of each reading."
	// The tab shows the open work order itself: a step of it changed in
	// place is what the tab shows once chosen.
	var pr *api.Procedure
	for i := range wo.Procedures() {
		if wo.Procedures()[i].Id == ref.ProcedureId {
			pr = &wo.Procedures()[i]
		}
	}
	o := 0
	if pr.Steps[o].Id == ref.StepId {
		o = len(pr.Steps) - 1
	}
	pr.Steps[o].Description = long
	other := ref
	other.StepId = pr.Steps[o].Id
	p.choose(other)
	var info *widget.Label
	walk(p.tab.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Text == long {
			info = l
		}
	})
	if info == nil {
		t.Fatalf("the chosen step does not show its description:\n%s", p.says())
	}
	at, _ := positionIn(p.tab.Content(), info)
	add, _ := positionIn(p.tab.Content(), p.files().Add)
	if bottom := at.Y + info.Size().Height; bottom > add.Y+0.5 || info.Size().Height+0.5 < info.MinSize().Height {
		t.Errorf("the description (y %.0f–%.0f, needs %.0f px) runs under the Add file… button at y %.0f", at.Y, bottom, info.MinSize().Height, add.Y)
	}
	h.capture("procedures-long-description")
	p.choose(ref)
	h.settle()

	// Every file row shows its name whole.
	if len(p.files().Items()) == 0 {
		t.Fatal("the step lists no files")
	}
	for _, a := range p.files().Items() {
		row := attRow(p.files(), a.Name)
		if row == nil {
			t.Errorf("no row shows %q", a.Name)
			continue
		}
		name := row.Objects[0].(*fyne.Container).Objects[0].(*widget.Label)
		if cutOff(name) {
			t.Errorf("the file name %q is cut off: %.0f px shown", a.Name, name.Size().Width)
		}
		if meta := row.Objects[0].(*fyne.Container).Objects[1].(*widget.Label); !strings.Contains(meta.Text, api.HumanSize(a.Size)) {
			t.Errorf("the row of %q says %q, not its size", a.Name, meta.Text)
		}
	}
}
