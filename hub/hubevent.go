package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// What a desktop in an office hears (GET /api/hub/events): one JSON object
// per event, written once by the hub, in one of two kinds.
//
// The customer's notification, re-read. A notification's token does not
// cover its body (service-facts §9.4), so from the body the hub takes only
// the work order, the action and the MessageId; it re-reads what the action
// touched once, and every desktop takes that, calling nobody. A re-read
// that finds what the hub already held, or a work order the service does
// not know, makes no event (see rereads):
//
//	{"Header": {"WorkOrderId": 42, "Action": "InvoiceStatusChanged",
//	            "ActionDate": "<when the hub received it>", "MessageId": "..."},
//	 "Notification": {"AuthNumber": "...", "CheckNumber": "...", "PaidDate": "...",
//	                  "Amount": {...}, "Comment": "...", "Sla": {...},
//	                  "ActionDate": "<when the notification says it happened>"},
//	 "Reread": {"WorkOrder": {...}, "Gone": true, "Invoice": {...},
//	            "Messages": [...], "Attachments": [...], "InvoiceAttachments": [...],
//	            "NoteHistory": {...}, "Procedures": [...]}}
//
// "Notification" holds the facts only a body carries, as the customer's
// notification said them: an invoice's AuthNumber, CheckNumber, PaidDate
// and Amount, a comment (a dispute's reason), an SLA's dates when the
// re-read work order has none. No read of the service's gives them back,
// so neither the hub nor a desktop can check them; the token that came
// with them covers no body. They are the customer's words: nothing on a
// desktop sets a status, an amount a check relies on, or a person's name
// from them, and none of them is one; each is cut to a bounded length, and
// they ride only on an event whose re-read found a change. Nothing else of
// the body is passed on (no Sender, no PerformedBy, no Status, no NTE).
//
// "Reread" is what the service answered when asked, each part as it
// answered (the shape of storage.Reread on the desktop): the work order's
// record, or Gone when the service refused it with 3005 (recalled, no
// longer ours); and, as the action touched them, the invoice, the thread,
// the attachment lists, the note's history, the procedures. A part that
// could not be read is left out (the desktop's next read through the hub,
// or the next sync, brings it).
//
// A colleague's write, forwarded by the hub. The service sends no
// notification for writes made through its API, so the hub tells everyone
// itself, under an action of its own that no notification has (the action
// table's hub event: "AcceptedByContractor", "CheckedInByContractor", ...):
//
//	{"Header": {"WorkOrderId": 42, "Action": "CheckedInByContractor",
//	            "ActionDate": "...", "MessageId": "<the write's>"},
//	 "PerformedBy": {"Name": "Ana Ruiz"},
//	 "Subject": {"ProcedureId": 6101, "StepId": 9, "Status": "Done"},
//	 "Reread": {"WorkOrder": {...}, ...}}
//
// "PerformedBy" is the person the hub's own record of the write names (who
// signed in to make it), never anything a body said. "Subject", for the
// writes whose action does not say it all (a step completed: which one), is
// what the action table takes from the write's own request
// (outbox.Subject), so a desktop can say "Ana Ruiz completed step 3
// of Roof inspection". A bulk write makes one event per work order, each
// with the write's MessageId. A write done to someone (an assignment) names
// them as the write did, under "Detail", the request field the action
// table names (outbox.Colleague.Whom):
//
//	"Detail": {"AssociateIds": [7101]}
//
// A message posted through the hub also carries what the person wrote,
// "Message": {"Text": ..., "MessageVisibility": ...}, from the request the
// hub forwarded: the service signs every message of its API alike, and
// desktops name the author of each one in the thread by it.

// HubEvent is the JSON of one event on a stream (see above).
type HubEvent struct {
	Header       api.EventHeader `json:"Header"`
	PerformedBy  Performer       `json:"PerformedBy,omitzero"`
	Subject      json.RawMessage `json:"Subject,omitempty"`
	Notification *Notified       `json:"Notification,omitempty"`
	Reread       *Reread         `json:"Reread,omitempty"`
	// Detail is whom a colleague's write was done to, as it named them.
	Detail map[string]json.RawMessage `json:"Detail,omitempty"`
	// Message is what the person wrote, on the event of a message posted
	// through the hub: the service signs every message of its API alike,
	// so desktops find the author of each one in the thread by it.
	Message *outbox.MessageSubject `json:"Message,omitempty"`
}

// Performer names the person who acted through the hub.
type Performer struct {
	Name string `json:"Name"`
}

// Notified are the facts only a notification's body carries, as the
// customer's notification said them (see HubEvent).
type Notified struct {
	AuthNumber  string          `json:"AuthNumber,omitempty"`
	CheckNumber string          `json:"CheckNumber,omitempty"`
	PaidDate    *time.Time      `json:"PaidDate,omitempty"`
	Amount      json.RawMessage `json:"Amount,omitempty"`
	Comment     string          `json:"Comment,omitempty"`
	Sla         json.RawMessage `json:"Sla,omitempty"`
	ActionDate  *time.Time      `json:"ActionDate,omitempty"`
}

