package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/quote"
)

// The Quote tab lives in ui/quote, tested there against a fake; the
// whole-window tests of flows that cross views (the outbox and the
// header's refusal, the Invoice tab's NTE increase, the service's answers,
// the detail pane's layout) use it as a person does, finding its controls
// by their words.

// quoteForm is the window's Quote tab, as the detail view shows it.
type quoteForm struct {
	h    *harness
	page fyne.CanvasObject
}

func quoteOf(h *harness) quoteForm {
	h.t.Helper()
	for i, tb := range h.desk.detail.tabs {
		if _, ok := tb.(*quote.Tab); ok {
			return quoteForm{h, h.desk.detail.appTabs.Items[i].Content}
		}
	}
	h.t.Fatal("no Quote tab")
	return quoteForm{}
}

// openQuotable opens, on the Quote tab, an accepted USD work order with an
// NTE and no quote, of a customer that takes quotes.
func openQuotable(h *harness) quoteForm {
	h.t.Helper()
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // USD, takes quotes
	h.open(r.Id)
	h.selectTab("Quote")
	return quoteOf(h)
}

// says is everything the tab shows, a line per label and button.
func (f quoteForm) says() string { return strings.Join(texts(f.page), "\n") }

// find is the first object under the page, shown or not, that is what
// match says.
func (f quoteForm) find(what string, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	f.h.t.Helper()
	var found fyne.CanvasObject
	var all func(o fyne.CanvasObject)
	all = func(o fyne.CanvasObject) {
		if o == nil || found != nil {
			return
		}
		if match(o) {
			found = o
			return
		}
		switch c := o.(type) {
		case *fyne.Container:
			for _, ch := range c.Objects {
				all(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				all(ch)
			}
		}
	}
	all(f.page)
	if found == nil {
		f.h.t.Fatalf("the Quote tab has no %s", what)
	}
	return found
}

// amount is the amount entry, its placeholder an example ("e.g. 3000.00");
// hidden, and holding the lines' total, while there are lines.
func (f quoteForm) amount() *widget.Entry {
	f.h.t.Helper()
	return f.find("amount entry", func(o fyne.CanvasObject) bool {
		e, ok := o.(*widget.Entry)
		return ok && !e.MultiLine && strings.HasPrefix(e.PlaceHolder, "e.g. ")
	}).(*widget.Entry)
}

// reason is the reason entry, the form's one multi-line entry.
func (f quoteForm) reason() *widget.Entry {
	f.h.t.Helper()
	return &f.find("reason entry", func(o fyne.CanvasObject) bool {
		_, ok := o.(*dialogs.Entry)
		return ok
	}).(*dialogs.Entry).Entry
}

// submit is the Submit quote button.
func (f quoteForm) submit() *widget.Button { return f.button("Submit quote") }

// button is the tab's button reading text, shown or not.
func (f quoteForm) button(text string) *widget.Button {
	f.h.t.Helper()
	return f.find("“"+text+"” button", func(o fyne.CanvasObject) bool {
		b, ok := o.(*widget.Button)
		return ok && b.Text == text
	}).(*widget.Button)
}

// priceList is the price list's select.
func (f quoteForm) priceList() *widget.Select {
	f.h.t.Helper()
	return f.find("price list", func(o fyne.CanvasObject) bool {
		_, ok := o.(*widget.Select)
		return ok
	}).(*widget.Select)
}

// quantity is the quantity entry beside Add line: the one-line entry with
// neither an example nor a check of its own (a line's quantity has one).
func (f quoteForm) quantity() *widget.Entry {
	f.h.t.Helper()
	return f.find("quantity entry", func(o fyne.CanvasObject) bool {
		e, ok := o.(*widget.Entry)
		return ok && !e.MultiLine && e.PlaceHolder == "" && e.Validator == nil
	}).(*widget.Entry)
}

// addLine picks price list item i, with qty, and taps Add line.
func (f quoteForm) addLine(i int, qty string) {
	f.priceList().SetSelectedIndex(i)
	f.quantity().SetText(qty)
	test.Tap(f.button("Add line"))
}

// open reports whether the form is shown: Submit quote is on screen.
func (f quoteForm) open() bool {
	found := false
	walk(f.page, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Submit quote" {
			found = true
		}
	})
	return found
}

// label is the tab's label that begins with prefix, shown or not.
func (f quoteForm) label(prefix string) *widget.Label {
	f.h.t.Helper()
	return f.find("label “"+prefix+"…”", func(o fyne.CanvasObject) bool {
		l, ok := o.(*widget.Label)
		return ok && strings.HasPrefix(l.Text, prefix)
	}).(*widget.Label)
}

// quoteExplanation is the label that says whether a quote may be asked
// for on the work order open, and why, as the rule words it.
func quoteExplanation(h *harness) *widget.Label {
	h.t.Helper()
	_, why := quote.Allowed(h.desk.detail.wo)
	return quoteOf(h).label(why)
}
