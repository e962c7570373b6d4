package board

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/xwidget"
)

// dragState is a drag under way: of which work order, from whose row, and
// where it would land.
type dragState struct {
	woID   int64
	from   int64         // the technician whose row it left (0: the waiting list, or nobody)
	origin fyne.Position // the area's place on the canvas
	row    int
	at     time.Time
	ok     bool // over a day and hour of a row
}

// dragged follows a block (of the grid or the waiting list) dragged to
// abs: the ghost shows where it would land, how, and what would be wrong.
// A step costs a search of the rows and a look at one technician's
// visits, whatever the week's size.
func (b *Board) dragged(woID, from int64, src *xwidget.Block, abs fyne.Position) {
	v := b.visit(woID)
	if v == nil {
		return
	}
	if b.drag == nil || b.drag.woID != woID {
		b.drag = &dragState{woID: woID, from: from, origin: fyne.CurrentApp().Driver().AbsolutePositionForObject(b.area)}
	}
	d := b.drag
	p := abs.Subtract(d.origin)
	row, okRow := b.rowUnder(p.Y)
	at, okAt := b.grid.TimeAt(p.X)
	if !okRow || !okAt || p.X > b.area.Size().Width {
		d.ok = false
		park(b.ghost)
		b.roomFor(-1, 0)
		b.say("Drop it on a technician's day and hour.", false)
		return
	}
	// The ghost takes the first lane no block of that row holds then, the
	// row growing by a lane while it is over it if none is free: drawn
	// over a block, the two were unreadable (A02).
	lane := b.freeLane(row, at)
	b.roomFor(row, lane+1)
	d.row, d.at, d.ok = row, at, true
	refused, warnings := b.problems(v, b.rows[row].tech, at)
	state := xwidget.BlockGhost
	if refused != nil || len(warnings) > 0 {
		state |= xwidget.BlockWarning
	}
	g := b.grid
	lh := b.laneHeight()
	y := g.RowTop(row) - g.HeaderHeight() + 2 + float32(lane)*lh
	x, w := g.XOf(dayOf(at))-g.LabelWidth+3, g.DayWidth()-6
	line2 := "" // a week's lane holds two lines
	if b.zoom == ZoomDay {
		x, w = g.XOf(at)-g.LabelWidth+1, max(g.WidthOf(b.length), 56)-2
		line2 = v.Site
	}
	b.ghost.Set(at.In(time.Local).Format("Mon 15:04")+" "+v.Number, b.rows[row].label, line2, b.opts.StatusColor(v.Status), state)
	pos, size := fyne.NewPos(x, max(y, 0)), fyne.NewSize(w, lh-3)
	if b.fits(&pos, &size) {
		b.ghost.Move(pos)
		b.ghost.Resize(size)
	} else {
		park(b.ghost)
	}
	where := b.rows[row].label + " · " + at.In(time.Local).Format("Mon 2 Jan 15:04")
	switch {
	case refused != nil:
		// Still dragging: what would be wrong here, not what happened.
		b.say(where+" — cannot be planned here: "+refused.Error()+".", true)
	case len(warnings) > 0:
		b.say(where+" — "+strings.Join(warnings, " "), true)
	default:
		b.say(where, false)
	}
}

// freeLane is the first lane of row that no block of it holds over a
// visit starting at at: in a week, that day's; in a day, those whose
// visits overlap the one being dragged.
func (b *Board) freeLane(row int, at time.Time) int {
	var taken []int
	for _, p := range b.placements {
		if p.row != row {
			continue
		}
		start := b.week.Visits[p.visit].Start
		over := dayOf(start).Equal(dayOf(at))
		if b.zoom == ZoomDay {
			over = start.Before(at.Add(b.length)) && at.Before(start.Add(b.length))
		}
		if over {
			taken = append(taken, p.lane)
		}
	}
	lane := 0
	for slices.Contains(taken, lane) {
		lane++
	}
	return lane
}

// rowUnder is the row under y as the grid is drawn without the room made
// for the ghost: that room grows the row under the pointer downwards, so
// the pointer is chosen by the rows as they were, never captured by the
// lane added below the row it left; the pointer aimed at a row lands there.
func (b *Board) rowUnder(y float32) (int, bool) {
	if r := b.grow.row; r >= 0 && r < len(b.rows) && y >= b.grid.RowTop(r)+b.baseRowHeight(r) {
		y += b.rowHeight(r) - b.baseRowHeight(r)
	}
	return b.grid.RowAt(y)
}

// roomFor gives row at least lanes lanes while a block is dragged over it
// (row -1: none), laying the grid out again only when that changes, which
// it reports. The row grows downwards, so the pointer stays over it.
func (b *Board) roomFor(row, lanes int) bool {
	if row >= 0 && row < len(b.lanes) && b.baseRowHeight(row) >= float32(lanes)*b.laneHeight()+4 {
		row, lanes = -1, 0 // it fits as it is
	}
	if row == b.grow.row && lanes == b.grow.lanes {
		return false
	}
	b.grow.row, b.grow.lanes = row, lanes
	b.grid.SetRows(b.gridRows())
	b.place()
	return true
}

