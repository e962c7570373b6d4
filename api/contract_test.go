package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestContractInspection: one answer held against what the app decodes
// from it names what is missing, what we do not read, and what has another
// type, by path; an absent optional field is no failure.
func TestContractInspection(t *testing.T) {
	for _, tc := range []struct {
		name, body                          string
		shape                               contractShape
		missing, unknown, mistyped, absents []string
		ok                                  bool
	}{
		{name: "as we read it", shape: contractShape{key: "CustomerSettings", typ: reflect.TypeFor[CustomerSettings]()},
			body: `{"CustomerSettings": {"CustomerId": 1, "AllowBackdating": true, "RepairInfoRequired": false, "RepairCodes": [],
				"CustomFields": [{"Id": "5", "Label": "Room", "IsRequired": true}]}, "MessageId": "m"}`, ok: true},
		{name: "renamed and retyped", shape: contractShape{key: "CustomerSettings", typ: reflect.TypeFor[CustomerSettings]()},
			body: `{"CustomerSettings": {"BackdatingAllowed": true, "RepairInfoRequired": "no", "RepairCodes": [],
				"CustomFields": [{"Id": true, "Label": "Room", "IsRequired": true}]}}`,
			missing:  []string{"CustomerSettings.AllowBackdating"},
			unknown:  []string{"CustomerSettings.BackdatingAllowed"},
			mistyped: []string{"CustomerSettings.CustomFields[].Id (true or false where we read an id)", "CustomerSettings.RepairInfoRequired (text where we read true or false)"},
			absents:  []string{"CustomerSettings.CustomerId"}},
		{name: "a list under another key", shape: contractShape{key: "Messages", typ: reflect.TypeFor[Message](), list: true},
			body: `{"TextMessages": [{"Id": 1}], "MessageId": "m"}`, missing: []string{"Messages"}, unknown: []string{"TextMessages"}},
		{name: "an empty list left out", shape: contractShape{key: "Messages", typ: reflect.TypeFor[Message](), list: true},
			body: `{"MessageId": "m"}`, ok: true},
		// Guessed names the app does without: named, at any depth, as
		// "not sent (we do without)", never a failure.
		{name: "guessed names absent", shape: contractShape{key: "Invoice", typ: reflect.TypeFor[contractInvoice]()},
			body: `{"Invoice": {"WorkOrderId": 1, "Number": "INV-1", "LineItems": [{"Category": "Labor", "Description": "x", "Quantity": 1, "Rate": 12.5, "Subtotal": 12.5}],
				"DiscountAmount": 0, "TotalAmount": 12.5}}`,
			unknown: []string{"Invoice.LineItems[].Category", "Invoice.Number"},
			absents: []string{"Invoice.InvoiceDate", "Invoice.InvoiceNumber", "Invoice.LineItems[].Type"}, ok: true},
		{name: "a list's items without a guessed name", shape: contractShape{key: "WorkOrders", typ: reflect.TypeFor[contractWorkOrder](), list: true},
			body: `{"WorkOrders": [{"WorkOrderId": 1, "WorkOrderNumber": "W1", "Status": "New", "Created": "2026-11-20T10:00:00Z", "LastUpdate": "2026-11-20T10:00:00Z",
				"Nte": {"Amount": 0}, "Currency": "USD", "Customer": {"Id": 1, "Name": "N"}}]}`,
			absents: []string{"WorkOrders[].Associates"}, ok: true},
		// The note history's list is read under several keys: any of them is no failure.
		{name: "the note history under another key the app reads", shape: contractShape{key: "NoteHistory", typ: reflect.TypeFor[contractNoteEntry](), list: true, alt: noteHistoryKeys},
			body: `{"History": [{"InternalNote": "a", "UpdatedBy": "Ana", "ActionDate": "2026-11-20T10:00:00Z"}], "MessageId": "m"}`, ok: true},
		{name: "the note history under a key it does not", shape: contractShape{key: "NoteHistory", typ: reflect.TypeFor[contractNoteEntry](), list: true, alt: noteHistoryKeys},
			body: `{"Versions": [{"InternalNote": "a"}], "MessageId": "m"}`, missing: []string{"NoteHistory"}, unknown: []string{"Versions"}},
		{name: "dates and amounts", shape: contractShape{key: "Invoice", typ: reflect.TypeFor[contractInvoice]()},
			body: `{"Invoice": {"WorkOrderId": 1, "LineItems": [{"Type": "Labor", "Description": "x", "Quantity": 1, "Rate": "12.50", "Subtotal": 12.5}],
				"DiscountAmount": 0, "TotalAmount": "lots", "SubmissionDeadline": 20261201}}`,
			mistyped: []string{"Invoice.SubmissionDeadline (a number where we read a date)", "Invoice.TotalAmount (text where we read an amount)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c ContractCall
			inspect(&c, []byte(tc.body), tc.shape)
			for _, want := range []struct {
				what      string
				got, want []string
			}{{"missing", c.Missing, tc.missing}, {"unknown", c.Unknown, tc.unknown}, {"mistyped", c.Mistyped, tc.mistyped}} {
				if !slices.Equal(want.got, want.want) && !(len(want.got) == 0 && len(want.want) == 0) {
					t.Errorf("%s = %q, want %q", want.what, want.got, want.want)
				}
			}
			for _, a := range tc.absents {
				if !slices.Contains(c.Absent, a) {
					t.Errorf("not sent = %q, want it to name %s", c.Absent, a)
				}
			}
			if c.OK() != (tc.ok || len(tc.missing)+len(tc.mistyped) == 0) {
				t.Errorf("OK() = %v", c.OK())
			}
		})
	}
}

