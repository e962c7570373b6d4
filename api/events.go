package api

import (
	"encoding/json"
	"time"
)

// Notification actions (service-facts §9.3). Every documented one is in
// the table below with its body and what it touches; others are kept as
// raw events: consumers must ignore unknown actions, never fail on them.
const (
	ActionNewWorkOrder           = "NewWorkOrder"
	ActionAccepted               = "Accepted"
	ActionRejected               = "Rejected"
	ActionCheckedIn              = "CheckedIn"
	ActionPaused                 = "Paused"
	ActionCheckedOut             = "CheckedOut"
	ActionNeedsCompletionDetails = "NeedsCompletionDetails"
	ActionPutOnHold              = "PutOnHold"
	ActionReopened               = "Reopened"
	ActionRecalled               = "Recalled"
	ActionWorkVerified           = "WorkVerified"
	ActionNteChanged             = "NteChanged"
	ActionQuoteChanged           = "QuoteChanged"
	ActionSlaChanged             = "SlaChanged"
	ActionAppointmentInfoChanged = "AppointmentInfoChanged"
	ActionMessageSent            = "MessageSent"
	ActionAttachmentAdded        = "AttachmentAdded"
	ActionAttachmentRemoved      = "AttachmentRemoved"
	ActionCheckListUpdated       = "CheckListUpdated"
	ActionCheckListMigrated      = "CheckListMigratedToProcedure"
	ActionProcedureMarked        = "ProcedureMarked"
	// ActionProcedureUpdated: the page documents the body, not the Action
	// string; this is its likely name (service-facts §9.3).
	ActionProcedureUpdated       = "ProcedureUpdated"
	ActionCompletionInfoChanged  = "CompletionInfoChanged"
	ActionInvoiceStatusChanged   = "InvoiceStatusChanged"
	ActionInternalNoteChanged    = "InternalNoteChanged"
	ActionFieldDescriptorUpdated = "AdditionalFieldDescriptorUpdated"
	ActionIsmStatusChanged       = "IsmStatusChanged"
)

// Touch says what of the contractor's view a notification changed, and so
// what is read again when it arrives: its body is a hint (its token does
// not cover it), and the replica shows what the service says when asked.
type Touch uint8

const (
	TouchWorkOrder   Touch = 1 << iota // GET /api/workOrder
	TouchInvoice                       // GET /api/invoice
	TouchMessages                      // GET /api/messages
	TouchAttachments                   // GET /api/attachments
	TouchSettings                      // GET /api/customerSettings of every customer
	TouchNote                          // GET /api/workOrder/noteHistory
	TouchProcedures                    // GET /api/procedure
)

// Has reports whether t includes what.
func (t Touch) Has(what Touch) bool { return t&what != 0 }

// eventKind is one documented action: the type of its body and what it
// touches.
type eventKind struct {
	body    func() any
	touches Touch
}

func kind[T any](touches Touch) eventKind {
	return eventKind{body: func() any { return new(T) }, touches: touches}
}

const touchWO = TouchWorkOrder