// dragEnded drops the dragged work order where the ghost was.
func (b *Board) dragEnded() {
	d := b.drag
	b.drag = nil
	park(b.ghost)
	b.roomFor(-1, 0)
	if d == nil || !d.ok {
		return
	}
	b.Drop(d.woID, d.from, b.rows[d.row].tech, d.at)
}

// Drop plans work order woID (taken from technician from's row; 0: from
// the waiting list or nobody's row) for tech (0: nobody in particular) at
// at: refused in plain words, or, when something is wrong, asked first.
func (b *Board) Drop(woID, from, tech int64, at time.Time) {
	v := b.visit(woID)
	if v == nil {
		return
	}
	if at.Equal(v.Start) && from == tech {
		return // back where it was
	}
	refused, warnings := b.problems(v, tech, at)
	who := "nobody in particular"
	for _, r := range b.rows {
		if r.tech == tech && tech != 0 {
			who = r.label
		}
	}
	what := fmt.Sprintf("%s for %s, %s", v.Number, who, at.In(time.Local).Format("Mon 2 Jan 15:04"))
	if refused != nil {
		b.say("Not planned: "+refused.Error(), true)
		dialogs.Info("This visit cannot be planned", sentence(refused.Error())+".", b.opts.Window)
		return
	}
	instead := int64(0)
	if from != 0 && from != tech {
		instead = from
	}
	commit := func() { b.commit(v.WorkOrderId, tech, instead, at, what) }
	if len(warnings) == 0 {
		commit()
		return
	}
	c := dialogs.NewConfirm("Plan this visit anyway?", what+":\n\n"+strings.Join(warnings, "\n"), func(ok bool) {
		if ok {
			commit()
		} else {
			b.say("Not planned.", false)
		}
	}, b.opts.Window)
	c.SetConfirmText("Plan anyway")
	c.SetDismissText("Cancel")
	c.Show()
}

// commit queues the plan, off the main goroutine.
func (b *Board) commit(woID, tech, instead int64, at time.Time, what string) {
	b.say("Queueing "+what+"…", false)
	b.opts.Background(func() {
		err := b.planner.Plan(context.Background(), woID, tech, instead, at)
		b.opts.Do(func() {
			if err != nil {
				b.say("Not planned: "+err.Error(), true)
				dialogs.Info("This visit was not planned", sentence(err.Error())+".", b.opts.Window)
				return
			}
			b.selected = woID
			b.say("Queued: "+what+". It goes out with the outbox, the assignment before the appointment.", false)
			b.Reload()
		})
	})
}

// problems is what is wrong with a visit of v by tech at at: refused
// (nothing may be queued: the status allows no appointment, the
// technician is not of the work order's branch) and the warnings the
// person may overrule (after the on-site-by deadline, the technician busy
// then), in words. The rules are the api's.
func (b *Board) problems(v *storage.Visit, tech int64, at time.Time) (refused error, warnings []string) {
	wo := v.WorkOrder()
	var booked []api.Booked
	for _, i := range b.byTech[tech] {
		o := &b.week.Visits[i]
		booked = append(booked, api.Booked{WorkOrderId: o.WorkOrderId, Name: o.Number, Start: o.Start})
	}
	if tech == 0 {
		booked = nil // nobody in particular is never busy
	}
	p := wo.CheckVisit(at, b.length, booked)
	if p.Refused != nil {
		return p.Refused, nil
	}
	if tech != 0 {
		if err := wo.CheckAssociates([]int64{tech}, b.branchList(v.BranchId), b.crewByID()); err != nil {
			return err, nil
		}
	}
	if p.Late {
		warnings = append(warnings, "It starts after the on-site-by deadline, "+p.OnSiteBy.In(time.Local).Format("Mon 2 Jan 15:04")+".")
	}
	for _, o := range p.Overlaps {
		warnings = append(warnings, fmt.Sprintf("%s already has %s at %s (a visit is taken to last %s).",
			b.nameOf(tech), o.Name, o.Start.In(time.Local).Format("Mon 15:04"), lengthText(b.length)))
	}
	return nil, warnings
}

// branchList is who works for branch, as the week's crew says; nil when
// no one is known to (the list was never read): the service judges.
func (b *Board) branchList(branch int64) []api.Associate {
	if b.week == nil || branch == 0 {
		return nil
	}
	var out []api.Associate
	for _, c := range b.week.Crew {
		for _, br := range c.Branches {
			if br == branch {
				out = append(out, c.Associate)
			}
		}
	}
	return out
}

func (b *Board) crewByID() map[int64]api.Associate {
	out := map[int64]api.Associate{}
	for _, r := range b.rows {
		if r.tech != 0 {
			out[r.tech] = r.crew.Associate
		}
	}
	return out
}

func (b *Board) nameOf(tech int64) string {
	for _, r := range b.rows {
		if r.tech == tech {
			return r.label
		}
	}
	return "The technician"
}

func lengthText(d time.Duration) string {
	if d == time.Hour {
		return "1 hour"
	}
	for _, l := range lengths {
		if l.d == d {
			return strings.Replace(l.label, " h", " hours", 1)
		}
	}
	return d.String()
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
