package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The writes the app sends, by shape: doctor --contract makes none of them
// (a write changes the customer's work orders), but prints what each would
// carry, so that an integrator can hold it against their account's
// documentation: the field names and their types, a name sent only when
// set marked "?" ("Comment?: text"). Each shape is read off the request type the app sends
// (encoded as it is sent), so what is printed is what goes out.

// WriteShape is one write the app sends.
type WriteShape struct {
	Method, Path string
	What         string   // what the app does with it, in words
	Body         string   // the JSON body's shape; "" when it sends none
	Form         []string // the multipart/form-data fields, in order, for an upload
	Query        []string // the query keys, for a removal
}

// Line is the shape on one line: "PUT /api/workOrder/accept  {WorkOrderId:
// number, Comment: text?, ...}".
func (w WriteShape) Line() string {
	var shape string
	switch {
	case w.Body != "":
		shape = w.Body
	case len(w.Form) > 0:
		shape = "multipart/form-data: " + strings.Join(w.Form, ", ")
	case len(w.Query) > 0:
		shape = "no body; query " + strings.Join(w.Query, "&")
	}
	return fmt.Sprintf("%-6s %s (%s)  %s", w.Method, w.Path, w.What, shape)
}

// sample values: every field set, so that every name shows.
var (
	sampleTime   = time.Date(2026, 11, 29, 9, 30, 0, 0, time.UTC)
	sampleMoney  = Money{Amount: decimal.RequireFromString("125.50"), Currency: "USD"}
	sampleEnv    = Envelope{MessageId: "3f2b…"}
	samplePerson = Performer{PerformedBy: &Sender{Name: "Ana Ruiz", Phone: "+1 555 0100"}}
	sampleLine   = LineItem{Id: 1, Type: LineLabor, Description: "Labour", Quantity: decimal.NewFromInt(2), Rate: sampleMoney,
		Subtotal: sampleMoney, PriceListItemId: 7}
	sampleVisit = VisitRequest{WorkOrderId: 1, ActualActionDate: &sampleTime, Comment: "on site",
		Location: &GeoLocation{Latitude: 41.88, Longitude: -87.63}, Envelope: sampleEnv, Performer: samplePerson}
	sampleDone = Completion{RepairInfo: &RepairInfo{CodeId: 1, Code: "Replaced part", CategoryId: 2, Category: "HVAC"},
		CustomFields: []CustomField{{Id: "5", Value: "Yes"}}}
	sampleInvoice = Invoice{WorkOrderId: 1, InvoiceNumber: "INV-1", InvoiceDate: &sampleTime, Status: InvoiceDraft, Currency: "USD",
		LineItems: []LineItem{sampleLine}, DiscountAmount: sampleMoney, TotalAmount: sampleMoney, SubmissionDeadline: &sampleTime,
		IsPreBilled: true, Comment: "x", AuthNumber: "A", CheckNumber: "C", PaidDate: &sampleTime}
)

