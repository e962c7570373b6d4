package sandbox

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestCustomerSettingsForEveryCustomer: GET /api/customerSettings answers
// for each customer of the world, and the demo has customers that require
// repair info and custom fields, and one that forbids back-dating.
func TestCustomerSettingsForEveryCustomer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var repair, fields, strict bool
	for _, c := range e.sb.st.customers {
		s, err := e.client.GetCustomerSettings(e.ctx, c.Customer.Id)
		if err != nil {
			t.Fatalf("%s: %v", c.Customer.Name, err)
		}
		if s.CustomerId != c.Customer.Id || s.AllowBackdating != api.FlagOf(c.AllowBackdating) {
			t.Errorf("%s: settings %+v", c.Customer.Name, s)
		}
		repair = repair || s.RepairInfoRequired.True() && len(s.RepairCodes) > 0
		for _, f := range s.CustomFields {
			fields = fields || f.IsRequired.True()
		}
		strict = strict || s.AllowBackdating.False()
	}
	if !repair || !fields || !strict {
		t.Fatalf("demo world lacks a customer requiring repair info (%v), custom fields (%v) or forbidding back-dating (%v)", repair, fields, strict)
	}
	_, err := e.client.GetCustomerSettings(e.ctx, 999)
	wantCode(t, err, api.CodeNoSuchEntity)
	status, body := e.raw(http.MethodGet, "/api/customerSettings", nil)
	if status != 400 || errBody(t, body).Code != 2100 {
		t.Fatalf("no customerId: %d %s", status, body)
	}
}

// TestRequestCheckOutNeedsCompletionInfo: a Request work order at a customer
// that requires repair info and answers is refused without them, with a
// message naming each; a value in the wrong case is refused too; the
// complete check-out is accepted.
func TestRequestCheckOutNeedsCompletionInfo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Harbor Point Hotels", api.StatusCheckedIn, func(o *order) { o.wo.Type = "Request" })
	err := e.client.CheckOut(e.ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: id}})
	wantCode(t, err, 2100)
	for _, want := range []string{"repair info", `"Guest room out of order"`, `"Engineer who signed off"`} {
		if !contains(err.Error(), want) {
			t.Errorf("refusal %q does not name %s", err, want)
		}
	}
	if contains(err.Error(), "Follow-up visit booked") {
		t.Errorf("refusal asks for an optional field: %v", err)
	}
	full := e.completeCheckOut(id)
	wrongCase := *full
	wrongCase.CustomFields = append([]api.CustomField(nil), full.CustomFields...)
	wrongCase.CustomFields[0].Value = "yes"
	err = e.client.CheckOut(e.ctx, &wrongCase)
	wantCode(t, err, 2100)
	if !contains(err.Error(), `"yes" is not a value`) {
		t.Fatalf("lower-case answer: %v", err)
	}
	if got := e.read(id).Status; got != api.StatusCheckedIn {
		t.Fatalf("refused check-outs left the work order %s", got)
	}
	if err := e.client.CheckOut(e.ctx, full); err != nil {
		t.Fatal(err)
	}
	if got := e.read(id).Status; got != api.StatusCheckedOut {
		t.Fatalf("after a complete check-out: %s", got)
	}
}

// TestPMRMCheckOutWaitsForDetails: a PMRM work order checked out without
// what its customer requires lands in NeedsCompletionDetails, and
// workDoneDetails completes it to CheckedOut once everything is there.
func TestPMRMCheckOutWaitsForDetails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Harbor Point Hotels", api.StatusCheckedIn, func(o *order) { o.wo.Type = "PMRM" })
	if err := e.client.CheckOut(e.ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: id}}); err != nil {
		t.Fatal(err)
	}
	if got := e.read(id).Status; got != api.StatusNeedsCompletionDetails {
		t.Fatalf("PMRM checked out without details: %s", got)
	}
	// Invoicing waits for the details.
	_, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, api.CodeWorkOrderNotCompleted)
	err = e.client.WorkDoneDetails(e.ctx, &api.WorkDoneDetailsRequest{WorkOrderId: id, Comment: "Filters changed"})
	wantCode(t, err, 2100)
	if !contains(err.Error(), "repair info") {
		t.Fatalf("incomplete details: %v", err)
	}
	full := e.completeCheckOut(id)
	req := &api.WorkDoneDetailsRequest{WorkOrderId: id, Comment: "Filters changed", RepairInfo: full.RepairInfo, CustomFields: full.CustomFields}
	if err := e.client.WorkDoneDetails(e.ctx, req); err != nil {
		t.Fatal(err)
	}
	if got := e.read(id).Status; got != api.StatusCheckedOut {
		t.Fatalf("after workDoneDetails: %s", got)
	}
	// Only a work order waiting for details takes them.
	req.MessageId = ""
	wantCode(t, e.client.WorkDoneDetails(e.ctx, req), api.CodeWrongStatus)
	// A customer that requires nothing checks a PMRM order out directly.
	plain := e.setup("Northwind Retail", api.StatusCheckedIn, func(o *order) { o.wo.Type = "PMRM" })
	if err := e.client.CheckOut(e.ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: plain}}); err != nil {
		t.Fatal(err)
	}
	if got := e.read(plain).Status; got != api.StatusCheckedOut {
		t.Fatalf("PMRM at a customer requiring nothing: %s", got)
	}
}