// Reread is what the service answered when the hub asked (see HubEvent).
type Reread struct {
	WorkOrder          json.RawMessage `json:"WorkOrder,omitempty"`
	Gone               bool            `json:"Gone,omitempty"`
	Invoice            json.RawMessage `json:"Invoice,omitempty"`
	Messages           json.RawMessage `json:"Messages,omitempty"`
	Attachments        json.RawMessage `json:"Attachments,omitempty"`
	InvoiceAttachments json.RawMessage `json:"InvoiceAttachments,omitempty"`
	// NoteHistory is the service's whole answer to the internal note's
	// history (its list's key is not published: the desktop reads it).
	NoteHistory json.RawMessage `json:"NoteHistory,omitempty"`
	// Procedures are GET /api/procedure's list (a procedure's
	// notification): the source the docs name for AllowMarkNotApplicable.
	Procedures json.RawMessage `json:"Procedures,omitempty"`
}

// The longest a fact of a notification is passed on, in characters: the
// service caps comments at 3000 (§9.3); an authorization or check number,
// a priority's name and an amount are far shorter. Longer is cut: a
// captured token could otherwise make every desktop show a megabyte.
const (
	maxFactComment = 3000
	maxFactNumber  = 64
	maxFactAmount  = 40 // bytes of the JSON number or string
)

// notified takes from a notification's body the facts only it carries:
// those of an invoice's status, a comment, the SLA when the re-read has
// none, and when it says it happened. Each is bounded in length and typed:
// nothing else of the body rides along.
func notified(ev api.Event, rr *Reread) *Notified {
	var body struct {
		Header      struct{ ActionDate *time.Time }
		AuthNumber  string
		CheckNumber string
		PaidDate    *time.Time
		Amount      json.RawMessage
		Comment     string
		Sla         json.RawMessage
	}
	if json.Unmarshal(ev.Raw, &body) != nil {
		return nil
	}
	n := &Notified{Comment: cut(body.Comment, maxFactComment), ActionDate: body.Header.ActionDate}
	if ev.Header.Action == api.ActionInvoiceStatusChanged {
		n.AuthNumber, n.CheckNumber, n.PaidDate = cut(body.AuthNumber, maxFactNumber), cut(body.CheckNumber, maxFactNumber), body.PaidDate
		n.Amount = jsonAmount(body.Amount)
	}
	if ev.Header.Action == api.ActionSlaChanged && !rereadHasSla(rr) {
		n.Sla = jsonSla(body.Sla)
	}
	if n.AuthNumber == "" && n.CheckNumber == "" && n.PaidDate == nil && n.Amount == nil && n.Comment == "" &&
		n.Sla == nil && n.ActionDate == nil {
		return nil
	}
	return n
}

// cut is s to its first most characters.
func cut(s string, most int) string {
	s = strings.ToValidUTF8(s, "")
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most])
}

// jsonSla is an SLA as the service writes one, re-encoded from its typed
// value (a priority's name cut), else nil.
func jsonSla(raw json.RawMessage) json.RawMessage {
	var sla api.Sla
	if jsonObject(raw) == nil || json.Unmarshal(raw, &sla) != nil {
		return nil
	}
	sla.PriorityName = cut(sla.PriorityName, maxFactNumber)
	b, err := json.Marshal(sla)
	if err != nil {
		return nil
	}
	return b
}

// jsonObject is raw when it is a JSON object, else nil.
func jsonObject(raw json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return t
	}
	return nil
}

// jsonAmount is raw when it is an amount as the service writes one (a
// JSON number, or a numeric string, of a sensible length), else nil.
func jsonAmount(raw json.RawMessage) json.RawMessage {
	var m api.Money
	if t := bytes.TrimSpace(raw); len(t) > 0 && len(t) <= maxFactAmount && !bytes.Equal(t, []byte("null")) && json.Unmarshal(t, &m) == nil {
		return t
	}
	return nil
}

// rereadHasSla reports whether the re-read work order carries an SLA.
func rereadHasSla(rr *Reread) bool {
	if rr == nil || rr.WorkOrder == nil {
		return false
	}
	var wo struct{ Sla json.RawMessage }
	return json.Unmarshal(rr.WorkOrder, &wo) == nil && jsonObject(wo.Sla) != nil
}

