package summary

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Tab shows every known field of the work order.
type Tab struct {
	replica Replica
	win     Window

	box *fyne.Container
	// jobSheet makes the printable sheet a technician takes on site. It
	// heads the Summary, whose facts the sheet prints: the header has no
	// width left for it in a 300-pixel detail.
	jobSheet *widget.Button
	wo       *api.WorkOrder
}

// New is the tab, reading replica and opening the job sheet through win.
func New(replica Replica, win Window) *Tab {
	t := &Tab{replica: replica, win: win, box: container.NewVBox()}
	t.jobSheet = widget.NewButtonWithIcon("Job sheet…", theme.DocumentPrintIcon(), func() { win.ShowJobSheet(t.wo) })
	return t
}

func (t *Tab) Title() string       { return "Summary" }
func (t *Tab) Icon() fyne.Resource { return theme.InfoIcon() }
func (t *Tab) Content() fyne.CanvasObject {
	return container.NewVScroll(container.NewPadded(t.box))
}

func (t *Tab) Show(wo *api.WorkOrder) {
	t.wo = wo
	sections := []fyne.CanvasObject{container.NewHBox(layout.NewSpacer(), t.jobSheet)}
	add := func(title string, rows ...[2]string) {
		form := widget.NewForm()
		for _, r := range rows {
			if r[1] == "" {
				continue
			}
			v := widget.NewLabel(r[1])
			v.Wrapping = fyne.TextWrapWord
			form.Append(r[0], v)
		}
		if len(form.Items) > 0 {
			sections = append(sections, arrange.Heading(title), form)
		}
	}

	desc := widget.NewLabel(format.OrDash(wo.AccompanyingMessage))
	desc.Wrapping = fyne.TextWrapWord
	sections = append(sections, arrange.Heading("Description"), desc)

	workType := ""
	if wo.WorkType != nil {
		workType = wo.WorkType.Name
	}
	add("Work order",
		[2]string{"Status", t.nextStepText(wo)},
		[2]string{"Rejected because", t.rejectionReason(wo)},
		[2]string{"Type", strings.Trim(wo.Type+" · "+workType, " ·")},
		[2]string{"Created", format.Time(wo.Created)},
		[2]string{"Last update", format.Time(wo.LastUpdate)},
		[2]string{"Currency", wo.Currency},
		[2]string{"NTE", format.Nte(wo.Nte.Amount) + nteExplanation(wo.Nte)},
		[2]string{"Pre-billed", yesIf(wo.IsPreBilled)},
	)
	if sla := wo.Sla; sla != nil {
		prio := titleCase(sla.PriorityName)
		if sla.IsEmergency && !strings.Contains(strings.ToLower(prio), "emergency") {
			prio = strings.TrimSpace(prio + " · emergency")
		}
		add("Service level",
			[2]string{"Priority", prio},
			[2]string{api.AcknowledgeBy.Label(), stageDeadline(sla, api.AcknowledgeBy, wo.Status)},
			[2]string{api.OnSiteBy.Label(), stageDeadline(sla, api.OnSiteBy, wo.Status)},
			[2]string{api.DueBy.Label(), stageDeadline(sla, api.DueBy, wo.Status)},
			[2]string{"Scheduled start", format.Scheduled(wo)},
		)
	}
	if c := wo.Contact; c != nil {
		add("Contact",
			[2]string{"Name", c.FullName},
			[2]string{"Reach at", c.ContactAt},
			[2]string{"Phone", strings.Join(c.Phones, ", ")},
			[2]string{"Email", strings.Join(c.Emails, ", ")},
		)
	}
	if loc := wo.ServiceLocation; loc != nil {
		addr := ""
		if a := loc.Address; a != nil {
			addr = strings.Join(nonEmpty(a.Street1, a.Street2, strings.TrimSpace(a.City+" "+a.State+" "+a.PostalCode), a.Country), "\n")
		}
		add("Location", [2]string{"Site", loc.SpaceName}, [2]string{"Address", addr})
	}
	if ivr := wo.IvrInfo; ivr != nil {
		add("IVR check-in", [2]string{"Phone", ivr.PhoneNumber}, [2]string{"PIN", ivr.Pin}, [2]string{"Reference", ivr.ReferenceCode})
	}
	if procs := wo.Procedures(); len(procs) > 0 {
		var rows [][2]string
		for _, p := range procs {
			rows = append(rows, [2]string{p.Name, format.Procedure(p)})
		}
		add("Procedures", rows...)
	}
	if wo.WorkDetails != nil && len(wo.WorkDetails.Assets) > 0 {
		var rows [][2]string
		for _, a := range wo.WorkDetails.Assets {
			rows = append(rows, [2]string{format.OrDash(a.AssetName), strings.Trim(a.Path+" · "+a.Task, " ·")})
		}
		add("Equipment", rows...)
	}
	t.box.Objects = sections
	t.box.Refresh()
}