// TestUploadNeedsNameAndMimeType: both are required form fields
// (service-facts §4.4); the file part's own name does not stand in.
func TestUploadNeedsNameAndMimeType(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusCheckedIn, nil)
	post := func(fields map[string]string) (int, api.Error) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.WriteField("WorkOrderId", itoa(id))
		for k, v := range fields {
			mw.WriteField(k, v)
		}
		part, _ := mw.CreateFormFile("File", "report.pdf")
		part.Write([]byte("%PDF-1.4"))
		mw.Close()
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/attachments", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+e.token())
		resp, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body bytes.Buffer
		body.ReadFrom(resp.Body)
		if resp.StatusCode == 200 {
			return 200, api.Error{}
		}
		return resp.StatusCode, errBody(t, body.Bytes())
	}
	if status, eb := post(map[string]string{"MimeType": "application/pdf"}); status != 400 || eb.Code != 2100 || !contains(eb.Error(), "Name") {
		t.Fatalf("upload without Name: %d %+v", status, eb)
	}
	if status, eb := post(map[string]string{"Name": "report.pdf"}); status != 400 || eb.Code != 2100 || !contains(eb.Error(), "MimeType") {
		t.Fatalf("upload without MimeType: %d %+v", status, eb)
	}
	if list, _ := e.client.ListAttachments(e.ctx, id); len(list) != 0 {
		t.Fatalf("refused uploads were stored: %+v", list)
	}
	if status, eb := post(map[string]string{"Name": "report.pdf", "MimeType": "application/pdf"}); status != 200 {
		t.Fatalf("a complete upload: %d %+v", status, eb)
	}
}

// TestInvoiceWaitsForVerification: at a customer that verifies the work
// before an invoice can be submitted (service-facts §15), the invoice of a
// work order checked out waits in PendingVerification: its lines can be
// saved, it cannot be submitted (3050); once the work is verified it can,
// and goes straight to Submitted. Elsewhere it is a draft at check-out.
func TestInvoiceWaitsForVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ready := func(o *order) {
		inv := e.sb.st.invoiceOf(o)
		e.sb.st.gen.fillInvoice(o, inv, 1)
		inv.Status = api.InvoiceDraft
		o.wo.Nte.Amount = api.Money{Currency: o.wo.Currency} // no limit
	}
	id := e.setup("Lakeside Medical Group", api.StatusCheckedIn, ready)
	answer := api.CustomField{Id: "41061", Value: "Yes"}
	if err := e.client.CheckOut(e.ctx, &api.CheckOutRequest{VisitRequest: api.VisitRequest{WorkOrderId: id}, CustomFields: []api.CustomField{answer}}); err != nil {
		t.Fatal(err)
	}
	inv, err := e.client.GetInvoice(e.ctx, id)
	if err != nil || inv.Status != api.InvoicePendingVerification {
		t.Fatalf("invoice after check-out at a verifying customer: %v %v", inv, err)
	}
	if _, err := e.client.SaveInvoice(e.ctx, &api.SaveInvoiceRequest{WorkOrderId: id, Invoice: *inv}); err != nil {
		t.Fatalf("preparing the lines while the work waits for verification: %v", err)
	}
	_, err = e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id})
	wantCode(t, err, api.CodeInvoiceCannotSubmit)
	if err := e.sb.Act(id, api.ActionWorkVerified, ActOptions{}); err != nil {
		t.Fatalf("verifying the work: %v", err)
	}
	if inv, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: id}); err != nil || inv.Status != api.InvoiceSubmitted {
		t.Fatalf("submitted once the work was verified: %v %v", inv, err)
	}
	if err := e.sb.SetInvoiceStatus(id, api.InvoiceAuthorized, ""); err != nil {
		t.Fatalf("authorizing after submission: %v", err)
	}
	other := e.setup("Northwind Retail", api.StatusCheckedOut, ready)
	if inv, err := e.client.SubmitInvoice(e.ctx, &api.SubmitInvoiceRequest{WorkOrderId: other}); err != nil || inv.Status != api.InvoiceSubmitted {
		t.Fatalf("submitted at a customer that does not verify: %v %v", inv, err)
	}
}
