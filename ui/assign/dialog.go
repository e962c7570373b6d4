package assign

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Who goes: the Visit tab (ui/visit) says who a work order is assigned
// to (or that the service does not say), and its Assign… opens the
// dialog here, to assign several people at once; the list's ticked rows
// are assigned together the same way.

// Dialog opens the Assign dialog over the window.
type Dialog struct {
	replica Replica
	queue   Queue
	win     Window
}

// New is the dialog, reading replica, queueing on queue and shown over win.
func New(replica Replica, queue Queue, win Window) *Dialog {
	return &Dialog{replica: replica, queue: queue, win: win}
}

// Show asks whom to assign to the work orders woIDs: the people of
// each of their branches, grouped by branch and by name within it (the
// same order every time), each with what they are; for one work order its
// people are ticked already, and unticking takes them off. preset ticks
// these instead (a refused assignment being corrected). Several work
// orders are assigned where their branch allows (assignWhereAllowed).
func (d *Dialog) Show(woIDs []int64, preset []int64) {
	ctx := context.Background()
	orders := map[int64][]string{} // branch → the work orders of woIDs in it
	var current []int64
	for _, id := range woIDs {
		p, err := d.replica.Pending(ctx, id)
		if err != nil {
			d.win.ShowError(err)
			return
		}
		orders[p.Expected.BranchId] = append(orders[p.Expected.BranchId], p.Expected.Name())
		if len(woIDs) == 1 {
			who, _ := p.Expected.Assigned()
			for _, a := range who {
				current = append(current, a.Id)
			}
		}
	}
	groups, note, err := d.crewGroups(ctx, orders)
	if err != nil {
		d.win.ShowError(err)
		return
	}
	ticked := slices.Clone(current)
	if preset != nil {
		ticked = slices.Clone(preset)
	}
	boxes := container.NewVBox()
	checks := map[int64][]*dialogs.Check{} // one person listed under several branches ticks as one
	people := 0
	for _, g := range groups {
		boxes.Add(widget.NewLabelWithStyle(g.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, a := range g.people {
			id := a.Id
			check := dialogs.NewCheck(format.Associate(a), func(on bool) {
				if on && !slices.Contains(ticked, id) {
					ticked = append(ticked, id)
				} else if !on {
					ticked = slices.DeleteFunc(ticked, func(x int64) bool { return x == id })
				}
				for _, c := range checks[id] {
					if c.Checked != on {
						c.SetChecked(on)
					}
				}
			})
			check.Checked = slices.Contains(ticked, id)
			checks[id] = append(checks[id], check)
			boxes.Add(check)
			people++
		}
	}
	what := "Who goes to this work order?"
	if len(woIDs) > 1 {
		what = fmt.Sprintf("Whom to assign to the %d ticked work orders? (Those already on them stay. A work order gets only those of its branch.)", len(woIDs))
	}
	intro := arrange.Wrapped(widget.NewLabel(what))
	var top fyne.CanvasObject = intro
	if note != "" {
		n := arrange.Wrapped(widget.NewLabel(note))
		n.Importance = widget.LowImportance
		top = container.NewVBox(intro, n)
	}
	if people == 0 {
		boxes.Add(arrange.Wrapped(widget.NewLabel("Nobody is listed for this branch yet. Sync (" + d.win.ShortcutLabel("R") + ") to read its technicians and subcontractors.")))
	}
	title := "Assign"
	if len(woIDs) > 1 {
		title = fmt.Sprintf("Assign to %d work orders", len(woIDs))
	}
	dlg := dialogs.NewCustomConfirm(title, "Save", "Cancel", container.NewBorder(top, nil, nil, nil, container.NewVScroll(boxes)), func(ok bool) {
		if !ok {
			if preset != nil {
				d.win.StopCorrecting()
			}
			return
		}
		var add, drop []int64
		for _, id := range ticked {
			if !slices.Contains(current, id) {
				add = append(add, id)
			}
		}
		for _, id := range current {
			if !slices.Contains(ticked, id) {
				drop = append(drop, id)
			}
		}
		if len(woIDs) > 1 {
			d.assignWhereAllowed(woIDs, add)
			return
		}
		d.assign(woIDs, add, drop)
	}, d.win.Window())
	dlg.Resize(fyne.NewSize(480, 520))
	dlg.Show()
}

// crewGroup is one branch's people in the Assign dialog.
type crewGroup struct {
	title  string
	people []api.Associate
}

// crewGroups lists who may go to work of each branch of orders (branch →
// its work orders' numbers): its list as the last sync read it, by name.
// A branch whose list was never read offers everyone listed anywhere,
// said so: the service judges.
func (d *Dialog) crewGroups(ctx context.Context, orders map[int64][]string) ([]crewGroup, string, error) {
	branches := slices.Sorted(maps.Keys(orders))
	byName := func(a, b api.Associate) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return cmp.Compare(a.Id, b.Id)
	}
	var out []crewGroup
	var everyone []api.Associate // read once, for the branches never read
	note := ""
	for _, b := range branches {
		title := "Branch " + strconv.FormatInt(b, 10)
		if b == 0 {
			title = "Branch not known"
		}
		if len(orders) > 1 || len(orders[b]) > 1 {
			title += " · " + strings.Join(orders[b], ", ")
		}
		list, known, err := d.replica.Associates(ctx, b)
		if err != nil {
			return nil, "", err
		}
		if !known || len(list) == 0 {
			// An empty list locks nothing: everyone known is offered.
			if everyone == nil {
				all, err := d.replica.AllAssociates(ctx)
				if err != nil {
					return nil, "", err
				}
				everyone = []api.Associate{}
				for _, c := range all {
					everyone = append(everyone, c.Associate)
				}
				slices.SortFunc(everyone, byName)
			}
			list = everyone
			title += " · not listed yet: everyone known"
			note = "The service has not listed this branch's people yet: everyone known is offered, and the service will refuse anyone who does not work for it."
		} else {
			list = slices.SortedFunc(slices.Values(list), byName)
		}
		out = append(out, crewGroup{title: title, people: list})
	}
	return out, note, nil
}

// assignWhereAllowed queues assigning add to each of woIDs whose branch
// and status allow it, and says per work order what could not be
// (storage.AssignWhereAllowed). Those assigned are unticked; a work
// order left out whole stays ticked, to be seen to.
func (d *Dialog) assignWhereAllowed(woIDs, add []int64) {
	if len(add) == 0 {
		return
	}
	var rows []*storage.OutboxRow
	var left []storage.LeftOut
	var names map[int64]api.Associate
	d.win.Act(d.win.AssignControls(woIDs), func(ctx context.Context) (err error) {
		rows, left, err = d.queue.AssignWhereAllowed(ctx, woIDs, add)
		names = d.replica.AssociatesByID(ctx)
		return err
	}, func(err error) {
		var done []int64
		for _, r := range rows {
			done = append(done, r.WorkOrderIds...)
		}
		d.win.Untick(done)
		if err != nil && len(rows) == 0 && len(left) == 0 {
			d.win.ShowError(err)
			return
		}
		var what []string
		for _, r := range rows {
			what = append(what, r.Summary)
		}
		if len(rows) > 0 {
			d.win.Queued(strings.Join(what, "; "))
		}
		if len(left) == 0 && err == nil {
			return
		}
		d.showAssignLeftOut(len(woIDs), len(done), what, left, names, err)
	})
}

// showAssignLeftOut says, per work order, what an assignment of several
// could not do and why, beside what it queued: guidance, not an error.
func (d *Dialog) showAssignLeftOut(asked, assigned int, queued []string, left []storage.LeftOut, names map[int64]api.Associate, err error) {
	title := fmt.Sprintf("Assigned to %d of %d work orders", assigned, asked)
	if assigned == 0 {
		title = "Nothing was assigned"
	}
	var lines []string
	if len(queued) > 0 {
		lines = append(lines, "Queued: "+strings.Join(queued, "; ")+".")
	}
	for _, l := range left {
		s := format.Capital(strings.TrimSuffix(strings.TrimSpace(l.Why), "."))
		if !strings.HasPrefix(s, l.Number) && !strings.Contains(s, l.Number) {
			s = l.Number + ": " + s
		}
		if len(l.Assigned) > 0 {
			verb := "is"
			if len(l.Assigned) > 1 {
				verb = "are"
			}
			s += "; " + storage.NameAssociates(l.Assigned, names) + " " + verb + " assigned to it."
		} else {
			s += ": nothing was assigned to it."
		}
		lines = append(lines, s)
	}
	if err != nil {
		lines = append(lines, "Not queued: "+format.Sentence(err.Error()))
	}
	body := arrange.Wrapped(widget.NewLabel(strings.Join(lines, "\n")))
	dlg := dialogs.NewCustom(title, "Close", container.NewVScroll(body), d.win.Window())
	dlg.Resize(fyne.NewSize(520, float32(min(420, 120+60*len(lines)))))
	dlg.Show()
}

// assign queues assigning add to woIDs and taking drop off them.
func (d *Dialog) assign(woIDs, add, drop []int64) {
	if len(add) == 0 && len(drop) == 0 {
		d.win.StopCorrectingIfAny()
		return
	}
	rctx := context.Background()
	if len(woIDs) == 1 {
		rctx = d.win.Replacing(woIDs[0], outbox.GroupCrew) // read now: a correction replaces the refused one
	}
	var rows []*storage.OutboxRow
	d.win.Act(d.win.AssignControls(woIDs), func(context.Context) error {
		if len(drop) > 0 {
			r, err := d.queue.Unassign(rctx, woIDs, drop)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		if len(add) > 0 {
			r, err := d.queue.Assign(rctx, woIDs, add)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return nil
	}, func(err error) {
		if err != nil {
			d.win.ShowError(err)
			return
		}
		if len(woIDs) == 1 {
			d.win.Corrected(woIDs[0], outbox.GroupCrew)
		}
		if len(woIDs) > 1 {
			d.win.Untick(woIDs)
		}
		var what []string
		for _, r := range rows {
			what = append(what, r.Summary)
		}
		d.win.Queued(strings.Join(what, "; "))
	})
}
