package activity

import (
	"fmt"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
)

// What a notification's body says, in plain words. A body is a hint: the
// window shows the work order as the service said when it was read again,
// and words from a body are always labelled as the notification's.

// eventTitle says who did what: "The customer: Quote changed".
func eventTitle(e api.Event) string {
	return eventAuthor(e) + ": " + strings.Replace(format.Status(e.Header.Action), "Nte ", "NTE ", 1)
}

// eventAuthor names who did what a notification tells: the customer, or
// someone of our team in CorrigoPro (Desktop, Mobile). A notification's
// token does not cover its body, so no person's name is taken from it;
// names come from what the service answers when asked (the thread) and
// from the office hub's record of a write.
func eventAuthor(e api.Event) string {
	if s := e.Header.Sender; s != nil && s.Type != "" && s.Type != "Customer" {
		return "Our team, in CorrigoPro"
	}
	return "The customer"
}

// eventText says what a notification changed, in plain words.
func eventText(e api.Event, currency string) string {
	switch b := e.Body.(type) {
	case *api.QuoteChangedEvent:
		text := "Quote " + strings.ToLower(format.Status(b.Quote.QuoteStatus)) + ": " + format.Money(b.Quote.Amount.In(currency))
		if b.Quote.Comment != "" {
			text += " — " + b.Quote.Comment
		}
		return text
	case *api.NteChangedEvent:
		return "NTE is now " + format.Nte(b.Amount.In(currency))
	case *api.RejectedEvent:
		return "Rejected: " + b.Comment
	case *api.InvoiceStatusChangedEvent:
		text := "Invoice " + strings.ToLower(format.Status(b.Status)) // "Invoice submitted", as the badge
		if b.AuthNumber != "" {
			text += " · authorization " + b.AuthNumber
		}
		if b.CheckNumber != "" {
			text += " · check " + b.CheckNumber
		}
		if b.Amount != nil {
			text += " · " + format.Money((*b.Amount).In(currency))
		}
		if b.Comment != "" {
			text += " — " + b.Comment
		}
		return text
	case *api.AppointmentInfoChangedEvent:
		if b.Appointment.ScheduledStart == nil {
			return "Appointment cleared"
		}
		return "Scheduled start " + format.Time(*b.Appointment.ScheduledStart)
	case *api.NewWorkOrderEvent:
		return "New work order: " + b.Details.AccompanyingMessage
	case *api.ProcedureMarkedEvent:
		if b.IsMarkedNa {
			return "A procedure was marked not applicable"
		}
		return "A procedure is applicable again"
	}
	if text := moreEventText(e); text != "" {
		return text
	}
	return "Received " + e.Header.Action
}

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
