package api

import (
	"encoding/json"
	"time"
)

// Notification actions the product handles (service-facts §9.3). Others are
// kept as raw events: consumers must ignore unknown actions, never fail on them.
const (
	ActionNewWorkOrder           = "NewWorkOrder"
	ActionRejected               = "Rejected"
	ActionQuoteChanged           = "QuoteChanged"
	ActionNteChanged             = "NteChanged"
	ActionInvoiceStatusChanged   = "InvoiceStatusChanged"
	ActionAppointmentInfoChanged = "AppointmentInfoChanged"
	ActionProcedureMarked        = "ProcedureMarked"
)

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
// (one of the *Event types below, nil for unknown actions) and the raw JSON.
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

// RejectedEvent: the work order was rejected.
type RejectedEvent struct {
	Status  WorkOrderStatus `json:"Status"`
	Comment string          `json:"Comment"`
}

// QuoteChangedEvent: the quote was submitted, approved or rejected. On
// approval the NTE becomes Quote.Amount (no NteChanged is sent for that).
type QuoteChangedEvent struct {
	Quote Quote `json:"Quote"`
}

// NteChangedEvent: the customer changed the NTE; Amount is in the work order's currency.
type NteChangedEvent struct {
	Amount Money `json:"Amount"`
}

// InvoiceStatusChangedEvent: the invoice moved (Authorized, Paid, Disputed, ...).
type InvoiceStatusChangedEvent struct {
	Status      InvoiceStatus `json:"Status"`
	Comment     string        `json:"Comment,omitempty"`
	AuthNumber  string        `json:"AuthNumber,omitempty"`
	CheckNumber string        `json:"CheckNumber,omitempty"`
	PaidDate    *time.Time    `json:"PaidDate,omitempty"`
	Amount      *Money        `json:"Amount,omitempty"`
}

// AppointmentInfoChangedEvent: the scheduled start changed.
type AppointmentInfoChangedEvent struct {
	Appointment Schedule `json:"Appointment"`
}

// ProcedureMarkedEvent: a procedure was marked (or unmarked) not applicable.
type ProcedureMarkedEvent struct {
	ProcedureId int64 `json:"ProcedureId"`
	IsMarkedNa  bool  `json:"IsMarkedNa"`
}

// NewEventBody returns an empty typed body for action, or nil when unknown.
func NewEventBody(action string) any {
	switch action {
	case ActionNewWorkOrder:
		return &NewWorkOrderEvent{}
	case ActionRejected:
		return &RejectedEvent{}
	case ActionQuoteChanged:
		return &QuoteChangedEvent{}
	case ActionNteChanged:
		return &NteChangedEvent{}
	case ActionInvoiceStatusChanged:
		return &InvoiceStatusChangedEvent{}
	case ActionAppointmentInfoChanged:
		return &AppointmentInfoChangedEvent{}
	case ActionProcedureMarked:
		return &ProcedureMarkedEvent{}
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
