package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// What a notification's body says, in plain words. A body is a hint: the
// window shows the work order as the service said when it was read again,
// and words from a body are always labelled as the notification's.

// moreEventText words the bodies eventText does not (nil for an unknown
// action: "" and eventText says it was received).
func moreEventText(e api.Event) string {
	switch b := e.Body.(type) {
	case *api.StatusChangedEvent:
		text := format.Status(b.Status)
		switch e.Header.Action {
		case api.ActionPutOnHold:
			text = "Put on hold"
		case api.ActionRecalled:
			text = "Recalled: stop work on it"
		case api.ActionReopened:
			text = "Reopened: it is New again"
		}
		return withComment(text, b.Comment)
	case *api.VisitEvent:
		return withComment(format.Status(b.Status)+" (from CorrigoPro)", b.Comment)
	case *api.CheckedOutEvent:
		text := "Checked out (from CorrigoPro)"
		if b.RepairInfo != nil {
			text += " · " + b.RepairInfo.Label()
		}
		return withComment(text, b.Comment)
	case *api.WorkVerifiedEvent:
		text := "The customer verified the work"
		if f := b.Feedback; f != nil {
			if f.Type != "" {
				text += " · " + strings.ToLower(f.Type)
			}
			return withComment(text, f.Comment)
		}
		return text
	case *api.SlaChangedEvent:
		var parts []string
		if b.Sla.AcknowledgeBy != nil {
			parts = append(parts, "acknowledge by "+format.Time(*b.Sla.AcknowledgeBy))
		}
		if b.Sla.OnSiteBy != nil {
			parts = append(parts, "on site by "+format.Time(*b.Sla.OnSiteBy))
		}
		if b.Sla.DueDate != nil {
			parts = append(parts, "due "+format.Time(*b.Sla.DueDate))
		}
		if len(parts) == 0 {
			return "Deadlines changed"
		}
		return "Deadlines changed: " + strings.Join(parts, ", ")
	case *api.MessageSentEvent:
		return "Wrote: " + b.Text
	case *api.AttachmentAddedEvent:
		return "Attached " + format.OrDash(b.Name)
	case *api.AttachmentRemovedEvent:
		return "Removed an attachment"
	case *api.CheckListUpdatedEvent:
		done := 0
		for _, it := range b.CheckList {
			if it.IsDone {
				done++
			}
		}
		return fmt.Sprintf("Check list updated: %d of %d done", done, len(b.CheckList))
	case *api.CheckListMigratedEvent:
		return "The check list became a procedure"
	case *api.ProcedureUpdatedEvent:
		var names []string
		for _, u := range b.ProcedureUpdates {
			names = append(names, u.Procedure.Name)
		}
		return "Procedures changed: " + format.OrDash(strings.Join(names, ", "))
	case *api.CompletionInfoChangedEvent:
		return withComment("Completion details changed", b.Comment)
	case *api.InternalNoteChangedEvent:
		text := "Internal note: " + b.InternalNote
		if b.UpdatedBy != "" {
			text += " (" + b.UpdatedBy + ")"
		}
		return text
	case *api.FieldDescriptorsUpdatedEvent:
		return "The customer changed its check-out questions"
	case *api.IsmStatusChangedEvent:
		return "Induction and safety: " + strings.ToLower(format.Status(b.Status))
	}
	return ""
}

func withComment(text, comment string) string {
	if strings.TrimSpace(comment) == "" {
		return text
	}
	return text + " — " + comment
}

// customerNotice says why a work order is closed to the actions the
// customer's last word forbids: recalled or on hold, with the reason its
// notification gave. When a notification says so but the replica does
// not (its re-read failed), it says that too: the actions stay open, and
// the service judges them.
func (d *Desk) customerNotice(wo *api.WorkOrder) string {
	evs, err := d.store.Events(context.Background(), wo.WorkOrderId)
	if err != nil {
		return ""
	}
	var last *storage.EventRecord
	for i := len(evs) - 1; i >= 0; i-- {
		switch evs[i].Header.Action {
		case api.ActionRecalled, api.ActionPutOnHold, api.ActionReopened:
			last = &evs[i]
		}
		if last != nil {
			break
		}
	}
	if last == nil || last.Header.Action == api.ActionReopened {
		return ""
	}
	why := ""
	if b, ok := last.Body.(*api.StatusChangedEvent); ok && strings.TrimSpace(b.Comment) != "" {
		why = ": " + strings.TrimRight(strings.TrimSpace(b.Comment), ".")
	}
	// The replica holds a version newer than the notification: what the
	// service said since is the truth.
	superseded := !wo.LastUpdate.IsZero() && wo.LastUpdate.After(last.Header.ActionDate)
	switch {
	case last.Header.Action == api.ActionRecalled && wo.Status == api.StatusRecalled:
		return "The customer recalled this work order" + why + ". Nothing more can be sent for it."
	case last.Header.Action == api.ActionPutOnHold && wo.Status == api.StatusOnHold:
		return "The customer put this work order on hold" + why + ". Visits wait until the customer reopens it."
	case superseded:
		return ""
	case last.Header.Action == api.ActionRecalled:
		return "The customer's notification says it recalled this work order" + why + "; the service has not confirmed it yet."
	case last.Header.Action == api.ActionPutOnHold:
		return "The customer's notification says it put this work order on hold" + why + "; the service has not confirmed it yet."
	}
	return ""
}
