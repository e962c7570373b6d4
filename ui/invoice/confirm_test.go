package invoice

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// dialogText is everything the topmost dialog says, "" when none is open.
func (f *fake) dialogText() string {
	top := f.Win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	return strings.Join(texts(top), "\n")
}

// focusedText is the text of the focused button, "" when no button has
// the focus.
func (f *fake) focusedText() string {
	focused := f.Win.Canvas().Focused()
	if focused == nil {
		return ""
	}
	if b := viewtest.AsButton(focused.(fyne.CanvasObject)); b != nil {
		return b.Text
	}
	switch b := focused.(type) {
	case interface{ Tapped(*fyne.PointEvent) }:
		var text string
		viewtest.Walk(b.(fyne.CanvasObject), func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.RichText); ok && text == "" {
				text = l.String()
			}
		})
		return text
	}
	return ""
}

// Submitting cannot be taken back, so it asks first, naming the total and
// the NTE; the question opens with Cancel focused, so the person's second
// Enter, or one with nothing focused, cancels: only the button submits.
func TestSubmitAsksFirstWithTotalAndNteAndEnterNeverSubmits(t *testing.T) {
	for _, tc := range []struct {
		name string
		wo   *api.WorkOrder
		says []string
	}{
		{"within the NTE", workOrder(), []string{"NTE $1,050.00 USD"}},
		{"no NTE", workOrder(func(w *api.WorkOrder) { w.Nte.Amount = api.Money{Currency: "USD"} }), []string{"no NTE is set on this work order"}},
		{"over the NTE", workOrder(func(w *api.WorkOrder) { w.Nte.Amount = api.MustMoney("10.00", "USD") }),
			[]string{"NTE $10.00 USD", "is above the NTE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.wo, draft(tc.wo), priceList("USD"))
			inv := f.tab
			total := format.Money(inv.inv.Totals("USD").Total)
			for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter, fyne.KeyEscape} {
				test.Tap(inv.submit)
				says := f.dialogText()
				for _, want := range append([]string{"Submit the invoice?", "comes to " + total + " USD",
					"Once submitted it cannot be changed, unless the customer disputes it."}, tc.says...) {
					if !strings.Contains(says, want) {
						t.Errorf("the question does not say %q:\n%s", want, says)
					}
				}
				if got := f.focusedText(); got != "Cancel" {
					t.Fatalf("the question opens with %q focused, want Cancel", got)
				}
				f.Win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: key})
				if f.dialogText() != "" || len(f.rows) != 0 {
					t.Fatalf("%s on the question left it open (%v) or queued %+v", key, f.dialogText() != "", f.rows)
				}
			}
			// Enter with nothing focused (the person clicked beside the
			// buttons) is what the window gives ConfirmTop: it cancels too.
			test.Tap(inv.submit)
			f.Win.Canvas().Unfocus()
			dialogs.ConfirmTop(f.Win.Canvas())
			if f.dialogText() != "" || len(f.rows) != 0 {
				t.Fatalf("Enter with nothing focused left the question open or queued %+v", f.rows)
			}
			f.submit()
			if len(f.rows) != 1 || f.rows[0].Summary != "Submit invoice" {
				t.Fatalf("confirming queued %+v", f.rows)
			}
		})
	}
}

// Deleting the invoice and removing one of its files ask first, with
// Cancel focused: Enter there keeps them.
func TestDeleteAndRemoveAskWithCancelFocused(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo), priceList("USD"))
	inv := f.tab
	f.files[wo.WorkOrderId] = []api.Attachment{{AttachmentId: "att-9", Name: "parts-receipt.pdf", Size: 16, Created: fixedNow}}
	f.open(wo)
	for _, step := range []struct {
		what  string
		open  func()
		title string
	}{
		{"Delete…", func() { test.Tap(inv.del) }, "Delete the invoice?"},
		{"Remove…", func() { test.Tap(buttonIn(t, inv.files, "Remove…")) }, "Remove parts-receipt.pdf?"},
	} {
		step.open()
		if says := f.dialogText(); !strings.Contains(says, step.title) {
			t.Fatalf("%s asked %q", step.what, says)
		}
		if got := f.focusedText(); got != "Cancel" {
			t.Fatalf("%s: the question opens with %q focused, want Cancel", step.what, got)
		}
		f.Win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if f.dialogText() != "" || len(f.rows) != 0 {
			t.Fatalf("%s: Enter left the question open (%v) or queued %+v", step.what, f.dialogText() != "", f.rows)
		}
	}
}

// An empty invoice date reads empty, and what is missing before submit
// shows right above Submit at the foot of the tab, on screen without
// scrolling however long the invoice is.
func TestWhatIsMissingShowsBesideSubmitWithoutScrolling(t *testing.T) {
	wo := workOrder()
	f := newFake(t, wo, draft(wo, func(i *api.Invoice) { i.InvoiceDate = nil }), priceList("USD"))
	f.Win.Resize(fyne.NewSize(520, 500))
	inv := f.tab
	for len(inv.rows) < 8 {
		addPriceItem(t, inv, 0)
	}
	f.settle()
	if inv.date.Text != "" || inv.date.PlaceHolder != noDate {
		t.Fatalf("the empty date shows %q (placeholder %q)", inv.date.Text, inv.date.PlaceHolder)
	}
	if inv.scroll.Content.MinSize().Height <= inv.scroll.Size().Height {
		t.Fatal("the invoice fits its pane: nothing to scroll past")
	}
	if !strings.Contains(inv.problems.Text, "pick the invoice date") {
		t.Fatalf("the checklist reads %q", inv.problems.Text)
	}
	drv := fyne.CurrentApp().Driver()
	win := f.Win.Canvas().Size()
	onScreen := func(what string, o fyne.CanvasObject) fyne.Position {
		t.Helper()
		p := drv.AbsolutePositionForObject(o)
		if !o.Visible() || p.Y < 0 || p.Y+o.Size().Height > win.Height+0.5 || p.X+o.Size().Width > win.Width+0.5 {
			t.Errorf("%s spans %v+%v in a %v window", what, p, o.Size(), win)
		}
		return p
	}
	for _, at := range []string{"top", "bottom"} {
		if at == "top" {
			inv.scroll.ScrollToTop()
		} else {
			inv.scroll.ScrollToBottom()
		}
		list, submit := onScreen("the checklist at the "+at, inv.problems), onScreen("Submit at the "+at, inv.submit)
		if gap := submit.Y - (list.Y + inv.problems.Size().Height); gap < 0 || gap > 20 {
			t.Errorf("at the %s the checklist (%v+%v) is not right above Submit (%v)", at, list, inv.problems.Size(), submit)
		}
	}
	// Fill the date: the list goes, and Submit stays where it was.
	before := drv.AbsolutePositionForObject(inv.submit)
	day := fixedNow
	inv.date.SetDate(&day)
	f.settle()
	if inv.problems.Visible() {
		t.Errorf("with the date the checklist still reads %q", inv.problems.Text)
	}
	if got := drv.AbsolutePositionForObject(inv.submit); got != before {
		t.Errorf("Submit moved from %v to %v when the list went", before, got)
	}
}
