package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// openStep finds, in the demo world, a procedure for which ok holds with a
// step that has files, opens its work order on the Procedures tab and
// chooses that step the way a click in the tree does.
func openStep(h *harness, ok func(wo *api.WorkOrder, p api.Procedure) bool) (procsForm, api.StepRef) {
	h.t.Helper()
	ctx := context.Background()
	for _, r := range replicaRows(h) {
		wo, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil {
			continue
		}
		for _, p := range wo.Procedures() {
			if !ok(wo, p) {
				continue
			}
			for _, s := range p.Steps {
				ref := api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: s.Id}
				if atts, err := h.desk.online.StepAttachments(ctx, ref); err != nil || len(atts) == 0 {
					continue
				}
				h.open(wo.WorkOrderId)
				h.selectTab("Procedures")
				t := procsOf(h)
				t.choose(ref)
				return t, ref
			}
		}
	}
	h.t.Fatal("the demo world has no such procedure with step files")
	return procsForm{}, api.StepRef{}
}

// attRow finds the visible row of a files panel showing the file called name.
func attRow(panel fyne.CanvasObject, name string) *fyne.Container {
	var found *fyne.Container
	walk(panel, func(o fyne.CanvasObject) {
		c, ok := o.(*fyne.Container)
		if !ok || found != nil || len(c.Objects) != 3 {
			return
		}
		if lines, ok := c.Objects[0].(*fyne.Container); ok && len(lines.Objects) == 2 {
			if l, ok := lines.Objects[0].(*widget.Label); ok && l.Text == name {
				found = c
			}
		}
	})
	return found
}

// rowButton is a row's Open (0) or Remove (1) button.
func rowButton(row *fyne.Container, i int) *widget.Button {
	var buttons []*widget.Button
	walk(row.Objects[2], func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok {
			buttons = append(buttons, b)
		}
	})
	return buttons[i]
}

func TestAddingAndRemovingAStepFile(t *testing.T) {
	h := newHarness(t)
	p, ref := openStep(h, func(wo *api.WorkOrder, p api.Procedure) bool {
		return wo.StepAttachmentsEditable(p)
	})
	says := func() string { return strings.Join(texts(p.files()), "\n") }
	if p.files().Add.Disabled() || strings.Contains(says(), "can't be changed") {
		t.Fatalf("an editable procedure's step: add disabled=%v, lock says %q", p.files().Add.Disabled(), says())
	}
	before := len(p.files().Items())
	if !strings.Contains(says(), fmt.Sprint(before, " file")) || before == 0 {
		t.Fatalf("the step lists %d files and says %q", before, says())
	}

	path := filepath.Join(t.TempDir(), "meter-reading.jpg")
	if err := os.WriteFile(path, []byte("jpeg bytes of a meter"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.files().AddFiles([]string{path}) // what choosing the file in the open dialog does
	if !strings.Contains(says(), "meter-reading.jpg — Queued") {
		t.Errorf("while queued the step says %q", says())
	}
	h.send()
	if len(p.files().Items()) != before+1 || attRow(p.files(), "meter-reading.jpg") == nil {
		t.Fatalf("after sending, the step lists %d files (was %d) and no row for the new one", len(p.files().Items()), before)
	}
	if strings.Contains(says(), "meter-reading.jpg — ") {
		t.Errorf("after sending, the step still says %q", says())
	}

	row := attRow(p.files(), "meter-reading.jpg")
	test.Tap(rowButton(row, 1))
	dlg := h.win.Canvas().Overlays().Top()
	if dlg == nil || !strings.Contains(h.overlayText(), "remove meter-reading.jpg") {
		t.Fatalf("no confirmation before removing; overlay %q", h.overlayText())
	}
	test.Tap(buttonIn(t, dlg, "Remove"))
	h.send()
	if len(p.files().Items()) != before || attRow(p.files(), "meter-reading.jpg") != nil {
		t.Fatalf("after removing, the step lists %d files (want %d)", len(p.files().Items()), before)
	}
	atts, _ := h.desk.online.StepAttachments(context.Background(), ref)
	if len(atts) != before {
		t.Errorf("the service holds %d files on the step, want %d", len(atts), before)
	}
}

func TestAStepOfAnNAProcedureRefusesChanges(t *testing.T) {
	h := newHarness(t)
	p, ref := openStep(h, func(_ *api.WorkOrder, p api.Procedure) bool { return p.IsMarkedNa })
	if !p.files().Add.Disabled() {
		t.Error("files can be added to a procedure marked N/A")
	}
	if says := strings.Join(texts(p.files()), "\n"); !strings.Contains(says, "marked N/A: attachments can't be changed") {
		t.Errorf("the step explains %q", says)
	}
	if len(p.files().Items()) == 0 {
		t.Fatal("the N/A step lists no files")
	}
	row := attRow(p.files(), p.files().Items()[0].Name)
	if row == nil || !rowButton(row, 1).Disabled() || rowButton(row, 0).Disabled() {
		t.Error("on an N/A procedure, Remove must be disabled and Open enabled")
	}

	path := filepath.Join(t.TempDir(), "photo.png")
	os.WriteFile(path, []byte("png"), 0o600)
	p.files().AddFiles([]string{path})
	if !strings.Contains(h.overlayText(), "marked n/a") {
		t.Errorf("adding anyway shows %q", h.overlayText())
	}
	if _, err := h.store.AddStepAttachment(context.Background(), ref, path); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("the store queued a file for an N/A procedure: %v", err)
	}
	if _, err := h.store.RemoveStepAttachment(context.Background(), ref, p.files().Items()[0].AttachmentId); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("the store queued a removal for an N/A procedure: %v", err)
	}
	if rows, _ := h.store.OutboxRows(context.Background(), ref.WorkOrderId); len(rows) != 0 {
		t.Errorf("refused changes reached the outbox: %+v", rows)
	}
}

