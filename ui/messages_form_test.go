package ui

import (
	"context"
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/messages"
)

// msgsForm is the Messages tab (ui/messages) as the whole-window tests
// reach it: by what a person sees, the controls found by their words.
type msgsForm struct {
	h   *harness
	tab *messages.Tab
}

func msgsOf(h *harness) msgsForm { return msgsForm{h, tabOf[*messages.Tab](h)} }

// text is the compose box, the tab's one multi-line entry.
func (f msgsForm) text() *widget.Entry {
	f.h.t.Helper()
	var found *widget.Entry
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if e := asEntry(o); e != nil && e.MultiLine && found == nil {
			found = e
		}
	})
	if found == nil {
		f.h.t.Fatal("the Messages tab has no compose box")
	}
	return found
}

// asEntry is o as an entry: a *widget.Entry, or a widget built on one
// (the compose box), whose Entry is reached by reflection.
func asEntry(o fyne.CanvasObject) *widget.Entry {
	if e, ok := o.(*widget.Entry); ok {
		return e
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if f := v.Elem().FieldByName("Entry"); f.IsValid() && f.Type() == reflect.TypeOf(widget.Entry{}) {
		return f.Addr().Interface().(*widget.Entry)
	}
	return nil
}

// focusable is the compose box as the canvas focuses and types into it.
func (f msgsForm) focusable() fyne.Focusable {
	f.h.t.Helper()
	var found fyne.Focusable
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if e := asEntry(o); e != nil && e.MultiLine && found == nil {
			found = o.(fyne.Focusable)
		}
	})
	return found
}

// vis is who the message is for ("Visible to").
func (f msgsForm) vis() *widget.Select {
	f.h.t.Helper()
	var found *widget.Select
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && found == nil {
			found = s
		}
	})
	if found == nil {
		f.h.t.Fatal("the Messages tab does not say who sees the message")
	}
	return found
}

// send is the Send button.
func (f msgsForm) send() *widget.Button { return buttonIn(f.h.t, f.tab.Content(), "Send") }

// empty reports whether the tab says there are no messages.
func (f msgsForm) empty() bool {
	for _, s := range texts(f.tab.Content()) {
		if s == "No messages yet." {
			return true
		}
	}
	return false
}

// msgRow is one message as the thread draws it.
type msgRow struct {
	heading, text string
	tinted        bool // drawn apart, as what the customer does not read
	item          fyne.CanvasObject
}

// rows is every message of the thread, drawn as the list draws it,
// including those scrolled out of view.
func (f msgsForm) rows() []msgRow {
	f.h.t.Helper()
	var list *widget.List
	walk(f.tab.Content(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.List); ok && list == nil {
			list = l
		}
	})
	if list == nil {
		f.h.t.Fatal("the Messages tab shows no thread")
	}
	var out []msgRow
	for i := 0; i < list.Length(); i++ {
		item := list.CreateItem()
		list.UpdateItem(i, item)
		shown := texts(item)
		r := msgRow{heading: shown[0], text: shown[1], tinted: item.(*fyne.Container).Objects[0].Visible(), item: item}
		out = append(out, r)
	}
	return out
}

// last is the thread's last message as drawn.
func (f msgsForm) last() msgRow {
	f.h.t.Helper()
	rows := f.rows()
	if len(rows) == 0 {
		f.h.t.Fatal("the thread is empty")
	}
	return rows[len(rows)-1]
}

// thread is the open work order's thread as the replica holds it: our
// messages with their outbox rows.
func (f msgsForm) thread() []storage.ThreadMessage {
	f.h.t.Helper()
	msgs, err := f.h.store.Thread(context.Background(), f.h.desk.detail.wo.WorkOrderId)
	if err != nil {
		f.h.t.Fatal(err)
	}
	return msgs
}
