package realwindow

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRealWindowCompletingAStepAndTheNote completes a procedure step with
// a unit (Done, a number, a comment, Save step) and edits the internal
// note (typed, Save note) in the real window, each as a person does, and
// waits for the service's answer to show: the step done with its value in
// the tree, the note in its history with who wrote it. With WORKDESK_DOCS
// set to a folder, the pictures of both at 1280x800 and 1024x700 are kept
// there (make notes-shots: docs/notes).
func TestRealWindowCompletingAStepAndTheNote(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("procnotes-start", "ready")
	a.dialog("procnotes-status-filter", "tap ^All statuses")
	a.closes("procnotes-checked-in", `tap ^Checked in \(\d+\)$`)

	// A checked-in work order with an open step that takes a number with a
	// unit, in a procedure that may still be changed.
	numbers := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	withUnit := regexp.MustCompile(`(?:^|\| )(\d+)\. ([^|]*\((?:°F|psi|pcs)\)) — Open`)
	var picked, order, label string
	for _, n := range numbers {
		a.do("tap ^" + n + "$")
		a.do("tapin *container.AppTabs ^Procedures$")
		for _, s := range withUnit.FindAllStringSubmatch(a.do("texts *widget.Tree"), -1) {
			a.do(`tapin *widget.Tree ^` + s[1] + `\. ` + regexp.QuoteMeta(s[2]))
			if !strings.Contains(a.stepFiles(), "can't be changed") {
				picked, order, label = n, s[1], s[2]
				break
			}
		}
		if picked != "" {
			break
		}
	}
	if picked == "" {
		t.Fatalf("none of the checked-in work orders %v has an open step with a unit that may be changed", numbers)
	}
	unit := regexp.MustCompile(`\((°F|psi|pcs)\)`).FindStringSubmatch(label)[1]
	a.shoot("procnotes-step-" + picked)
	editor := a.do("texts *container.Split")
	for _, want := range []string{"| Status |", "| Done |", "| N/A |", "| Open |", "| " + unit + " |", "| Comment |", "| Save step |"} {
		if !strings.Contains(editor, want) {
			t.Errorf("the step's editor does not show %q: %s", want, editor)
		}
	}

	a.step("procnotes-step-done", "tap ^Done$")
	a.step("procnotes-step-value", "typeby ^Value$ 38")
	a.step("procnotes-step-comment", "typeby ^Comment$ read at the door")
	a.step("procnotes-step-saved", "tap ^Save step$")
	// Sent in the background; the tree then shows the service's step.
	done := regexp.MustCompile(`\| ` + order + `\. ` + regexp.QuoteMeta(label) + ` — Done: 38 ` + regexp.QuoteMeta(unit))
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		tree := "| " + a.do("texts *widget.Tree")
		if done.MatchString(tree) && strings.Contains(a.do("texts"), "Outbox: all sent") {
			break
		}
		if time.Now().After(deadline) {
			a.shoot("procnotes-step-not-sent")
			t.Fatalf("the step was not shown done with its value: %s", tree)
		}
	}
	a.keep("procedure-step", "procnotes-step-sent", "1280x800")
	a.do("resize 1024x700")
	a.keep("procedure-step", "procnotes-step-1024x700", "1024x700")
	a.do("resize 1280x800")

	a.step("procnotes-note-tab", "tapin *container.AppTabs ^Internal note$")
	// A wrapped label draws a text a line: read them as one.
	if texts := a.do("texts *container.AppTabs"); !strings.Contains(strings.ReplaceAll(texts, " | ", " "), "never shown to the customer") {
		t.Errorf("the Internal note tab does not say the customer never sees it: %s", texts)
	}
	a.type_("procnotes-note-typed", "Gate code 4471, park behind the dock.", "*container.AppTabs")
	// The first note saved asks whose name its record shows (not the
	// computer's account).
	a.dialog("procnotes-note-name", "tap ^Save note$")
	a.do("typefield Your name=Ana Ruiz")
	a.closes("procnotes-note-saved", "tap ^Save$")
	note := a.waitUntil("the note in its history", "texts *container.AppTabs", "· current | Gate code 4471, park behind the dock.")
	if !strings.Contains(note, "| History |") || strings.Contains(note, "Not saved yet") {
		t.Errorf("after sending, the note tab reads: %s", note)
	}
	a.keep("internal-note", "procnotes-note-sent", "1280x800")
	a.do("resize 1024x700")
	a.keep("internal-note", "procnotes-note-1024x700", "1024x700")
}