// stageDeadline shows a deadline with the time left while the work order
// still has it ahead (api's rule); once past that stage it is history,
// shown without "late".
func stageDeadline(sla *api.Sla, d api.Deadline, st api.WorkOrderStatus) string {
	t := d.Of(sla)
	if t == nil || t.IsZero() {
		return ""
	}
	if st.Ahead(d) {
		return format.Deadline(t)
	}
	return format.Time(*t)
}

func yesIf(b bool) string {
	if b {
		return "Yes"
	}
	return ""
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

func nteExplanation(n api.Nte) string {
	if n.NoLimit() {
		return " (the customer set no maximum)"
	}
	return " (the most you may invoice without a quote)"
}

// nextStepText is the work order's status and what it means for the person
// now. Once the invoice is submitted the work order stays Checked out at the
// service, so from then on the invoice's status (from the replica) says
// what comes next.
func (t *Tab) nextStepText(wo *api.WorkOrder) string {
	if !wo.Status.Closed() {
		if next := invoiceNextStep(t.storedInvoice(wo.WorkOrderId)); next != "" {
			return format.Status(wo.Status) + " · " + next
		}
	}
	return format.Status(wo.Status) + statusExplanation(wo.Status)
}

func statusExplanation(s api.WorkOrderStatus) string {
	switch s {
	case api.StatusNew:
		return ": accept or reject it before the acknowledge-by time"
	case api.StatusAccepted:
		return ": check in when on site"
	case api.StatusCheckedIn:
		return ": technician on site"
	case api.StatusPaused:
		return ": check in again to resume"
	case api.StatusCheckedOut:
		return ": work done; submit the invoice"
	case api.StatusVerified:
		return ": the customer verified the work; submit the invoice"
	case api.StatusRejected:
		return ": nothing more can be done on it"
	case api.StatusRecalled:
		return ": the customer recalled it; stop work"
	case api.StatusOnHold:
		return ": the customer put it on hold"
	}
	return ""
}

// titleCase turns the service's "HIGH" into "High".
func titleCase(s string) string {
	if s == "" {
		return s
	}
	lower := strings.ToLower(s)
	return strings.ToUpper(lower[:1]) + lower[1:]
}

// rejectionReason is why a rejected work order was rejected: from the
// notification if one arrived, else from our own queued rejection.
func (t *Tab) rejectionReason(wo *api.WorkOrder) string {
	if wo.Status != api.StatusRejected {
		return ""
	}
	ctx := context.Background()
	if evs, err := t.replica.Events(ctx, wo.WorkOrderId); err == nil {
		for i := len(evs) - 1; i >= 0; i-- {
			if b, ok := evs[i].Body.(*api.RejectedEvent); ok && b.Comment != "" {
				return b.Comment
			}
		}
	}
	rows, _ := t.replica.OutboxRows(ctx, wo.WorkOrderId)
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Status == api.StatusRejected && rows[i].Comment != "" {
			return rows[i].Comment
		}
	}
	return ""
}

// storedInvoice is the replica's copy of the work order's invoice; nil when
// it was never fetched.
func (t *Tab) storedInvoice(woID int64) *api.Invoice {
	inv, err := t.replica.Invoice(context.Background(), woID)
	if err != nil {
		return nil
	}
	return inv
}