// eventKinds is the one table of the documented actions (§9.3).
var eventKinds = map[string]eventKind{
	ActionNewWorkOrder:           kind[NewWorkOrderEvent](touchWO | TouchAttachments),
	ActionAccepted:               kind[StatusChangedEvent](touchWO),
	ActionRejected:               kind[RejectedEvent](touchWO),
	ActionCheckedIn:              kind[VisitEvent](touchWO),
	ActionPaused:                 kind[VisitEvent](touchWO),
	ActionCheckedOut:             kind[CheckedOutEvent](touchWO | TouchInvoice),
	ActionNeedsCompletionDetails: kind[StatusChangedEvent](touchWO),
	ActionPutOnHold:              kind[StatusChangedEvent](touchWO),
	ActionReopened:               kind[StatusChangedEvent](touchWO),
	ActionRecalled:               kind[StatusChangedEvent](touchWO),
	// Verification may be what lets the invoice be submitted (§15).
	ActionWorkVerified:           kind[WorkVerifiedEvent](touchWO | TouchInvoice),
	ActionNteChanged:             kind[NteChangedEvent](touchWO),
	ActionQuoteChanged:           kind[QuoteChangedEvent](touchWO),
	ActionSlaChanged:             kind[SlaChangedEvent](touchWO),
	ActionAppointmentInfoChanged: kind[AppointmentInfoChangedEvent](touchWO),
	ActionMessageSent:            kind[MessageSentEvent](TouchMessages),
	ActionAttachmentAdded:        kind[AttachmentAddedEvent](TouchAttachments),
	ActionAttachmentRemoved:      kind[AttachmentRemovedEvent](TouchAttachments),
	ActionCheckListUpdated:       kind[CheckListUpdatedEvent](touchWO),
	// Procedures are read from GET /api/procedure as well: the docs name it
	// the source of the actual procedures and of AllowMarkNotApplicable.
	ActionCheckListMigrated:      kind[CheckListMigratedEvent](touchWO | TouchProcedures),
	"ProcedureStepUpdated":       kind[CheckListMigratedEvent](touchWO | TouchProcedures), // how the migration page's sample spells it
	ActionProcedureMarked:        kind[ProcedureMarkedEvent](touchWO | TouchProcedures),
	ActionProcedureUpdated:       kind[ProcedureUpdatedEvent](touchWO | TouchProcedures),
	ActionCompletionInfoChanged:  kind[CompletionInfoChangedEvent](touchWO | TouchInvoice),
	ActionInvoiceStatusChanged:   kind[InvoiceStatusChangedEvent](TouchInvoice),
	ActionInternalNoteChanged:    kind[InternalNoteChangedEvent](touchWO | TouchNote),
	ActionFieldDescriptorUpdated: kind[FieldDescriptorsUpdatedEvent](TouchSettings),
	// How the custom-field page's sample spells it.
	"AdditionalFieldsDescriptorsUpdated": kind[FieldDescriptorsUpdatedEvent](TouchSettings),
	ActionIsmStatusChanged:               kind[IsmStatusChangedEvent](touchWO),
}

// DocumentedActions lists every action of §9.3 by its documented name.
var DocumentedActions = []string{
	ActionNewWorkOrder, ActionAccepted, ActionRejected, ActionCheckedIn, ActionPaused, ActionCheckedOut,
	ActionNeedsCompletionDetails, ActionPutOnHold, ActionReopened, ActionRecalled, ActionWorkVerified,
	ActionNteChanged, ActionQuoteChanged, ActionSlaChanged, ActionAppointmentInfoChanged, ActionMessageSent,
	ActionAttachmentAdded, ActionAttachmentRemoved, ActionCheckListUpdated, ActionCheckListMigrated,
	ActionProcedureMarked, ActionProcedureUpdated, ActionCompletionInfoChanged, ActionInvoiceStatusChanged,
	ActionInternalNoteChanged, ActionFieldDescriptorUpdated, ActionIsmStatusChanged,
}

// KnownAction reports whether action is a documented notification.
func KnownAction(action string) bool {
	_, ok := eventKinds[action]
	return ok
}

// Touches is what a notification of action changed (0 for an unknown one).
func Touches(action string) Touch { return eventKinds[action].touches }

// EventHeader is the MessageHeader envelope of every notification.
type EventHeader struct {
	WorkOrderId int64     `json:"WorkOrderId"`
	BranchId    int64     `json:"BranchId,omitempty"`
	Sender      *Sender   `json:"Sender,omitempty"`
	PerformedBy *Sender   `json:"PerformedBy,omitempty"` // oldest samples use this instead of Sender
	Action      string    `json:"Action"`
	ActionDate  time.Time `json:"ActionDate"`
	ApiVersion  string    `json:"ApiVersion,omitempty"`
	MessageId   string    `json:"MessageId"`
}

