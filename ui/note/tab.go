package note

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// Tab is the work order's internal note: the company's own, never
// shown to the customer, which a banner says before anything else. The
// person edits it whole and saves; the edit is queued like every action.
// The service replaces the note whole, so an edit remembers the note it
// began from: if the note changed by the time it is sent, it is not sent,
// and this tab shows both versions with the choice (keep mine, take
// theirs, merge by hand). Under it, every version: who wrote it and when.
type Tab struct {
	replica Replica
	queue   Queue
	win     Window

	wo   *api.WorkOrder
	note *storage.Note
	// base is the note the edit in the entry began from; editing is true
	// from the first change of the entry until it is saved or reverted.
	base    string
	editing bool

	banner  fyne.CanvasObject
	text    *widget.Entry
	counter *widget.Label
	state   *widget.Label
	save    *widget.Button
	revert  *widget.Button

	changed  *fyne.Container // the newer note and ours
	theirs   *widget.Label
	mine     *widget.Label
	history  *fyne.Container
	versions []api.NoteEntry // newest first
	noneYet  *widget.Label
	root     fyne.CanvasObject
}

// noteNeverShown is what the banner says; the person must not have to
// wonder whether the customer reads this.
const noteNeverShown = "Internal note: only your company sees it. It is never shown to the customer."

