package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/visit"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// The Visit tab lives in ui/visit, tested there against a fake; the
// whole-window tests of flows that cross views (the outbox and the
// header's refusals, the service's answers, the Assign dialog, the
// keyboard, the detail pane's layout) use it as a person does, finding
// its controls by their words.

// What "When did it happen?" offers.
const (
	whenNow     = "Now"
	whenEarlier = "Earlier (back-date)"
)

// visitForm is the window's Visit tab, as the detail view shows it. Its
// controls are made once, with the tab: found once.
type visitForm struct {
	h    *harness
	page fyne.CanvasObject

	checkIn, pause, checkOut, completeDetails *widget.Button
	schedSave, assign                         *widget.Button
	when                                      *widget.RadioGroup
	schedDate, backDate                       *xwidget.DateEntry
	schedTime, backTime                       *xwidget.TimePicker
	// who says who goes; schedNow the scheduled start; schedWhy why it
	// cannot be set; backNote why there is no back-dating; lastState the
	// last action.
	who, schedNow, schedWhy, backNote, lastState *widget.Label
}

func visitOf(h *harness) *visitForm {
	h.t.Helper()
	for i, tb := range h.desk.detail.tabs {
		if _, ok := tb.(*visit.Tab); ok {
			return newVisitForm(h, h.desk.detail.appTabs.Items[i].Content)
		}
	}
	h.t.Fatal("no Visit tab")
	return nil
}

func newVisitForm(h *harness, page fyne.CanvasObject) *visitForm {
	h.t.Helper()
	f := &visitForm{h: h, page: page}
	f.checkIn, f.pause, f.checkOut = f.button("Check in"), f.button("Pause"), f.button("Check out")
	f.completeDetails, f.schedSave, f.assign = f.button("Complete details"), f.button("Set scheduled start"), f.button("Assign…")
	f.when = f.find("“When did it happen?”", func(o fyne.CanvasObject) bool {
		r, ok := o.(*widget.RadioGroup)
		return ok && len(r.Options) > 0 && r.Options[0] == whenNow
	}).(*widget.RadioGroup)
	var dates []*xwidget.DateEntry
	var times []*xwidget.TimePicker
	everything(page, func(o fyne.CanvasObject) bool {
		switch w := o.(type) {
		case *xwidget.DateEntry:
			dates = append(dates, w)
			return true
		case *xwidget.TimePicker:
			times = append(times, w)
			return true
		}
		return false
	})
	if len(dates) != 2 || len(times) != 2 {
		h.t.Fatalf("the Visit tab has %d date and %d time pickers, want the scheduled start's and the back-date's", len(dates), len(times))
	}
	f.schedDate, f.backDate = dates[0], dates[1]
	f.schedTime, f.backTime = times[0], times[1]
	f.schedNow = f.find("scheduled start", func(o fyne.CanvasObject) bool {
		l, ok := o.(*widget.Label)
		return ok && strings.HasPrefix(l.Text, "Currently: ")
	}).(*widget.Label)
	f.who = f.before(f.assign, 1).(*widget.Label)
	f.schedWhy = f.after(f.schedSave, 1).(*widget.Label)
	f.lastState = f.after(f.checkIn, 1).(*widget.Label)
	f.backNote = f.after(f.when, 0).(*widget.Label)
	return f
}

// wo is the work order the tab shows.
func (f *visitForm) wo() *api.WorkOrder { return f.h.desk.detail.wo }

// button is the tab's button reading text, shown or not.
func (f *visitForm) button(text string) *widget.Button {
	f.h.t.Helper()
	return f.find("“"+text+"” button", func(o fyne.CanvasObject) bool {
		b, ok := o.(*widget.Button)
		return ok && b.Text == text
	}).(*widget.Button)
}

// find is the first object under the page, shown or not, that match
// says.
func (f *visitForm) find(what string, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	f.h.t.Helper()
	var found fyne.CanvasObject
	everything(f.page, func(o fyne.CanvasObject) bool {
		if found == nil && match(o) {
			found = o
		}
		return found != nil
	})
	if found == nil {
		f.h.t.Fatalf("the Visit tab has no %s", what)
	}
	return found
}

// after is what follows o on the tab: the object after it in its
// container (depth 0), or after the container it is in (depth 1), as a
// person reads the tab; before, what precedes it.
func (f *visitForm) after(o fyne.CanvasObject, depth int) fyne.CanvasObject {
	return f.beside(o, depth, 1)
}
func (f *visitForm) before(o fyne.CanvasObject, depth int) fyne.CanvasObject {
	return f.beside(o, depth, -1)
}

