package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// TestEveryFileButtonOpensAPickerAndCancelCloses taps each button that asks
// for a file (work order attachments, invoice attachments, a procedure
// step's files, the connection dialog's certificate) as a person does: a
// file picker opens large enough to see a folder's files, and its Cancel
// closes it leaving the window as it was. Fyne 2.8.1 ended the process on
// every one of these taps when the picker was resized before it was shown.
func TestEveryFileButtonOpensAPickerAndCancelCloses(t *testing.T) {
	h := newHarness(t)
	wo := checkedInWithProcedure(h)
	h.open(wo.WorkOrderId)

	h.selectTab("Attachments")
	pickAndCancel(h, "work order attachments", attachmentsOf(h).Add, "Open")

	h.selectTab("Invoice")
	pickAndCancel(h, "invoice attachments", invoiceOf(h).button("Add file…"), "Open")

	h.selectTab("Procedures")
	procs := procsOf(h)
	p := wo.Procedures()[0]
	procs.choose(api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: p.Id, StepId: p.Steps[0].Id})
	pickAndCancel(h, "a procedure step's files", procs.files().Add, "Open")

	h.menuItem("Live connection…").Action()
	settings := h.win.Canvas().Overlays().Top()
	var browse *widget.Button
	walk(settings, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "" && b.Icon == theme.FolderOpenIcon() {
			browse = b
		}
	})
	if browse == nil {
		t.Fatal("the connection dialog has no button to browse for the certificate")
	}
	pickAndCancel(h, "the certificate", browse, "Open")
	if h.win.Canvas().Overlays().Top() != settings {
		t.Fatal("cancelling the certificate picker did not return to the connection dialog")
	}
}

// checkedInWithProcedure is a checked-in work order of the demo world with a
// procedure whose files can change: every "Add file…" is enabled on it.
func checkedInWithProcedure(h *harness) *api.WorkOrder {
	h.t.Helper()
	for _, r := range h.rows() {
		if r.Status != api.StatusCheckedIn {
			continue
		}
		wo, err := h.store.WorkOrder(context.Background(), r.Id)
		if err != nil {
			h.t.Fatal(err)
		}
		if ps := wo.Procedures(); len(ps) > 0 && !ps[0].IsReadOnly && !ps[0].IsMarkedNa && len(ps[0].Steps) > 0 {
			return wo
		}
	}
	h.t.Fatal("the demo world has no checked-in work order with an open procedure")
	return nil
}

// TestSaveAsOpensASavePickerAndCancelCloses taps "Save as…" in the dialog
// of a file opened through its link: a save picker opens, and Cancel
// returns to that dialog.
func TestSaveAsOpensASavePickerAndCancelCloses(t *testing.T) {
	h := newHarness(t)
	p, _ := openStep(h, func(*api.WorkOrder, api.Procedure) bool { return true })
	test.Tap(rowButton(attRow(p.files(), p.files().Items()[0].Name), 0))
	h.flush()
	link := h.win.Canvas().Overlays().Top()
	pickAndCancel(h, "saving "+p.files().Items()[0].Name, buttonIn(t, link, "Save as…"), "Save")
	if h.win.Canvas().Overlays().Top() != link {
		t.Fatal("cancelling the save picker did not return to the file's dialog")
	}
}

// pickAndCancel taps b, expects a file picker (its confirm button reads
// confirm) on top of the window showing more than Fyne's default few rows,
// and closes it with its Cancel button.
func pickAndCancel(h *harness, what string, b *widget.Button, confirm string) {
	h.t.Helper()
	if b.Disabled() {
		h.t.Fatalf("the button for %s is disabled", what)
	}
	before := h.win.Canvas().Overlays().Top()
	test.Tap(b)
	h.flush()
	picker := h.win.Canvas().Overlays().Top()
	if picker == nil || picker == before {
		h.t.Fatalf("tapping the button for %s opened no dialog", what)
	}
	var open, cancel *widget.Button
	walk(picker, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok {
			switch b.Text {
			case confirm:
				open = b
			case "Cancel":
				cancel = b
			}
		}
	})
	if open == nil || cancel == nil {
		h.t.Fatalf("the dialog for %s is not a file picker (texts %q)", what, texts(picker))
	}
	var pop *widget.PopUp
	walk(picker, func(o fyne.CanvasObject) {
		if p, ok := o.(*widget.PopUp); ok && pop == nil {
			pop = p
		}
	})
	if pop == nil {
		h.t.Fatalf("the file picker for %s is not a pop-up", what)
	}
	if s := pop.Content.Size(); s.Width < 800 || s.Height < 540 {
		h.t.Fatalf("the file picker for %s is %v: too small to see a folder's files", what, s)
	}
	test.Tap(cancel)
	h.flush()
	if top := h.win.Canvas().Overlays().Top(); top != before {
		h.t.Fatalf("Cancel left the file picker for %s open", what)
	}
}