// New is the tab, reading replica, queueing edits on queue and acting
// through win.
func New(replica Replica, queue Queue, win Window) *Tab {
	t := &Tab{replica: replica, queue: queue, win: win}
	lock := widget.NewIcon(theme.VisibilityOffIcon())
	say := widget.NewLabelWithStyle(noteNeverShown, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	say.Wrapping = fyne.TextWrapWord
	say.Importance = widget.WarningImportance
	t.banner = container.NewStack(xwidget.NewThemedFill(theme.ColorNameHeaderBackground),
		container.NewPadded(container.NewBorder(nil, nil, lock, nil, say)))

	t.text = widget.NewMultiLineEntry()
	t.text.Wrapping = fyne.TextWrapWord
	t.text.SetMinRowsVisible(5)
	t.text.SetPlaceHolder("Gate codes, who to call, what the crew should know. The customer never sees it.")
	t.text.OnChanged = t.onChanged
	t.counter = widget.NewLabel("")
	t.counter.Importance = widget.LowImportance
	t.state = arrange.Wrapped(widget.NewLabel(""))
	t.state.Importance = widget.LowImportance
	t.save = widget.NewButtonWithIcon("Save note", theme.DocumentSaveIcon(), t.onSave)
	t.save.Importance = widget.HighImportance
	t.revert = widget.NewButtonWithIcon("Revert", theme.ContentUndoIcon(), t.onRevert)

	// Both notes side by side in words; the choice itself is at the top of
	// the work order (Keep mine, Merge by hand, Take theirs), where every
	// action waiting for the person is.
	t.theirs = arrange.Wrapped(widget.NewLabel(""))
	t.mine = arrange.Wrapped(widget.NewLabel(""))
	title := widget.NewLabelWithStyle("The note changed while your edit waited: choose at the top which one stays.",
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	title.Importance = widget.WarningImportance
	t.changed = container.NewVBox(title, t.theirs, t.mine)
	t.changed.Hide()

	// The history is a plain column under the editor, the tab scrolling
	// as a whole: a note has tens of versions, not thousands, and the
	// editor keeps its room at any window height.
	t.history = container.NewVBox()
	t.noneYet = arrange.Wrapped(widget.NewLabel("No earlier versions."))
	t.noneYet.Importance = widget.LowImportance
	return t
}

func (t *Tab) Title() string { return "Internal note" }

// SaveButton is Save note, which Ctrl+S presses.
func (t *Tab) SaveButton() *widget.Button { return t.save }
func (t *Tab) Icon() fyne.Resource        { return theme.VisibilityOffIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	if t.root != nil {
		return t.root
	}
	heading := widget.NewLabelWithStyle("History", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.root = container.NewVScroll(container.NewPadded(container.NewVBox(t.banner, t.changed, t.text,
		container.NewBorder(nil, nil, t.counter, container.NewHBox(t.revert, t.save)), t.state,
		widget.NewSeparator(), heading, t.noneYet, t.history)))
	return t.root
}

// versionHeading says who wrote a version and when: "Dana Whitfield ·
// 14 Mar 10:02 · current".
func versionHeading(v api.NoteEntry, current bool) string {
	who := v.UpdatedBy
	if strings.TrimSpace(who) == "" {
		who = "Someone"
	}
	s := who
	if !v.ActionDate.IsZero() {
		s += " · " + format.Time(v.ActionDate)
	}
	if current {
		s += " · current"
	}
	return s
}

func (t *Tab) Show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	t.wo = wo
	n, err := t.replica.Note(context.Background(), wo.WorkOrderId)
	if err != nil {
		n = &storage.Note{}
	}
	t.note = n
	if switching {
		t.editing = false
	}
	// What the person is typing is theirs: a newer note arriving meanwhile
	// does not replace it (their edit keeps the note it began from, and is
	// asked about when sent).
	if !t.editing {
		t.base = n.Text
		t.setText(n.Text)
	}
	t.versions = t.versions[:0]
	for i := len(n.History) - 1; i >= 0; i-- {
		t.versions = append(t.versions, n.History[i])
	}
	arrange.ShowIf(len(t.versions) == 0, t.noneYet)
	t.history.Objects = t.history.Objects[:0]
	for i, v := range t.versions {
		who := widget.NewLabelWithStyle(versionHeading(v, i == 0), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		text := v.InternalNote
		if text == "" {
			text = "(cleared)"
		}
		t.history.Objects = append(t.history.Objects, who, arrange.Wrapped(widget.NewLabel(text)))
	}
	t.history.Refresh()
	t.showChanged()
	t.render()
}

// setText puts text in the entry without it counting as an edit.
func (t *Tab) setText(text string) {
	on := t.text.OnChanged
	t.text.OnChanged = nil
	t.text.SetText(text)
	t.text.OnChanged = on
	t.count()
}

func (t *Tab) onChanged(string) {
	if !t.editing {
		t.editing = true
	}
	t.count()
	t.render()
}

func (t *Tab) count() {
	n := len([]rune(t.text.Text))
	t.counter.SetText(fmt.Sprintf("%d / %d", n, api.MaxNoteLength))
	if n > api.MaxNoteLength {
		t.counter.Importance = widget.DangerImportance
	} else {
		t.counter.Importance = widget.LowImportance
	}
	t.counter.Refresh()
}

// render says where the note stands and enables what can be done.
func (t *Tab) render() {
	if t.wo == nil || t.note == nil {
		return
	}
	why := t.wo.CheckNote(t.text.Text)
	closed := t.wo.Can(api.EditNote)
	dirty := t.text.Text != t.base
	// An edit waiting for the person's choice holds the note's later
	// edits back: only its merge by hand may be saved meanwhile.
	merging := t.note.Changed != nil && t.win.Correcting(t.note.Changed.Id)
	t.win.Enable(t.save, why == nil && dirty && (t.note.Changed == nil || merging))
	t.win.Enable(t.revert, dirty)
	if closed != nil {
		t.text.Disable()
	} else {
		t.text.Enable()
	}
	n := t.note
	var state string
	switch {
	case closed != nil:
		state = format.Capital(closed.Error()) + "."
	case why != nil && dirty:
		state = format.Capital(why.Error()) + "."
		t.state.Importance = widget.DangerImportance
	case t.editing && n.Text != t.base:
		state = "Someone changed the note since you began: save, and you will be asked which one stays."
	case dirty:
		state = "Not saved yet."
	case n.Queued != nil:
		state = "Saved: waiting to be sent (" + format.Clock(n.Queued.Created) + ")."
		if actiontext.Waiting(*n.Queued) {
			state = "Saved: waiting for the connection to send it."
		}
	case n.Read.IsZero():
		state = "Not read from the service yet: connect to see the note as it stands."
	case n.Current.UpdatedBy != "" || !n.Current.ActionDate.IsZero():
		state = "Last changed by " + versionHeading(n.Current, false) + "."
	}
	if why == nil || !dirty {
		t.state.Importance = widget.LowImportance
	}
	t.state.SetText(state)
}

// showChanged shows an edit of ours stopped by a newer note, beside it.
func (t *Tab) showChanged() {
	n := t.note
	if n == nil || n.Changed == nil {
		t.changed.Hide()
		return
	}
	mine := ""
	if d, ok := n.Changed.Draft(""); ok {
		mine = d.Text
	}
	t.theirs.SetText(fmt.Sprintf("Theirs (%s): %s", versionHeading(n.Current, false), quoteNote(n.Current.InternalNote)))
	t.mine.SetText("Yours, not sent: " + quoteNote(mine))
	t.changed.Show()
}

func quoteNote(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(empty)"
	}
	return "“" + s + "”"
}

func (t *Tab) onRevert() {
	if t.note == nil {
		return
	}
	t.editing = false
	t.base = t.note.Text
	t.setText(t.note.Text)
	t.render()
}

func (t *Tab) onSave() {
	if t.wo == nil {
		return
	}
	t.win.WithPersonName(t.queueNote)
}

// queueNote queues the note as the entry holds it.
func (t *Tab) queueNote() {
	if t.wo == nil {
		return
	}
	text := t.text.Text
	if err := t.wo.CheckNote(text); err != nil {
		t.win.ShowError(err)
		return
	}
	queue, woID, base, number := t.queue, t.wo.WorkOrderId, t.base, t.wo.WorkOrderNumber
	rctx := t.win.Replacing(woID, outbox.GroupNote) // read now: a merge replaces the stopped edit
	t.win.Act([]fyne.Disableable{t.save}, func(context.Context) error {
		_, err := queue.SetNote(rctx, woID, text, base)
		return err
	}, func(err error) {
		if err != nil {
			t.win.ShowError(err)
			return
		}
		if t.wo != nil && t.wo.WorkOrderId == woID && t.text.Text == text {
			t.editing = false
			t.base = text
		}
		t.win.Queued("Internal note of " + number)
		t.win.Reload(woID)
	})
}

// HoldsOther reports whether the entry holds an edit of the person's, not
// saved, other than text: taking a stopped edit back would replace it.
func (t *Tab) HoldsOther(text string) bool {
	return t.editing && t.text.Text != t.base && t.text.Text != text
}

// Loaded reports whether the tab has read a work order's note.
func (t *Tab) Loaded() bool { return t.note != nil }

// MergeByHand puts in the editor the note as it stands, then mine (the
// edit stopped because the note changed), for the person to make one note
// of, the keyboard in it; saving it replaces the stopped edit.
func (t *Tab) MergeByHand(mine string) {
	theirs := t.note.Current.InternalNote
	merged := mine
	if strings.TrimSpace(theirs) != "" && theirs != mine {
		merged = theirs + "\n\n" + mine
	}
	t.base = theirs
	t.editing = true
	t.text.SetText(merged)
	if c := fyne.CurrentApp().Driver().CanvasForObject(t.text); c != nil {
		c.Focus(t.text)
	}
}
