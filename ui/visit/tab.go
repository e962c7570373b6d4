package visit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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

// Tab sets the scheduled start and records check-in, pause and check-out.
type Tab struct {
	replica Replica
	queue   Queue
	win     Window

	wo *api.WorkOrder

	crew *crewSection // who goes (crew.go)

	schedDate *xwidget.DateEntry
	schedTime *xwidget.TimePicker
	schedSave *widget.Button
	schedNow  *widget.Label
	schedWhy  *widget.Label // why the scheduled start cannot be set now

	when      *widget.RadioGroup
	backDate  *xwidget.DateEntry
	backTime  *xwidget.TimePicker
	backBox   *fyne.Container
	checkIn   *widget.Button
	pause     *widget.Button
	checkOut  *widget.Button
	rules     *widget.Label
	lastState *widget.Label

	// What the customer requires (checkout.go).
	settings        *api.CustomerSettings
	form            *completionForm
	formFor         int64
	formStatus      api.WorkOrderStatus
	completeDetails *widget.Button
	backNote        *widget.Label
}

const (
	whenNow     = "Now"
	whenEarlier = "Earlier (back-date)"
)

// New is the tab, reading replica, queueing the visit's actions on queue
// and acting through win.
func New(replica Replica, queue Queue, win Window) *Tab {
	t := &Tab{replica: replica, queue: queue, win: win}
	t.crew = newCrewSection(replica, win)
	t.schedDate = xwidget.NewDateEntry(format.Calendar{})
	t.schedTime = xwidget.NewTimePicker()
	t.schedSave = widget.NewButtonWithIcon("Set scheduled start", theme.HistoryIcon(), t.onSchedule)
	t.schedNow = arrange.Wrapped(widget.NewLabel(""))
	t.schedWhy = widget.NewLabel("")
	t.schedWhy.Wrapping = fyne.TextWrapWord
	t.schedWhy.Importance = widget.LowImportance
	t.schedWhy.Hide()

	t.backDate = xwidget.NewDateEntry(format.Calendar{})
	t.backTime = xwidget.NewTimePicker()
	t.backBox = dateAndTime(t.backDate, t.backTime)
	t.backBox.Hide()
	t.when = widget.NewRadioGroup([]string{whenNow, whenEarlier}, func(s string) {
		if s == whenEarlier {
			// Start from now: a back-date is usually minutes or hours ago.
			if t.backDate.Date == nil {
				now := format.Now().In(time.Local)
				t.backDate.SetDate(&now)
				t.backTime.SetTime(now)
			}
			t.backBox.Show()
		} else {
			t.backBox.Hide()
		}
	})
	t.when.SetSelected(whenNow)
	t.checkIn = widget.NewButtonWithIcon("Check in", theme.LoginIcon(), func() { t.onVisit("Check in", t.visitWrite(Queue.CheckIn), nil) })
	t.checkIn.Importance = widget.HighImportance
	t.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), func() { t.onVisit("Pause", t.visitWrite(Queue.Pause), nil) })
	t.checkOut = widget.NewButtonWithIcon("Check out", theme.LogoutIcon(), func() { t.onVisit("Check out", t.checkOutWrite, t.confirmCheckOut) })
	t.rules = widget.NewLabel("")
	t.rules.Wrapping = fyne.TextWrapWord
	t.rules.Importance = widget.LowImportance
	t.lastState = widget.NewLabel("")
	t.lastState.Wrapping = fyne.TextWrapWord
	t.form = newCompletionForm()
	t.completeDetails = newCompleteDetailsButton(t)
	t.backNote = arrange.Wrapped(widget.NewLabel(""))
	t.backNote.Importance = widget.LowImportance
	t.backNote.Hide()
	return t
}

func (t *Tab) Title() string       { return "Visit" }
func (t *Tab) Icon() fyne.Resource { return theme.AccountIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	sched := container.NewVBox(
		arrange.Heading("Scheduled start"), t.schedNow,
		dateAndTime(t.schedDate, t.schedTime),
		container.NewHBox(t.schedSave), t.schedWhy,
		arrange.Wrapped(widget.NewLabelWithStyle("Local time ("+time.Now().Format("MST")+"). The customer is told through an appointment notification.",
			fyne.TextAlignLeading, fyne.TextStyle{Italic: true})),
	)
	visit := container.NewVBox(
		arrange.Heading("On site"),
		widget.NewLabel("When did it happen?"), t.when, t.backNote, t.backBox,
		t.form.box,
		t.rules,
	)
	body := container.NewVBox(t.crew.content(), widget.NewSeparator(), sched, widget.NewSeparator(), visit)
	t.form.relayout = func() { arrange.Relayout(body) }
	// The visit's buttons and what the last one did stay in sight below
	// the form, however long the completion details a customer asks for;
	// on a narrow pane they wrap to a second row.
	buttons := arrange.NewWrapRow(t.checkIn, t.pause, t.checkOut, t.completeDetails)
	actions := container.NewVBox(widget.NewSeparator(), buttons, t.lastState)
	tab := container.NewBorder(nil, container.NewPadded(actions), nil, nil, container.NewVScroll(container.NewPadded(body)))
	buttons.Layout.(*arrange.WrapRow).OnRowsChanged = func() { arrange.Relayout(tab) }
	return tab
}