func TestAReadOnlyProcedureSaysSo(t *testing.T) {
	h := newHarness(t)
	p, _ := openStep(h, func(_ *api.WorkOrder, p api.Procedure) bool { return p.IsReadOnly && !p.IsMarkedNa })
	if says := strings.Join(texts(p.files()), "\n"); !p.files().Add.Disabled() || !strings.Contains(says, "read-only: attachments can't be changed") {
		t.Errorf("a read-only procedure: add disabled=%v, lock %q", p.files().Add.Disabled(), says)
	}
}

// Procedures change only while the work order is being worked on
// (api.ProcedureEditStates): elsewhere an editable procedure's step says why.
func TestStepFilesWaitForAWorkingStatus(t *testing.T) {
	h := newHarness(t)
	p, _ := openStep(h, func(wo *api.WorkOrder, p api.Procedure) bool {
		return !wo.ProceduresEditable() && !p.IsReadOnly && !p.IsMarkedNa &&
			wo.Status != api.StatusRejected && wo.Status != api.StatusRecalled
	})
	if says := strings.Join(texts(p.files()), "\n"); !p.files().Add.Disabled() || !strings.Contains(says, "only while the work order is accepted, checked in, paused or on hold") {
		t.Errorf("outside a working status: add disabled=%v, lock %q", p.files().Add.Disabled(), says)
	}
}

// TestOpeningAStepFileNeverStoresTheLink opens a step's file through its
// 15-minute link, opens it in the browser and copies it, and then reads
// every byte of the replica looking for the link. (How the dialog counts
// down, forgets and replaces a link: ui/files.)
func TestOpeningAStepFileNeverStoresTheLink(t *testing.T) {
	var opened []string
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	}})
	p, _ := openStep(h, func(*api.WorkOrder, api.Procedure) bool { return true })
	att := p.files().Items()[0]
	test.Tap(rowButton(attRow(p.files(), att.Name), 0))
	h.flush()
	if says := h.overlayText(); !strings.Contains(says, "link valid for 15:00") {
		t.Fatalf("opening %s fetched no link; the dialog says %q", att.Name, says)
	}
	dlg := h.win.Canvas().Overlays().Top()
	test.Tap(buttonIn(t, dlg, "Open in browser"))
	h.flush()
	test.Tap(buttonIn(t, dlg, "Copy link"))
	h.flush()
	copied := h.desk.app.Clipboard().Content()
	if len(opened) != 1 || copied == "" || opened[0] != copied {
		t.Fatalf("the browser was handed %q, the clipboard %q: want the one link", opened, copied)
	}
	links := []string{copied}
	test.Tap(buttonIn(t, dlg, "Close"))

	path := h.store.Path()
	scan := func(when string) {
		t.Helper()
		var all []byte
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, _ := os.ReadFile(path + suffix)
			all = append(all, b...)
		}
		if !bytes.Contains(all, []byte(h.desk.detail.wo.WorkOrderNumber)) {
			t.Fatalf("%s: the scan cannot even find the work order number; it proves nothing", when)
		}
		for _, link := range links {
			u, _ := url.Parse(link)
			for what, needle := range map[string]string{"link": link, "link path": u.Path, "link signature": u.RawQuery} {
				if needle != "" && bytes.Contains(all, []byte(needle)) {
					t.Errorf("%s: the %s is in the replica", when, what)
				}
			}
		}
	}
	scan("while open")
	if err := h.store.Close(); err != nil {
		t.Fatal(err)
	}
	scan("after close")
}
