package visit

import (
	"context"
	"fmt"
	"log/slog"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Who goes: the tab says who a work order is assigned to (or that the
// service does not say), and Assign… (the window's dialog, which the
// list's ticked rows share) changes it.

// crewSection is the Visit tab's "Who goes".
type crewSection struct {
	replica Replica
	win     Window
	wo      *api.WorkOrder
	who     *widget.Label
	why     *widget.Label
	change  *widget.Button
	// asked counts the reads of whom this office assigned (showOffice):
	// an answer to an older one is stale and is not drawn.
	asked int
	// officeFor is the work order whose office-assigned names who shows
	// (0: none): shown again, it keeps them until the new answer.
	officeFor int64
}

func newCrewSection(replica Replica, win Window) *crewSection {
	c := &crewSection{replica: replica, win: win, who: arrange.Wrapped(widget.NewLabel("")), why: arrange.Wrapped(widget.NewLabel(""))}
	c.why.Importance = widget.LowImportance
	c.why.Hide()
	c.change = widget.NewButtonWithIcon("Assign…", theme.AccountIcon(), func() {
		if c.wo != nil {
			win.AssignCrew(c.wo.WorkOrderId)
		}
	})
	return c
}

func (c *crewSection) content() fyne.CanvasObject {
	return container.NewVBox(arrange.Heading("Who goes"), c.who, container.NewHBox(c.change), c.why)
}

// What "Who goes" says where the work order's record does not say who is
// assigned: whom this office assigned, if anyone, else not known.
const (
	crewNotKnown   = "Not known: the service does not say who is assigned."
	crewFromOffice = "%s, assigned from this office. The service's record does not say who is assigned, so there may be others."
)

func (c *crewSection) show(wo *api.WorkOrder) {
	c.wo = wo
	c.asked++
	who, known := wo.Assigned()
	switch {
	case !known:
		// Shown again, it keeps the office's names until the new answer:
		// no flicker through "Not known" on every change.
		if c.officeFor != wo.WorkOrderId {
			c.officeFor = 0
			c.who.SetText(crewNotKnown)
		}
		c.showOffice(wo.WorkOrderId)
	case len(who) == 0:
		c.officeFor = 0
		c.who.SetText("Nobody is assigned yet.")
	default:
		c.officeFor = 0
		c.who.SetText(format.Associates(who))
	}
	why := ""
	if err := wo.Can(api.Assign); err != nil {
		why = format.Capital(err.Error()) + "."
	}
	c.win.Enable(c.change, why == "")
	c.why.SetText(why)
	if why == "" {
		c.why.Hide()
	} else {
		c.why.Show()
	}
}

// showOffice names whom this office assigned to work order id (or
// queued), where its record does not say who is assigned
// (storage.AssigneesOf): read off the main goroutine, since it reads the
// outbox and the colleagues' events too. An answer for a work order no
// longer shown, or older than the last show, is dropped.
func (c *crewSection) showOffice(id int64) {
	asked, replica := c.asked, c.replica
	var got storage.Assignees
	c.win.Run(func(ctx context.Context) error {
		who, err := replica.AssigneesOf(ctx, []int64{id})
		got = who[id]
		return err
	}, func(err error) {
		if asked != c.asked || c.wo == nil || c.wo.WorkOrderId != id {
			return
		}
		if err != nil {
			slog.Info("could not read whom this office assigned; saying it is not known", "workOrder", id, "err", err)
		}
		if err != nil || !got.Known || len(got.Who) == 0 {
			c.officeFor = 0
			c.who.SetText(crewNotKnown)
			return
		}
		c.officeFor = id
		c.who.SetText(fmt.Sprintf(crewFromOffice, format.Associates(got.Who)))
	})
}
