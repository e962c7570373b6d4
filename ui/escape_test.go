package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// pressEsc delivers Esc as the desktop window does: to the focused widget,
// or to the window when none has the focus.
func pressEsc(h *harness) {
	c := h.win.Canvas()
	esc := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := c.Focused(); f != nil {
		f.TypedKey(esc)
	} else if k := c.OnTypedKey(); k != nil {
		k(esc)
	}
	h.flush()
}

// TestEscClosesEveryDialog opens each kind of dialog the window has and
// presses Esc: it closes as its Cancel (Close, No, OK) would, its callback
// run (a file's link dialog lets the link go), and the window is left as
// it was.
func TestEscClosesEveryDialog(t *testing.T) {
	h := newHarness(t)
	wo := checkedInWithProcedure(h)
	h.open(wo.WorkOrderId)
	procs := procsOf(h)
	p := wo.Procedures()[0]

	for _, c := range []struct {
		what string
		open func()
	}{
		{"the attachments file picker", func() { h.selectTab("Attachments"); test.Tap(attachmentsOf(h).Add) }},
		{"the invoice file picker", func() { h.selectTab("Invoice"); test.Tap(invoiceOf(h).button("Add file…")) }},
		{"the step file picker", func() {
			h.selectTab("Procedures")
			procs.choose(api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[0].Id})
			test.Tap(procs.files().Add)
		}},
		{"Delete the invoice?", func() { h.selectTab("Invoice"); invoiceOf(h).button("Delete…").OnTapped() }},
		{"Live connection", h.menuItem("Live connection…").Action},
		{"Keyboard shortcuts", h.menuItem("Keyboard shortcuts").Action},
		{"Change the NTE", h.menuItem("Change the NTE…").Action},
		{"Change the NTE, typing in it", func() {
			h.menuItem("Change the NTE…").Action()
			h.flush()
			var e *dialogs.Entry
			walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if x, ok := o.(*dialogs.Entry); ok {
					e = x
				}
			})
			h.win.Canvas().Focus(e)
			test.Type(e, "5")
		}},
		{"Live connection, typing its address", func() {
			h.menuItem("Live connection…").Action()
			typeInFirstEntry(h)
		}},
		{"Connect to office hub, typing its address", func() {
			h.desk.settings.ShowOffice()
			typeInFirstEntry(h)
		}},
		{"an error", func() { h.desk.showError(errors.New("the service is unreachable")) }},
	} {
		c.open()
		h.flush()
		if h.win.Canvas().Overlays().Top() == nil {
			t.Fatalf("%s: no dialog opened", c.what)
		}
		pressEsc(h)
		if top := h.win.Canvas().Overlays().Top(); top != nil {
			t.Errorf("Esc left %s open (%q)", c.what, texts(top))
			h.dismissOverlays()
		}
	}

	// The certificate picker over the connection dialog: Esc closes the
	// picker only, then the connection dialog.
	h.menuItem("Live connection…").Action()
	settings := h.win.Canvas().Overlays().Top()
	walk(settings, func(o fyne.CanvasObject) {
		if b, ok := o.(interface{ Tapped(*fyne.PointEvent) }); ok && isBrowseButton(o) {
			b.Tapped(&fyne.PointEvent{})
		}
	})
	h.flush()
	if h.win.Canvas().Overlays().Top() == settings {
		t.Fatal("the certificate button opened no picker")
	}
	pressEsc(h)
	if h.win.Canvas().Overlays().Top() != settings {
		t.Fatal("Esc in the certificate picker did not return to the connection dialog")
	}
	pressEsc(h)
	if h.win.Canvas().Overlays().Top() != nil {
		t.Fatal("a second Esc left the connection dialog open")
	}

	// A new work order's Reject… asks why; Esc rejects nothing.
	n := h.rowWhere(func(r storage.Row) bool { return r.Status == api.StatusNew })
	h.open(n.Id)
	test.Tap(h.desk.detail.reject)
	h.flush()
	test.Type(h.win.Canvas().Focused(), "no access")
	pressEsc(h)
	if h.win.Canvas().Overlays().Top() != nil || h.desk.detail.status.Text() != format.Status(api.StatusNew) {
		t.Fatalf("after Esc in the reject dialog: dialog open %v, status %q", h.win.Canvas().Overlays().Top() != nil, h.desk.detail.status.Text())
	}
}

// typeInFirstEntry focuses the topmost dialog's first entry and types in
// it, as a person filling it in does.
func typeInFirstEntry(h *harness) {
	h.t.Helper()
	h.flush()
	var e *dialogs.Entry
	walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if x, ok := o.(*dialogs.Entry); ok && e == nil {
			e = x
		}
	})
	if e == nil {
		h.t.Fatalf("the dialog has no entry that passes Esc on (texts %q)", texts(h.win.Canvas().Overlays().Top()))
	}
	h.win.Canvas().Focus(e)
	test.Type(e, "x")
}

// TestEscClosesTheSavePicker: "Save as…" opens a save picker with the
// file's name filled in; Esc closes it, back to the file's dialog, and
// saves nothing.
func TestEscClosesTheSavePicker(t *testing.T) {
	h := newHarness(t)
	p, _ := openStep(h, func(*api.WorkOrder, api.Procedure) bool { return true })
	test.Tap(rowButton(attRow(p.files(), p.files().Items()[0].Name), 0))
	h.flush()
	link := h.win.Canvas().Overlays().Top()
	test.Tap(buttonIn(t, link, "Save as…"))
	h.flush()
	if top := h.win.Canvas().Overlays().Top(); top == link || top == nil {
		t.Fatal("Save as… opened no picker")
	}
	pressEsc(h)
	if h.win.Canvas().Overlays().Top() != link {
		t.Fatalf("Esc left the save picker open (%q)", texts(h.win.Canvas().Overlays().Top()))
	}
}

// isBrowseButton is the connection dialog's button choosing the certificate.
func isBrowseButton(o fyne.CanvasObject) bool {
	b, ok := o.(*widget.Button)
	return ok && b.Text == "" && b.Icon == theme.FolderOpenIcon()
}