// Event is one notification: its header, the typed body for known actions
// (a pointer to one of the *Event types below, nil for unknown actions)
// and the raw JSON. The body is for saying what happened in plain words;
// the replica takes what a re-read says.
type Event struct {
	Header EventHeader
	Body   any
	Raw    json.RawMessage
}

// NewWorkOrderEvent: the customer dispatched a work order.
type NewWorkOrderEvent struct {
	Details     WorkOrder    `json:"Details"`
	Attachments []Attachment `json:"Attachments,omitempty"`
}

// StatusChangedEvent: Accepted, NeedsCompletionDetails, PutOnHold (Comment
// required: why), Reopened (Status New) and Recalled.
type StatusChangedEvent struct {
	Status  WorkOrderStatus `json:"Status"`
	Comment string          `json:"Comment,omitempty"`
}

// RejectedEvent: the work order was rejected (Comment: the reason).
type RejectedEvent struct {
	Status  WorkOrderStatus `json:"Status"`
	Comment string          `json:"Comment"`
}

// VisitEvent: a technician checked in or paused.
type VisitEvent struct {
	Status   WorkOrderStatus `json:"Status"`
	Location *GeoLocation    `json:"Location,omitempty"`
	Comment  string          `json:"Comment,omitempty"`
}

// CheckListItem is a legacy check-list item (CheckListItemDescriptor).
type CheckListItem struct {
	Id           int64  `json:"Id"`
	SortingIndex int    `json:"SortingIndex,omitempty"`
	Description  string `json:"Description,omitempty"`
	Comment      string `json:"Comment,omitempty"`
	Exception    string `json:"Exception,omitempty"`
	IsDone       bool   `json:"IsDone,omitempty"`
}

// CheckedOutEvent: a technician checked out, with the completion details.
type CheckedOutEvent struct {
	Comment      string          `json:"Comment,omitempty"`
	Location     *GeoLocation    `json:"Location,omitempty"`
	Procedures   []Procedure     `json:"Procedures,omitempty"`
	CheckList    []CheckListItem `json:"CheckList,omitempty"`
	RepairInfo   *RepairInfo     `json:"RepairInfo,omitempty"`
	CustomFields []CustomField   `json:"CustomFields,omitempty"`
}

// Feedback is the customer's verdict on the work (Type e.g. Positive).
type Feedback struct {
	TimeStamp *time.Time `json:"TimeStamp,omitempty"`
	Actor     string     `json:"Actor,omitempty"`
	Comment   string     `json:"Comment,omitempty"`
	Type      string     `json:"Type,omitempty"`
}

// WorkVerifiedEvent: the customer verified the work (Status Verified).
type WorkVerifiedEvent struct {
	Status   WorkOrderStatus `json:"Status"`
	Feedback *Feedback       `json:"Feedback,omitempty"`
}

// QuoteChangedEvent: the quote was submitted, approved or rejected.
type QuoteChangedEvent struct {
	Quote Quote `json:"Quote"`
}

// NteChangedEvent: the customer changed the NTE; Amount is in the work order's currency.
type NteChangedEvent struct {
	Amount Money `json:"Amount"`
}

// SlaChangedEvent: the deadlines moved.
type SlaChangedEvent struct {
	Sla Sla `json:"Sla"`
}

// AppointmentInfoChangedEvent: the scheduled start changed.
type AppointmentInfoChangedEvent struct {
	Appointment Schedule `json:"Appointment"`
}

// MessageSentEvent: the customer or an associate wrote on the thread.
type MessageSentEvent struct {
	Text string `json:"Text"`
}

// AttachmentAddedEvent: a file was attached (visibility All only reach us).
type AttachmentAddedEvent struct {
	AttachmentId string `json:"AttachmentId"`
	Name         string `json:"Name,omitempty"`
	MimeType     string `json:"MimeType,omitempty"`
	Size         int64  `json:"Size,omitempty"`
	Subtype      string `json:"Subtype,omitempty"`
}