// writeSamples are the JSON writes, each with a request as the app sends it.
var writeSamples = []struct {
	method, path, what string
	sample             any
}{
	{http.MethodPut, "/api/workOrder/accept", "accept", &AcceptRequest{WorkOrderId: 1, Comment: "x", Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/workOrder/reject", "reject", &RejectRequest{WorkOrderId: 1, Comment: "x", Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/bulk/accept", "accept several", &BulkRequest{WorkOrderIds: []int64{1}, Comment: "x", Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/bulk/reject", "reject several", &BulkRequest{WorkOrderIds: []int64{1}, Comment: "x", Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/workOrder/appointmentInfo", "schedule", &AppointmentRequest{WorkOrderId: 1, ScheduledStart: sampleTime, Pte: "Appointment",
		Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/workOrder/checkIn", "check in", &sampleVisit},
	{http.MethodPut, "/api/workOrder/pause", "pause", &sampleVisit},
	{http.MethodPut, "/api/workOrder/checkOut", "check out", &CheckOutRequest{VisitRequest: sampleVisit, RepairInfo: sampleDone.RepairInfo,
		CustomFields: sampleDone.CustomFields}},
	{http.MethodPut, "/api/workOrder/workDoneDetails", "complete the work details", &WorkDoneDetailsRequest{WorkOrderId: 1, Comment: "x",
		RepairInfo: sampleDone.RepairInfo, CustomFields: sampleDone.CustomFields, Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/workOrder/quoteSubmit", "quote", &QuoteRequest{WorkOrderId: 1, Amount: sampleMoney, Comment: "x",
		LineItems: []LineItem{sampleLine}, Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/invoice", "save the invoice", &SaveInvoiceRequest{WorkOrderId: 1, Invoice: sampleInvoice, Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/invoice/submit", "submit the invoice", &SubmitInvoiceRequest{WorkOrderId: 1, SubmitAnyway: true, Envelope: sampleEnv,
		Performer: samplePerson}},
	{http.MethodPost, "/api/messages", "send a message", &MessageRequest{WorkOrderId: 1, Text: "x", MessageVisibility: VisibilityAll,
		Envelope: sampleEnv, Performer: samplePerson}},
	{http.MethodPut, "/api/procedure/step", "complete a procedure step", &StepRequest{WorkOrderId: 1, ProcedureId: 2, StepId: 3, Status: StepDone,
		Value: "38.5", Comment: "x", Currency: "USD", Envelope: sampleEnv}},
	{http.MethodPut, "/api/procedure/markAsNA", "mark a procedure N/A (MarkAsNa true) or applicable again (false)",
		&MarkNARequest{WorkOrderId: 1, ProcedureId: 2, Envelope: sampleEnv}},
	{http.MethodPut, "/api/workOrder/note", "replace the internal note", &NoteRequest{WorkOrderId: 1, InternalNote: "x", Envelope: sampleEnv,
		Performer: samplePerson}},
	{http.MethodPut, "/api/bulk/assign", "assign technicians and subcontractors", &AssignRequest{WorkOrderIds: []int64{1}, AssociateIds: []int64{2},
		Envelope: sampleEnv}},
	{http.MethodPut, "/api/bulk/unassign", "take them off", &AssignRequest{WorkOrderIds: []int64{1}, AssociateIds: []int64{2}, Envelope: sampleEnv}},
}

// WriteShapes lists every write the app sends, with its shape.
func WriteShapes() []WriteShape {
	var out []WriteShape
	for _, w := range writeSamples {
		out = append(out, WriteShape{Method: w.method, Path: w.path, What: w.what, Body: bodyShape(w.sample)})
	}
	// An upload's fields are text, in UploadFields' order; those marked
	// "?" go only when set, then the File part.
	form := func(also ...string) []string {
		var fs []string
		for _, f := range UploadFields {
			switch {
			case f == "DocumentType", f == "PerformedBy.Name", f == "MessageVisibility" && slices.Contains(also, f):
				fs = append(fs, f+"?")
			case f == "WorkOrderId", f == "Name", f == "MimeType", f == "MessageId", slices.Contains(also, f):
				fs = append(fs, f)
			}
		}
		return append(fs, "File (the file)")
	}
	out = append(out,
		WriteShape{Method: http.MethodPost, Path: "/api/attachments", What: "attach a file", Form: form("MessageVisibility")},
		WriteShape{Method: http.MethodPost, Path: "/api/invoice/attachments", What: "attach a file to the invoice", Form: form()},
		WriteShape{Method: http.MethodPost, Path: "/api/procedure/step/attachments", What: "attach a file to a step", Form: form("ProcedureId", "StepId")},
		WriteShape{Method: http.MethodDelete, Path: "/api/invoice", What: "delete the invoice's content", Query: queryKeys(idQuery(1))},
		WriteShape{Method: http.MethodDelete, Path: "/api/invoice/attachments", What: "remove an invoice file",
			Query: append(queryKeys(idQuery(1)), "attachmentId")},
		WriteShape{Method: http.MethodDelete, Path: "/api/procedure/step/attachments/", What: "remove a step's file",
			Query: append(queryKeys(stepQuery(StepRef{WorkOrderId: 1, ProcedureId: 2, StepId: 3})), "attachmentId")},
	)
	return out
}

func queryKeys(q map[string][]string) []string {
	var keys []string
	for k := range q {
		keys = append(keys, k)
	}
	// The order the client builds them in: the work order first.
	slices.SortFunc(keys, func(a, b string) int {
		rank := func(k string) int { return slices.Index([]string{"workOrderId", "procedureId", "stepId"}, k) }
		return rank(a) - rank(b)
	})
	return keys
}

// bodyShape is the JSON shape of sample as sent. A name is marked "?"
// (sent only when set) when the zero request of its type leaves it out;
// inside a part the zero request has none of (a pointer, a list's item),
// when the least request (leastOf) leaves it out.
func bodyShape(sample any) string {
	full, err := json.Marshal(sample)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	t := reflect.TypeOf(sample)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	zero, err := json.Marshal(reflect.New(t).Elem().Interface())
	if err != nil {
		return "(" + err.Error() + ")"
	}
	least, err := json.Marshal(leastOf(t).Interface())
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return readShape(full).text(readShape(zero), readShape(least))
}

// leastOf is the zero value of t, but with each list holding one zero item
// and each pointer to a structure set, so that the names inside show.
func leastOf(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Struct && t.Elem() != reflect.TypeFor[time.Time]() {
			p := reflect.New(t.Elem())
			p.Elem().Set(leastOf(t.Elem()))
			v.Set(p)
		}
	case reflect.Slice:
		v.Set(reflect.Append(reflect.MakeSlice(t, 0, 1), leastOf(t.Elem())))
	case reflect.Struct:
		if t == reflect.TypeFor[Money]() || t == reflect.TypeFor[decimal.Decimal]() || t == reflect.TypeFor[time.Time]() {
			return v
		}
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				v.Field(i).Set(leastOf(t.Field(i).Type))
			}
		}
	}
	return v
}

// shapeNode is a JSON value's shape: its kind, and an object's names in
// the order they are written.
type shapeNode struct {
	kind  string // "object", "list", "text", "date", "number", "true/false", "null"
	names []string
	kids  map[string]*shapeNode
	item  *shapeNode // a list's first item
}

func readShape(b []byte) *shapeNode {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, _ := readValue(dec)
	return n
}

func readValue(dec *json.Decoder) (*shapeNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return &shapeNode{kind: "?"}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &shapeNode{kind: "object", kids: map[string]*shapeNode{}}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return n, err
				}
				name, _ := k.(string)
				kid, err := readValue(dec)
				if err != nil {
					return n, err
				}
				n.names = append(n.names, name)
				n.kids[name] = kid
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &shapeNode{kind: "list"}
			for dec.More() {
				item, err := readValue(dec)
				if err != nil {
					return n, err
				}
				if n.item == nil {
					n.item = item
				}
			}
			_, err := dec.Token()
			return n, err
		}
	case string:
		if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
			return &shapeNode{kind: "date"}, nil
		}
		return &shapeNode{kind: "text"}, nil
	case json.Number:
		return &shapeNode{kind: "number"}, nil
	case bool:
		return &shapeNode{kind: "true/false"}, nil
	case nil:
		return &shapeNode{kind: "null"}, nil
	}
	return &shapeNode{kind: "?"}, nil
}

// text writes n, marking "?" the names the zero request's shape at the
// same place lacks (zero; nil where it has none there: then least's).
// MessageId is never marked: the client sets one on every call.
func (n *shapeNode) text(zero, least *shapeNode) string {
	switch n.kind {
	case "object":
		parts := make([]string, 0, len(n.names))
		for _, name := range n.names {
			var z, l *shapeNode
			if zero != nil && zero.kids != nil {
				z = zero.kids[name]
			}
			if least != nil && least.kids != nil {
				l = least.kids[name]
			}
			mark := ""
			switch {
			case name == "MessageId":
			case zero != nil && zero.kind == "object" && z == nil, zero == nil && l == nil:
				mark = "?"
			}
			parts = append(parts, name+mark+": "+n.kids[name].text(z, l))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case "list":
		if n.item == nil {
			return "[]"
		}
		var z, l *shapeNode
		if zero != nil {
			z = zero.item
		}
		if least != nil {
			l = least.item
		}
		return "[" + n.item.text(z, l) + ", …]"
	}
	return n.kind
}