func (t *Tab) Show(wo *api.WorkOrder) {
	switching := t.wo == nil || t.wo.WorkOrderId != wo.WorkOrderId
	t.wo = wo
	t.crew.show(wo)
	t.schedNow.SetText("Currently: " + format.Scheduled(wo))
	if switching {
		if s := wo.ScheduledStart(); !s.IsZero() {
			lt := s.In(time.Local)
			t.schedDate.SetDate(&lt)
			t.schedTime.SetTime(lt)
		} else {
			t.schedDate.SetDate(nil)
			t.schedTime.Clear()
		}
		// A back-dated time belongs to one visit: never offer another
		// work order's date and time.
		t.when.SetSelected(whenNow)
		t.backDate.SetDate(nil)
		t.backTime.Clear()
	}
	t.win.Enable(t.checkIn, wo.Can(api.CheckIn) == nil)
	t.win.Enable(t.pause, wo.Can(api.Pause) == nil)
	t.win.Enable(t.checkOut, wo.Can(api.CheckOut) == nil)
	why := ""
	if err := wo.Can(api.SetAppointment); err != nil {
		why = format.Capital(err.Error()) + "."
	}
	for _, w := range []fyne.Disableable{t.schedSave, t.schedDate, t.schedTime.Hour, t.schedTime.Minute} {
		t.win.Enable(w, why == "")
	}
	t.schedWhy.SetText(why)
	if why == "" {
		t.schedWhy.Hide()
	} else {
		t.schedWhy.Show()
	}
	t.showSettings(wo)
	t.rules.SetText(visitRules(wo.Status))
	t.lastState.SetText(t.lastAction(wo.WorkOrderId))
}

// visitRules explains which visit actions the status allows, and why not the others.
func visitRules(s api.WorkOrderStatus) string {
	if s.Closed() {
		return "Nothing can be done on a " + strings.ToLower(format.Status(s)) + " work order."
	}
	switch s {
	case api.StatusNew:
		return "Accept the work order first: check-in is possible once it is Accepted."
	case api.StatusAccepted:
		return "Check in when the technician arrives. Pause and check-out become available after check-in."
	case api.StatusCheckedIn:
		return "The technician is on site: pause (e.g. at the end of the day) or check out when the work is done."
	case api.StatusPaused:
		return "Paused: check in again to resume the work."
	case api.StatusNeedsCompletionDetails:
		return "Checked out without the details the customer requires: fill them in and Complete details. The invoice can be submitted after that."
	case api.StatusCheckedOut, api.StatusVerified:
		return "The visit is complete: checked out."
	case api.StatusOnHold:
		return "The customer put this work order on hold: no visit actions until they release it."
	}
	return ""
}

// parseLocal reads a picked date and time of day as local time.
func parseLocal(date *time.Time, at *xwidget.TimePicker) (time.Time, error) {
	if date == nil {
		return time.Time{}, errors.New("pick a date")
	}
	h, m, ok := at.Value()
	if !ok {
		return time.Time{}, errors.New("pick the hour and the minute")
	}
	d := date.In(time.Local)
	return time.Date(d.Year(), d.Month(), d.Day(), h, m, 0, 0, time.Local), nil
}

// actualActionDate is nil for "now", or the back-dated moment, refused in the future.
func actualActionDate(when string, date *time.Time, at *xwidget.TimePicker, now time.Time) (*time.Time, error) {
	if when != whenEarlier {
		return nil, nil
	}
	t, err := parseLocal(date, at)
	if err != nil {
		return nil, err
	}
	if t.After(now) {
		return nil, fmt.Errorf("%s is in the future: a visit can only be back-dated", format.Time(t))
	}
	return &t, nil
}