// keep takes a screenshot (shot) and, with WORKDESK_DOCS set, keeps the
// window (size, at the screen's top left) there as name-size.png in 256
// colours, as the README's pictures are. It is taken again from the
// test's screen, which shows what the screenshot did: that one is written
// while the test goes on.
func (a *app) keep(name, shot, size string) {
	a.t.Helper()
	a.shoot(shot)
	dir := os.Getenv("WORKDESK_DOCS")
	if dir == "" {
		return
	}
	out := filepath.Join(dir, name+"-"+size+".png")
	cmd := exec.Command("import", "-window", "root", "-crop", size+"+0+0", "+repage", "-colors", "256", "-strip", out)
	cmd.Env = append(os.Environ(), "DISPLAY="+a.screen.display)
	if b, err := cmd.CombinedOutput(); err != nil {
		a.t.Fatalf("keeping %s: %v: %s", out, err, b)
	}
	a.t.Logf("kept %s", out)
}

// TestRealWindowMarkingAProcedureNAAndBack marks a checked-in work order's
// first procedure N/A through its Mark N/A… and the question, waits for
// the service's answer, then chooses one of its steps, which says it is
// marked N/A and offers Mark as applicable again; that tap is sent too,
// and the step's editor says nothing of N/A any more (issue 36 item 1).
// The screenshots are looked at.
func TestRealWindowMarkingAProcedureNAAndBack(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("na-start", "ready")
	a.dialog("na-status-filter", "tap ^All statuses")
	a.closes("na-checked-in", `tap ^Checked in \(\d+\)$`)

	// A checked-in work order whose first procedure is not marked N/A nor
	// read-only and that the customer lets be marked.
	numbers := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	first := regexp.MustCompile(`^([^|]+) — (\d+) of (\d+) steps done`)
	var picked, proc string
	for _, n := range numbers {
		a.do("tap ^" + n + "$")
		a.do("tapin *container.AppTabs ^Procedures$")
		tree := a.do("texts *widget.Tree")
		m := first.FindStringSubmatch(tree)
		if m == nil || strings.HasPrefix(tree[len(m[0]):], " · ") {
			continue // none, or marked N/A or read-only already
		}
		a.do("tapin *widget.Tree ^" + regexp.QuoteMeta(m[1]) + " — ")
		if panel := a.do("texts *container.Split"); strings.Contains(panel, "| Mark N/A… |") && !strings.Contains(panel, "does not allow") {
			picked, proc = n, m[1]
			break
		}
	}
	if picked == "" {
		t.Fatalf("none of the checked-in work orders %v has a first procedure that may be marked N/A", numbers)
	}
	a.shoot("na-procedure-" + picked)
	a.dialog("na-asked", "tap ^Mark N/A…$")
	a.closes("na-marked", "tap ^Mark N/A$")
	// The procedure's panel says how far it is, in full (the tree's line
	// may end in "…").
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		panel := strings.ReplaceAll(a.do("texts *container.Split"), " | ", " ")
		if regexp.MustCompile(regexp.QuoteMeta(proc)+` Marked N/A: none of its \d+ steps? is needed\.`).MatchString(panel) &&
			strings.Contains(panel, "Mark as applicable again") && strings.Contains(a.do("texts"), "Outbox: all sent") {
			break
		}
		if time.Now().After(deadline) {
			a.shoot("na-not-sent")
			t.Fatalf("the procedure was not shown marked N/A once sent: %s", panel)
		}
	}
	a.shoot("na-sent")

	a.step("na-step", `tapin *widget.Tree ^1\. `)
	step := strings.ReplaceAll(a.do("texts *container.Split"), " | ", " ")
	if !strings.Contains(step, "is marked N/A") || !strings.Contains(step, "Mark as applicable again") {
		t.Fatalf("the step of the N/A procedure does not say so nor offer the undo: %s", step)
	}
	a.step("na-cleared", "tap ^Mark as applicable again$")
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		step = strings.ReplaceAll(a.do("texts *container.Split"), " | ", " ")
		if !strings.Contains(step, "N/A ·") && !strings.Contains(step, "is marked N/A") && !strings.Contains(step, "Mark as applicable again") &&
			strings.Contains(step, "Save step") && strings.Contains(a.do("texts"), "Outbox: all sent") {
			break
		}
		if time.Now().After(deadline) {
			a.shoot("na-not-cleared")
			t.Fatalf("once cleared, the step reads: %s", step)
		}
	}
	a.shoot("na-cleared-sent")
	// Editable again: the procedure offers Mark N/A… once more.
	a.step("na-procedure-again", "tapin *widget.Tree ^"+regexp.QuoteMeta(proc)+" — ")
	if panel := a.do("texts *container.Split"); !strings.Contains(panel, "| Mark N/A… |") || strings.Contains(panel, "marked N/A") {
		t.Errorf("the procedure, cleared, reads: %s", panel)
	}
}