func (f *visitForm) beside(o fyne.CanvasObject, depth, step int) fyne.CanvasObject {
	f.h.t.Helper()
	for range depth {
		o = f.parent(o)
	}
	p := f.parent(o).(*fyne.Container)
	for i, c := range p.Objects {
		if c == o && i+step >= 0 && i+step < len(p.Objects) {
			return p.Objects[i+step]
		}
	}
	f.h.t.Fatal("nothing beside it on the Visit tab")
	return nil
}

// parent is the container o is in.
func (f *visitForm) parent(o fyne.CanvasObject) fyne.CanvasObject {
	f.h.t.Helper()
	return f.find("container", func(c fyne.CanvasObject) bool {
		box, ok := c.(*fyne.Container)
		if !ok {
			return false
		}
		for _, x := range box.Objects {
			if x == o {
				return true
			}
		}
		return false
	})
}

// everything visits o and all under it, shown or not, until visit says
// it is done with what it was given (true: do not look inside).
func everything(o fyne.CanvasObject, visit func(fyne.CanvasObject) bool) {
	if o == nil || visit(o) {
		return
	}
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			everything(ch, visit)
		}
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(c).Objects() {
			everything(ch, visit)
		}
	}
}

// completionForm is the Visit tab's check-out form, the completion
// details the customer requires, as shown now (it is built afresh for
// each work order): its title, its rows, what it says is missing.
type completionForm struct {
	box     *fyne.Container
	title   *widget.Label
	form    *widget.Form
	repair  *widget.Select // nil where there is no code to choose
	codes   []api.RepairInfo
	fields  []completionField
	missing *widget.Label
}

// completionField is one question of the form: a select where the
// answers are fixed, an entry otherwise.
type completionField struct {
	desc   api.CustomFieldDescriptor
	choice *widget.Select
	entry  *widget.Entry
}

// form is the check-out form, each question matched by its label to the
// customer's question it asks.
func (f *visitForm) form() *completionForm {
	f.h.t.Helper()
	form := f.find("check-out form", func(o fyne.CanvasObject) bool {
		_, ok := o.(*widget.Form)
		return ok
	}).(*widget.Form)
	box := f.parent(form).(*fyne.Container)
	c := &completionForm{box: box, title: box.Objects[0].(*widget.Label), form: form, missing: box.Objects[2].(*widget.Label)}
	var asked []api.CustomFieldDescriptor
	if wo := f.wo(); wo != nil {
		if cs, err := f.h.store.CustomerSettings(context.Background(), wo.Customer.Id); err == nil {
			c.codes = cs.RepairCodes
			asked = cs.CustomFields
		}
	}
	for i, it := range form.Items {
		if i == 0 && strings.HasPrefix(it.Text, "Repair code") {
			c.repair, _ = it.Widget.(*widget.Select)
			continue
		}
		cf := completionField{}
		for _, d := range asked {
			if strings.TrimSuffix(it.Text, " *") == d.Label {
				cf.desc = d
			}
		}
		cf.choice, _ = it.Widget.(*widget.Select)
		cf.entry, _ = it.Widget.(*widget.Entry)
		c.fields = append(c.fields, cf)
	}
	return c
}

// completion is what the person filled in.
func (c *completionForm) completion() api.Completion {
	var done api.Completion
	if c.repair != nil && c.repair.SelectedIndex() >= 0 {
		done.RepairInfo = &c.codes[c.repair.SelectedIndex()]
	}
	for _, cf := range c.fields {
		v := ""
		if cf.choice != nil {
			v = cf.choice.Selected
		} else {
			v = strings.TrimSpace(cf.entry.Text)
		}
		if v != "" {
			done.CustomFields = append(done.CustomFields, api.CustomField{Id: cf.desc.Id, Value: v})
		}
	}
	return done
}

// hasAskedFields reports whether cs asks anything at check-out beyond the
// repair code.
func hasAskedFields(cs *api.CustomerSettings) bool {
	if cs == nil {
		return false
	}
	for _, d := range cs.CustomFields {
		if d.Asked() {
			return true
		}
	}
	return false
}

// settingsOf is the replica's settings of wo's customer, nil when no sync
// read them.
func settingsOf(h *harness, wo *api.WorkOrder) *api.CustomerSettings {
	cs, err := h.store.CustomerSettings(context.Background(), wo.Customer.Id)
	if err != nil {
		return nil
	}
	return cs
}