// visitWrite is the store write of a check-in or pause (queue) of the work
// order shown when tapped, at the moment chosen; it carries nothing else
// from the form.
func (t *Tab) visitWrite(queue func(Queue, context.Context, int64, *time.Time, string) (*storage.OutboxRow, error)) func(*time.Time) (func(context.Context) error, error) {
	q, woID := t.queue, t.wo.WorkOrderId
	return func(at *time.Time) (func(context.Context) error, error) {
		rctx := t.win.Replacing(woID, outbox.GroupVisit) // read now: a correction replaces the refused one
		return func(context.Context) error { _, err := queue(q, rctx, woID, at, ""); return err }, nil
	}
}

// onVisit queues the visit action the button labelled action stands for:
// write makes its store write for the moment chosen (or says what is
// missing), and confirm, if set, may first ask the person (running queue
// on yes) and reports whether it did.
func (t *Tab) onVisit(action string, write func(at *time.Time) (func(context.Context) error, error), confirm func(queue func()) bool) {
	wo := t.wo
	at, err := actualActionDate(t.when.Selected, t.backDate.Date, t.backTime, format.Now())
	if err != nil {
		t.win.ShowError(err)
		return
	}
	queue := func() {
		woID := wo.WorkOrderId
		w, err := write(at)
		if err != nil {
			t.win.ShowError(err)
			return
		}
		// All three wait: a pause tapped while the check-in is still
		// being queued would be judged before it.
		t.win.Act([]fyne.Disableable{t.checkIn, t.pause, t.checkOut}, w, t.queued(woID, func() { t.when.SetSelected(whenNow) }))
	}
	if at == nil && t.confirmRealTime(action, queue) {
		return
	}
	if confirm != nil && confirm(queue) {
		return
	}
	queue()
}

func (t *Tab) onSchedule() {
	at, err := parseLocal(t.schedDate.Date, t.schedTime)
	if err != nil {
		t.win.ShowError(err)
		return
	}
	q, woID, pte := t.queue, t.wo.WorkOrderId, t.win.KeptPte(t.wo)
	rctx := t.win.Replacing(woID, outbox.GroupWorkOrder) // read now: a correction replaces the refused one
	t.win.Act([]fyne.Disableable{t.schedSave}, func(context.Context) error {
		_, err := q.SetAppointment(rctx, woID, at, pte)
		return err
	}, t.queued(woID, nil))
}

// showing reports whether the tab still shows work order woID: an action
// queued in the background may come back after the person opened another,
// whose form must not be reset or relabelled by it.
func (t *Tab) showing(woID int64) bool { return t.wo != nil && t.wo.WorkOrderId == woID }

// queued is the end of a visit action written in the background: an error
// is shown; success relabels the form (and resets it with reset) only if it
// still shows woID.
func (t *Tab) queued(woID int64, reset func()) func(error) {
	return func(err error) {
		if err != nil {
			t.win.ShowError(err)
			return
		}
		if t.showing(woID) {
			if reset != nil {
				reset()
			}
			t.lastState.SetText(t.lastAction(woID))
		}
	}
}

// dateAndTime puts a date picker and the hour and minute selects on one line.
func dateAndTime(date *xwidget.DateEntry, at *xwidget.TimePicker) *fyne.Container {
	return container.NewBorder(nil, nil, nil, at, date)
}

// EditSchedule puts a refused scheduled start back into its pickers.
func (t *Tab) EditSchedule(at *time.Time) {
	if at == nil {
		return
	}
	lt := at.In(time.Local)
	t.schedDate.SetDate(&lt)
	t.schedTime.SetTime(lt)
}

// EditVisit puts the moment of a refused check-in, pause or check-out back:
// the back-dated time, or "now" for one recorded as it was sent.
func (t *Tab) EditVisit(at *time.Time) {
	if at == nil {
		t.when.SetSelected(whenNow)
		return
	}
	lt := at.In(time.Local)
	t.when.SetSelected(whenEarlier)
	t.backDate.SetDate(&lt)
	t.backTime.SetTime(lt)
}

// lastAction describes the newest of our actions on work order woID.
func (t *Tab) lastAction(woID int64) string {
	rows, err := t.replica.OutboxRows(context.Background(), woID)
	if err != nil || len(rows) == 0 {
		return ""
	}
	latest := rows[0]
	for _, r := range rows {
		if r.Created.After(latest.Created) || (r.Created.Equal(latest.Created) && r.Id > latest.Id) {
			latest = r
		}
	}
	return "Last action: " + actiontext.What(latest) + " — " + actiontext.State(latest)
}

// CheckInButton and CheckOutButton are what the window's shortcuts press;
// AssignButton is what an assignment being queued keeps disabled.
func (t *Tab) CheckInButton() *widget.Button  { return t.checkIn }
func (t *Tab) CheckOutButton() *widget.Button { return t.checkOut }
func (t *Tab) AssignButton() *widget.Button   { return t.crew.change }
