package board

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// The keyboard's way to plan: select a work order (in the waiting list, or
// a block), Plan visit…, choose the technician, the day and the time, and
// Enter. The time field has the focus, so "Plan visit…, Enter" plans the
// visit the dialog proposes.

// FocusWaiting gives the waiting list the keyboard, as the board opens:
// the person starts where the work to plan is (Up, Down, Space, then
// Plan visit…), not ten Tabs away past the toolbar.
func (b *Board) FocusWaiting() {
	if c := b.opts.Window.Canvas(); c != nil {
		c.Focus(b.waiting)
	}
}

// PlanSelected opens Plan visit… for the selected work order; with none
// selected and the keyboard in the waiting list, for the one its ring is
// on. The board opens with the ring on the first waiting work order, drawn
// as a selection is, and Ctrl+P there said "Select a work order first"
// (issue 38's second tryout).
func (b *Board) PlanSelected() {
	if b.visit(b.selected) == nil && b.waiting.focused && b.week != nil &&
		b.waiting.current >= 0 && b.waiting.current < len(b.week.Waiting) {
		b.waiting.Select(b.waiting.current)
	}
	v := b.visit(b.selected)
	if v == nil {
		b.say("Select a work order first: tap it, or pick it in the list on the right (Up, Down and Space).", true)
		return
	}
	var names []string
	var techs []int64
	current := int64(0)
	for _, r := range b.rows {
		names = append(names, r.label)
		techs = append(techs, r.tech)
		for _, a := range v.Assigned {
			if a.Id == r.tech && current == 0 {
				current = r.tech
			}
		}
	}
	tech := widget.NewSelect(names, nil)
	pick := 0
	for i, id := range techs {
		if id == current {
			pick = i
		}
	}
	if current == 0 {
		// The first technician of the work order's branch: planning is
		// usually for someone who may go.
		for i, r := range b.rows {
			if r.tech != 0 && r.crew.Technician() && (v.BranchId == 0 || slices.Contains(r.crew.Branches, v.BranchId)) {
				pick = i
				break
			}
		}
	}
	tech.SetSelectedIndex(pick)

	week := weekStart(b.day)
	var dayNames []string
	for i := range 7 {
		dayNames = append(dayNames, week.AddDate(0, 0, i).Format("Mon 2 Jan"))
	}
	day := widget.NewSelect(dayNames, nil)
	start := v.Start
	if start.IsZero() || dayOf(start).Before(week) || !dayOf(start).Before(week.AddDate(0, 0, 7)) {
		start = time.Time{}
	}
	d := dayOf(b.opts.Now())
	switch {
	case !start.IsZero():
		d = dayOf(start)
	case b.zoom == ZoomDay:
		d = b.day
	case d.Before(week) || !d.Before(week.AddDate(0, 0, 7)):
		d = week
	}
	day.SetSelectedIndex(int(d.Sub(week).Hours()/24 + 0.5))
	at := dialogs.NewEntry() // Esc cancels and Enter plans while it has the keyboard
	at.SetPlaceHolder("HH:MM")
	at.SetText("09:00")
	if !start.IsZero() {
		at.SetText(start.In(time.Local).Format("15:04"))
	}
	at.Validator = func(s string) error { _, err := parseClock(s); return err }
	items := []*widget.FormItem{
		widget.NewFormItem("Technician", tech),
		widget.NewFormItem("Day", day),
		widget.NewFormItem("Time", at),
	}
	items[2].HintText = fmt.Sprintf("Working hours %d:00–%d:00; a visit is taken to last %s", DayFrom, DayTo, lengthText(b.length))
	woID, from := v.WorkOrderId, current
	var dlg *dialogs.Form
	dlg = dialogs.NewForm("Plan visit: "+v.Number, "Plan", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		h, err := parseClock(at.Text)
		if err != nil || tech.SelectedIndex() < 0 || day.SelectedIndex() < 0 {
			return
		}
		when := week.AddDate(0, 0, day.SelectedIndex()).Add(h)
		b.Drop(woID, from, techs[tech.SelectedIndex()], when)
	}, b.opts.Window)
	at.OnSubmitted = func(string) { dlg.Submit() }
	dlg.Resize(fyne.NewSize(440, 280))
	dlg.Show()
	if c := b.opts.Window.Canvas(); c != nil {
		c.Focus(at)
	}
}

// parseClock reads "9:30", "09:30" or "930" as a time of day.
func parseClock(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var h, m int
	switch {
	case strings.Contains(s, ":"):
		if _, err := fmt.Sscanf(s, "%d:%d", &h, &m); err != nil {
			return 0, errors.New("type the time as HH:MM, e.g. 09:30")
		}
	case len(s) == 3 || len(s) == 4:
		if _, err := fmt.Sscanf(s, "%d", &h); err != nil {
			return 0, errors.New("type the time as HH:MM, e.g. 09:30")
		}
		h, m = h/100, h%100
	default:
		return 0, errors.New("type the time as HH:MM, e.g. 09:30")
	}
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, errors.New("that is not a time of day")
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil
}

// askAboutRefusals asks, once each, about the plans held behind a refused
// action (an assignment the service refused holds the appointment queued
// after it): discard both, or let the appointment go without it.
func (b *Board) askAboutRefusals() {
	if b.week == nil {
		return
	}
	for _, v := range b.week.Visits {
		if v.HeldBy != 0 && !b.asked[v.HeldBy] {
			b.asked[v.HeldBy] = true
			b.askAbout(v.HeldBy, v.Number)
			return // one question at a time; the next reload asks the next
		}
	}
}

// askAbout asks what to do with refused row rowID of work order number.
func (b *Board) askAbout(rowID int64, number string) {
	planner, win := b.planner, b.opts.Window
	b.opts.Background(func() {
		r, err := planner.Refusal(context.Background(), rowID)
		b.opts.Do(func() {
			if err != nil {
				return // gone meanwhile (retried, discarded)
			}
			held := "nothing else"
			if len(r.Held) > 0 {
				held = strings.Join(r.Held, ", ")
			}
			msg := widget.NewLabel(fmt.Sprintf("The service refused “%s” on %s:\n%s\n\nWaiting behind it, not sent: %s.\n\nSend what waits without it, or discard the whole plan?",
				r.What, number, r.Why, held))
			msg.Wrapping = fyne.TextWrapWord
			var dlg dialog.Dialog
			resolve := func(dropHeld bool) {
				dlg.Hide()
				b.opts.Background(func() {
					err := planner.Resolve(context.Background(), rowID, dropHeld)
					b.opts.Do(func() {
						if err != nil {
							b.fail(err)
							return
						}
						b.Reload()
					})
				})
			}
			send := dialogs.NewButton("Send without it", nil, func() { resolve(false) })
			send.Importance = widget.HighImportance
			drop := dialogs.NewButton("Discard the plan", nil, func() { resolve(true) })
			drop.Importance = widget.DangerImportance
			later := dialogs.NewButton("Decide later", nil, func() { dlg.Hide() })
			dlg = dialog.NewCustomWithoutButtons("A planned visit is held",
				container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), later, drop, send), nil, nil, msg), win)
			dlg.Resize(fyne.NewSize(520, 300))
			dlg.Show()
			b.say(fmt.Sprintf("%s: the service refused “%s”; what was planned after it waits.", number, r.What), true)
		})
	})
}