// notificationParts is what a notification's action touches besides the
// work order's record, which every change moves: what api.Touches says, the
// one table of the documented actions (service-facts §9.3) that desktops
// re-read by too. Customer settings are not a work order's part: a
// company-level event goes out without a re-read, and each desktop reads
// them again through the hub.
func notificationParts(action string) rereadParts {
	t := api.Touches(action)
	var p rereadParts
	if t.Has(api.TouchInvoice) {
		p |= rereadInvoice
	}
	if t.Has(api.TouchMessages) {
		p |= rereadMessages
	}
	if t.Has(api.TouchAttachments) {
		p |= rereadAttachments
	}
	if t.Has(api.TouchNote) {
		p |= rereadNotes
	}
	if t.Has(api.TouchProcedures) {
		p |= rereadProcedures
	}
	return p
}

// notificationWorkOrder is the work order a notification names: its
// header's, or a new work order's own id.
func notificationWorkOrder(ev api.Event) int64 {
	if id := ev.Header.WorkOrderId; id > 0 {
		return id
	}
	var nw struct{ Details struct{ WorkOrderId int64 } }
	if json.Unmarshal(ev.Raw, &nw) == nil && nw.Details.WorkOrderId > 0 {
		return nw.Details.WorkOrderId
	}
	return 0
}

// partReads are the stored reads that answer each part of a Reread.
var partReads = []struct {
	part rereadParts
	kind string // a key of storedReads
	key  string // the list's or record's member in the service's answer; "" = the whole answer
	set  func(*Reread, json.RawMessage)
}{
	{rereadInvoice, "/api/invoice", "Invoice", func(r *Reread, v json.RawMessage) { r.Invoice = v }},
	{rereadMessages, "/api/messages", "Messages", func(r *Reread, v json.RawMessage) { r.Messages = v }},
	{rereadAttachments, "/api/attachments", "Attachments", func(r *Reread, v json.RawMessage) { r.Attachments = v }},
	{rereadInvoiceAttachments, "/api/invoice/attachments", "Attachments", func(r *Reread, v json.RawMessage) { r.InvoiceAttachments = v }},
	{rereadNotes, "/api/workorder/notehistory", "", func(r *Reread, v json.RawMessage) { r.NoteHistory = v }},
	{rereadProcedures, "/api/procedure", "Procedures", func(r *Reread, v json.RawMessage) { r.Procedures = v }},
}

// member is the value under key (matched regardless of case) of a JSON
// object; nil when there is none.
func member(body []byte, key string) json.RawMessage {
	if key == "" {
		if json.Valid(body) {
			return body
		}
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	for k, v := range m {
		if strings.EqualFold(k, key) && !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return v
		}
	}
	return nil
}

// reread re-reads work orders ids into the replica (50 per call) and, for
// each, the stored answers about it and the parts asked for, within
// RefreshTimeout; what it got goes into the events. A work order the
// service refuses with 3005 is Gone (and forgotten by the replica).
func (h *Hub) reread(ctx context.Context, ids []int64, parts rereadParts) map[int64]*Reread {
	out := make(map[int64]*Reread, len(ids))
	if len(ids) == 0 {
		return out
	}
	for _, id := range ids {
		out[id] = &Reread{}
	}
	if err := h.db.readsChanged(ctx, ids); err != nil {
		h.log.Warn("marking the reads of changed work orders", "err", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.opts.RefreshTimeout)
	defer cancel()
	// The records and the other parts are read at once: a desktop hears
	// of the change when both are in.
	var records map[int64]json.RawMessage
	var gone []int64
	read := make(chan struct{})
	go func() {
		defer close(read)
		var err error
		if records, gone, err = h.refreshWorkOrders(ctx, ids); err != nil {
			// What was read goes out; the next sync brings the rest.
			h.log.Warn("re-reading work orders", "err", err)
		}
	}()
	refs, err := h.db.storedReadsOf(ctx, ids)
	if err != nil {
		h.log.Warn("listing stored answers to refresh", "err", err)
	}
	want := map[readRef]func(*Reread, json.RawMessage){}
	keys := map[readRef]string{}
	for _, id := range ids {
		for _, p := range partReads {
			if parts&p.part == 0 {
				continue
			}
			ref := readRef{kind: p.kind, key: strconv.FormatInt(id, 10), workOrder: id}
			want[ref], keys[ref] = p.set, p.key
			if !containsRef(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	answers := h.refreshAll(ctx, refs)
	<-read
	for id, raw := range records {
		if rr := out[id]; rr != nil {
			rr.WorkOrder = raw
		}
	}
	for _, id := range gone {
		if rr := out[id]; rr != nil {
			rr.Gone = true
		}
	}
	for ref, got := range answers {
		set := want[ref]
		if set == nil || got == nil || got.status != 200 || out[ref.workOrder].Gone {
			continue
		}
		if v := member(got.body, keys[ref]); v != nil {
			set(out[ref.workOrder], v)
		}
	}
	return out
}

func containsRef(refs []readRef, ref readRef) bool {
	for _, r := range refs {
		if r.kind == ref.kind && r.key == ref.key {
			return true
		}
	}
	return false
}
