package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Who goes: the Visit tab says who a work order is assigned to (or that
// the service does not say), and Assign… changes it, several people at
// once; the list's ticked rows are assigned together the same way.

// crewSection is the Visit tab's "Who goes".
type crewSection struct {
	d      *Desk
	wo     *api.WorkOrder
	who    *widget.Label
	why    *widget.Label
	change *widget.Button
}

func newCrewSection(d *Desk) *crewSection {
	c := &crewSection{d: d, who: arrange.Wrapped(widget.NewLabel("")), why: arrange.Wrapped(widget.NewLabel(""))}
	c.why.Importance = widget.LowImportance
	c.why.Hide()
	c.change = widget.NewButtonWithIcon("Assign…", theme.AccountIcon(), func() {
		if c.wo != nil {
			d.showAssign([]int64{c.wo.WorkOrderId}, nil)
		}
	})
	return c
}

func (c *crewSection) content() fyne.CanvasObject {
	return container.NewVBox(arrange.Heading("Who goes"), c.who, container.NewHBox(c.change), c.why)
}

func (c *crewSection) show(wo *api.WorkOrder) {
	c.wo = wo
	who, known := wo.Assigned()
	switch {
	case !known:
		c.who.SetText("Not known: the service does not say who is assigned.")
	case len(who) == 0:
		c.who.SetText("Nobody is assigned yet.")
	default:
		var names []string
		for _, a := range who {
			names = append(names, associateText(a))
		}
		c.who.SetText(strings.Join(names, ", "))
	}
	why := ""
	if err := wo.Can(api.Assign); err != nil {
		why = format.Capital(err.Error()) + "."
	}
	c.d.enable(c.change, why == "")
	c.why.SetText(why)
	if why == "" {
		c.why.Hide()
	} else {
		c.why.Show()
	}
}

// associateText names an associate with what they are: "Kenji Sato
// (technician)", "Delta Roofing (subcontractor)".
func associateText(a api.Associate) string {
	switch a.Type {
	case api.AssociateCruMember:
		return a.Name + " (technician)"
	case api.AssociateSubcontractor:
		return a.Name + " (subcontractor)"
	case "":
		return a.Name
	}
	return a.Name + " (" + string(a.Type) + ")"
}

// assignedText is the list's Assigned cell: a name, or several people's
// initials; "unknown" where the service did not say, never "nobody".
func assignedText(a storage.Assignees) string {
	switch {
	case !a.Known:
		return "unknown"
	case len(a.Who) == 0:
		return "—"
	case len(a.Who) == 1:
		return a.Who[0].Name
	}
	var in []string
	for _, p := range a.Who {
		in = append(in, p.Initials())
	}
	return strings.Join(in, ", ")
}

// showAssign asks whom to assign to the work orders woIDs: everyone their
// branches have, technicians first; for one work order its people are
// ticked already, and unticking takes them off. preset ticks these
// instead (a refused assignment being corrected).
func (d *Desk) showAssign(woIDs []int64, preset []int64) {
	ctx := context.Background()
	var branches []int64
	var current []int64
	for _, id := range woIDs {
		p, err := d.store.Pending(ctx, id)
		if err != nil {
			d.showError(err)
			return
		}
		if !slices.Contains(branches, p.Expected.BranchId) {
			branches = append(branches, p.Expected.BranchId)
		}
		if len(woIDs) == 1 {
			who, _ := p.Expected.Assigned()
			for _, a := range who {
				current = append(current, a.Id)
			}
		}
	}
	people, note, err := d.crewFor(ctx, branches)
	if err != nil {
		d.showError(err)
		return
	}
	ticked := slices.Clone(current)
	if preset != nil {
		ticked = slices.Clone(preset)
	}
	boxes := container.NewVBox()
	var lastType api.AssociateType = "-"
	for _, a := range people {
		if a.Type != lastType {
			lastType = a.Type
			title := "Technicians"
			if a.Type == api.AssociateSubcontractor {
				title = "Subcontractors"
			} else if a.Type != api.AssociateCruMember {
				title = "Others"
			}
			boxes.Add(widget.NewLabelWithStyle(title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		}
		id := a.Id
		check := widget.NewCheck(a.Name, func(on bool) {
			if on && !slices.Contains(ticked, id) {
				ticked = append(ticked, id)
			} else if !on {
				ticked = slices.DeleteFunc(ticked, func(x int64) bool { return x == id })
			}
		})
		check.Checked = slices.Contains(ticked, id)
		boxes.Add(check)
	}
	what := "Who goes to this work order?"
	if len(woIDs) > 1 {
		what = fmt.Sprintf("Whom to assign to the %d ticked work orders? (Those already on them stay.)", len(woIDs))
	}
	intro := arrange.Wrapped(widget.NewLabel(what))
	var top fyne.CanvasObject = intro
	if note != "" {
		n := arrange.Wrapped(widget.NewLabel(note))
		n.Importance = widget.LowImportance
		top = container.NewVBox(intro, n)
	}
	if len(people) == 0 {
		boxes.Add(arrange.Wrapped(widget.NewLabel("Nobody is listed for this branch yet. Sync (" + shortcutLabel("R") + ") to read its technicians and subcontractors.")))
	}
	title := "Assign"
	if len(woIDs) > 1 {
		title = fmt.Sprintf("Assign to %d work orders", len(woIDs))
	}
	dlg := dialog.NewCustomConfirm(title, "Save", "Cancel", container.NewBorder(top, nil, nil, nil, container.NewVScroll(boxes)), func(ok bool) {
		if !ok {
			if preset != nil {
				d.stopCorrecting()
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
		d.assign(woIDs, add, drop)
	}, d.win)
	dlg.Resize(fyne.NewSize(440, 480))
	dlg.Show()
}

// crewFor lists who may go to work of branches: their lists as the last
// sync read them. A branch whose list was never read offers everyone
// listed anywhere, said so: the service judges.
func (d *Desk) crewFor(ctx context.Context, branches []int64) ([]api.Associate, string, error) {
	var out []api.Associate
	unread := false
	for _, b := range branches {
		list, known, err := d.store.Associates(ctx, b)
		if err != nil {
			return nil, "", err
		}
		if !known || len(list) == 0 {
			unread = true // an empty list locks nothing: everyone known is offered
			continue
		}
		for _, a := range list {
			if !slices.ContainsFunc(out, func(x api.Associate) bool { return x.Id == a.Id }) {
				out = append(out, a)
			}
		}
	}
	note := ""
	if unread {
		all, err := d.store.AllAssociates(ctx)
		if err != nil {
			return nil, "", err
		}
		for _, c := range all {
			if !slices.ContainsFunc(out, func(x api.Associate) bool { return x.Id == c.Id }) {
				out = append(out, c.Associate)
			}
		}
		note = "The service has not listed this branch's people yet: everyone known is offered, and the service will refuse anyone who does not work for it."
	}
	slices.SortStableFunc(out, func(a, b api.Associate) int {
		if (a.Type == api.AssociateCruMember) != (b.Type == api.AssociateCruMember) {
			if a.Type == api.AssociateCruMember {
				return -1
			}
			return 1
		}
		return strings.Compare(string(a.Type), string(b.Type))
	})
	return out, note, nil
}

// assign queues assigning add to woIDs and taking drop off them.
func (d *Desk) assign(woIDs, add, drop []int64) {
	if len(add) == 0 && len(drop) == 0 {
		d.stopCorrectingIfAny()
		return
	}
	store := d.store
	rctx := context.Background()
	if len(woIDs) == 1 {
		rctx = d.actionCtx(woIDs[0], outbox.GroupCrew) // read now: a correction replaces the refused one
	}
	var rows []*storage.OutboxRow
	d.act(d.crewControls(woIDs), func(context.Context) error {
		if len(drop) > 0 {
			r, err := store.Unassign(rctx, woIDs, drop)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		if len(add) > 0 {
			r, err := store.Assign(rctx, woIDs, add)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return nil
	}, func(err error) {
		if err != nil {
			d.showError(err)
			return
		}
		if d.correcting != nil && len(woIDs) == 1 && d.correcting.wo == woIDs[0] && d.correcting.group == outbox.GroupCrew {
			d.correcting = nil
		}
		if len(woIDs) > 1 {
			d.list.untick(woIDs)
		}
		var what []string
		for _, r := range rows {
			what = append(what, r.Summary)
		}
		d.queued(strings.Join(what, "; "))
	})
}

// crewControls are the buttons that start an assignment of woIDs: while
// one is being queued, none starts another.
func (d *Desk) crewControls(woIDs []int64) []fyne.Disableable {
	if len(woIDs) > 1 {
		return []fyne.Disableable{d.list.assignBtn}
	}
	if t, ok := tabIn[*visitTab](d.detail); ok {
		return []fyne.Disableable{t.crew.change}
	}
	return nil
}

func (d *Desk) stopCorrectingIfAny() {
	if d.correcting != nil {
		d.stopCorrecting()
	}
}

// A refused assignment is corrected in the Visit tab's Assign… dialog,
// with whom it named ticked.
var _ = correctIn(outbox.FormCrew, "in the Visit tab", func(d *Desk, v *detailView, draft *outbox.Draft, start func(func())) bool {
	t, ok := tabIn[*visitTab](v)
	if !ok {
		return false
	}
	v.selectTab(t)
	start(func() { d.showAssign([]int64{v.wo.WorkOrderId}, draft.Associates) })
	return true
})