// TestRedact: ids become stand-ins, the same id the same one; names, texts,
// addresses and links are replaced; the shape, dates, amounts and the
// service's enumerations stay.
func TestRedact(t *testing.T) {
	in := `{"WorkOrders": [{"WorkOrderId": 27796401, "WorkOrderNumber": "WN73201", "Status": "Accepted", "Currency": "USD",
		"Customer": {"Id": 4102, "Name": "Harbor Point Hotels"}, "Nte": {"Amount": 1250.5},
		"ServiceLocation": {"Address": {"Street1": "1 Harbor Blvd", "City": "Boston"}},
		"Created": "2026-11-20T10:00:00Z", "Contact": {"Emails": ["ana@example.com"]}}],
		"Url": "https://files.example/a?sig=SECRET", "Again": {"WorkOrderId": 27796401}, "MessageId": "f3e1"}`
	b, err := Redact([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, gone := range []string{"27796401", "WN73201", "4102", "Harbor Point", "Harbor Blvd", "Boston", "ana@example.com", "SECRET", "files.example", "f3e1"} {
		if strings.Contains(out, gone) {
			t.Errorf("the redacted answer keeps %q:\n%s", gone, out)
		}
	}
	for _, kept := range []string{`"Status": "Accepted"`, `"Currency": "USD"`, `"Amount": 1250.5`, `"2026-11-20T10:00:00Z"`, `"Street1": "text`} {
		if !strings.Contains(out, kept) {
			t.Errorf("the redacted answer lost %s:\n%s", kept, out)
		}
	}
	var back struct {
		WorkOrders []struct{ WorkOrderId int64 }
		Again      struct{ WorkOrderId int64 }
	}
	if err := json.Unmarshal(b, &back); err != nil || len(back.WorkOrders) != 1 || back.WorkOrders[0].WorkOrderId != back.Again.WorkOrderId {
		t.Errorf("the same id should become the same stand-in twice:\n%s", out)
	}
	if again, _ := Redact([]byte(in)); string(again) != out {
		t.Errorf("the same answer was redacted two ways:\n%s\n%s", out, again)
	}
}

// The writes' shapes are read off the requests as they are sent: the
// markAsNA flag and the note's text always go, a name sent only when set
// is marked, and the report shows them all, none of them sent.
func TestWriteShapes(t *testing.T) {
	shapes := map[string]WriteShape{}
	for _, w := range WriteShapes() {
		shapes[w.Method+" "+w.Path] = w
	}
	for call, want := range map[string]string{
		"PUT /api/procedure/markAsNA":        "{WorkOrderId: number, ProcedureId: number, MarkAsNa: true/false, MessageId: text}",
		"PUT /api/workOrder/note":            "{WorkOrderId: number, InternalNote: text, MessageId: text, PerformedBy?: {Name?: text, Phone?: text}}",
		"PUT /api/bulk/assign":               "{WorkOrderIds: [number, …], AssociateIds: [number, …], MessageId: text}",
		"PUT /api/workOrder/accept":          "{WorkOrderId: number, Comment?: text, MessageId: text, PerformedBy?: {Name?: text, Phone?: text}}",
		"PUT /api/workOrder/appointmentInfo": "{WorkOrderId: number, ScheduledStart: date, Pte?: text, MessageId: text, PerformedBy?: {Name?: text, Phone?: text}}",
	} {
		if got := shapes[call].Body; got != want {
			t.Errorf("%s: %s\nwant %s", call, got, want)
		}
	}
	if f := strings.Join(shapes["POST /api/procedure/step/attachments"].Form, ", "); !strings.HasPrefix(f, "WorkOrderId, ProcedureId, StepId, Name") ||
		!strings.Contains(f, "DocumentType?") || !strings.HasSuffix(f, "File (the file)") {
		t.Errorf("a step file's form: %s", f)
	}
	if q := shapes["DELETE /api/procedure/step/attachments/"].Query; !slices.Equal(q, []string{"workOrderId", "procedureId", "stepId", "attachmentId"}) {
		t.Errorf("a step file's removal: %q", q)
	}
	text := (&ContractReport{Service: "s", Writes: WriteShapes()}).Text()
	if !strings.Contains(text, "none was sent") || !strings.Contains(text, "PUT    /api/procedure/markAsNA") {
		t.Errorf("the report does not show the writes:\n%s", text)
	}
}