// AttachmentRemovedEvent: the customer removed a file.
type AttachmentRemovedEvent struct {
	AttachmentId string `json:"AttachmentId"`
}

// CheckListUpdatedEvent: the check list, whole.
type CheckListUpdatedEvent struct {
	CheckList []CheckListItem `json:"CheckList"`
}

// CheckListMigratedEvent: a check list became a procedure.
type CheckListMigratedEvent struct {
	ProcedureId int64  `json:"ProcedureId"`
	Steps       []Step `json:"Steps,omitempty"`
}

// ProcedureMarkedEvent: a procedure was marked (or unmarked) not applicable.
type ProcedureMarkedEvent struct {
	ProcedureId int64 `json:"ProcedureId"`
	IsMarkedNa  bool  `json:"IsMarkedNa"`
}

// ProcedureUpdate is one procedure the customer added or changed.
type ProcedureUpdate struct {
	Procedure  Procedure `json:"Procedure"`
	UpdateType string    `json:"UpdateType,omitempty"` // e.g. Add
}

// ProcedureUpdatedEvent: the customer changed the work order's procedures.
type ProcedureUpdatedEvent struct {
	ProcedureUpdates []ProcedureUpdate `json:"ProcedureUpdates"`
}

// CompletionInfoChangedEvent: the completion details changed (sent when the
// invoice is submitted from Desktop).
type CompletionInfoChangedEvent struct {
	Comment      string        `json:"Comment,omitempty"`
	RepairInfo   *RepairInfo   `json:"RepairInfo,omitempty"`
	CustomFields []CustomField `json:"CustomFields,omitempty"`
}

// InvoiceStatusChangedEvent: the invoice moved (Authorized, Paid, a
// dispute, ...). AuthNumber, CheckNumber, PaidDate and Amount reach the
// contractor only through this notification; they are kept as the
// customer's notification said them, never as the invoice's own.
type InvoiceStatusChangedEvent struct {
	Status      InvoiceStatus `json:"Status"`
	Comment     string        `json:"Comment,omitempty"`
	AuthNumber  string        `json:"AuthNumber,omitempty"`
	CheckNumber string        `json:"CheckNumber,omitempty"`
	PaidDate    *time.Time    `json:"PaidDate,omitempty"`
	Amount      *Money        `json:"Amount,omitempty"`
}

// InternalNoteChangedEvent: the contractor's internal note changed.
type InternalNoteChangedEvent struct {
	InternalNote string `json:"InternalNote"`
	UpdatedBy    string `json:"UpdatedBy,omitempty"`
}

// FieldDescriptorsUpdatedEvent: a customer changed its questions
// (company-level: WorkOrderId 0).
type FieldDescriptorsUpdatedEvent struct {
	AdditionalFieldDescriptors []CustomFieldDescriptor `json:"AdditionalFieldDescriptors"`
}

// IsmStatusChangedEvent: the induction and safety status moved.
type IsmStatusChangedEvent struct {
	Status string `json:"Status"`
}

// NewEventBody returns an empty typed body for action, or nil when unknown.
func NewEventBody(action string) any {
	if k, ok := eventKinds[action]; ok {
		return k.body()
	}
	return nil
}

// ParseEvent decodes a notification body. Unknown actions yield Body nil, not an error.
func ParseEvent(raw []byte) (Event, error) {
	var env struct {
		Header EventHeader `json:"Header"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return Event{}, err
	}
	ev := Event{Header: env.Header, Raw: json.RawMessage(raw)}
	if body := NewEventBody(env.Header.Action); body != nil {
		if err := json.Unmarshal(raw, body); err != nil {
			return Event{}, err
		}
		ev.Body = body
	}
	return ev, nil
}

// MarshalEvent builds a notification body: the header plus body's properties at top level.
func MarshalEvent(h EventHeader, body any) ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, err
		}
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	fields["Header"] = hb
	return json.Marshal(fields)
}
