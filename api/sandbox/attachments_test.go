package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func textUpload(name, content string) api.Upload {
	return api.Upload{Name: name, MimeType: "text/plain", Content: strings.NewReader(content)}
}

func TestWorkOrderAttachments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusCheckedIn, func(o *order) { o.files = nil })
	up := textUpload("note.txt", "compressor serial 4471")
	up.MessageVisibility = api.VisibilityCruOnly
	att, err := e.client.UploadAttachment(e.ctx, id, up)
	if err != nil {
		t.Fatal(err)
	}
	if att.AttachmentId == "" || att.Size != 22 || att.MessageVisibility != api.VisibilityCruOnly {
		t.Fatalf("attachment %+v", att)
	}
	list, err := e.client.ListAttachments(e.ctx, id)
	if err != nil || len(list) != 1 || list[0].Name != "note.txt" {
		t.Fatalf("list %+v %v", list, err)
	}
	link, err := e.client.AttachmentDownloadURL(e.ctx, id, att.AttachmentId)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := e.client.Download(e.ctx, link, &buf, nil); err != nil || buf.String() != "compressor serial 4471" {
		t.Fatalf("download %q %v", buf.String(), err)
	}
	// The provider cannot remove work order attachments: a business
	// refusal, 400 with the service's error body.
	status, b := e.raw(http.MethodDelete, "/api/attachments?workOrderId="+itoa(id)+"&attachmentId="+att.AttachmentId+"&messageId=del-1", nil)
	if eb := errBody(t, b); status != http.StatusBadRequest || eb.Code != 3000 || eb.MessageId != "del-1" || !contains(eb.Message, "cannot be removed") {
		t.Fatalf("delete: %d %s", status, b)
	}
	if list, _ = e.client.ListAttachments(e.ctx, id); len(list) != 1 {
		t.Fatal("attachment disappeared")
	}
	rej := e.setup("Northwind Retail", api.StatusRejected, nil)
	_, err = e.client.UploadAttachment(e.ctx, rej, textUpload("x.txt", "x"))
	wantCode(t, err, 3001)
}

func TestUploadOver20MBRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusCheckedIn, nil)
	// Streamed through a pipe with no Content-Length, as a client that does
	// not know the size would: the server must stop at the limit by itself.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("WorkOrderId", itoa(id))
		mw.WriteField("Name", "huge.bin")
		part, _ := mw.CreateFormFile("File", "huge.bin")
		_, err := io.Copy(part, io.LimitReader(zeros{}, api.MaxAttachmentSize+1024))
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/attachments", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+e.token())
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if eb := errBody(t, b); resp.StatusCode != http.StatusBadRequest || eb.Code != 2100 || eb.Message == "" || eb.MessageId == "" ||
		len(eb.ValidationErrors) != 1 || !contains(eb.ValidationErrors[0].Message, "20 MB") {
		t.Fatalf("oversized upload: %d %s", resp.StatusCode, b)
	}
	if list, _ := e.client.ListAttachments(e.ctx, id); len(list) > 0 && list[len(list)-1].Name == "huge.bin" {
		t.Fatal("the oversized file was stored")
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestStepAttachments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, ref := e.editableStep("Northwind Retail", 1)
	// No count limit: 120 attachments all come back.
	for i := 0; i < 120; i++ {
		if _, err := e.client.UploadStepAttachment(e.ctx, ref, textUpload(fmt.Sprintf("photo-%03d.txt", i), "x")); err != nil {
			t.Fatal(err)
		}
	}
	list, err := e.client.ListStepAttachments(e.ctx, ref)
	if err != nil || len(list) != 120 || list[0].StepId != ref.StepId || list[0].ProcedureId != ref.ProcedureId {
		t.Fatalf("list: %d %v", len(list), err)
	}
	if err := e.client.DeleteStepAttachment(e.ctx, ref, list[0].AttachmentId); err != nil {
		t.Fatal(err)
	}
	if list, _ = e.client.ListStepAttachments(e.ctx, ref); len(list) != 119 {
		t.Fatalf("after delete: %d", len(list))
	}
	for _, c := range []struct {
		na, ro bool
		msg    string
	}{{false, true, "read-only"}, {true, false, "marked N/A"}} {
		if err := e.sb.MarkProcedure(id, ref.ProcedureId, c.na, c.ro); err != nil {
			t.Fatal(err)
		}
		_, err := e.client.UploadStepAttachment(e.ctx, ref, textUpload("late.txt", "x"))
		wantCode(t, err, 3000)
		if !contains(err.Error(), c.msg) {
			t.Fatalf("upload refusal: %v", err)
		}
		err = e.client.DeleteStepAttachment(e.ctx, ref, list[0].AttachmentId)
		wantCode(t, err, 3000)
		// Reading stays possible.
		if _, err := e.client.StepAttachmentDownloadURL(e.ctx, ref, list[0].AttachmentId); err != nil {
			t.Fatal(err)
		}
	}
	bad := ref
	bad.StepId = 1
	_, err = e.client.ListStepAttachments(e.ctx, bad)
	wantCode(t, err, 3003)
}

func TestDownloadLinkExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var ref api.StepRef
	var attID string
	e.sb.mu.RLock()
	for _, f := range e.sb.st.files {
		if f.stepID != 0 && f.meta.MimeType == "application/pdf" && (attID == "" || f.meta.AttachmentId < attID) {
			ref, attID = api.StepRef{WorkOrderId: f.woID, ProcedureId: f.procID, StepId: f.stepID}, f.meta.AttachmentId
		}
	}
	e.sb.mu.RUnlock()
	link, err := e.client.StepAttachmentDownloadURL(e.ctx, ref, attID)
	if err != nil {
		t.Fatal(err)
	}
	if got := link.ExpiresAt.Sub(fixedNow); got != 15*time.Minute {
		t.Fatalf("link lifetime %v", got)
	}
	var buf bytes.Buffer
	if err := e.client.Download(e.ctx, link, &buf, nil); err != nil || !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-1.4")) {
		t.Fatalf("demo PDF: %v %q", err, buf.Bytes()[:min(8, buf.Len())])
	}
	get := func(u string) int {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get(strings.Replace(link.URL, "sig=", "sig=0", 1)); s != http.StatusForbidden {
		t.Fatalf("tampered link: %d", s)
	}
	e.sb.AdvanceClock(14 * time.Minute)
	if s := get(link.URL); s != 200 {
		t.Fatalf("link at 14 minutes: %d", s)
	}
	e.sb.AdvanceClock(time.Minute)
	if s := get(link.URL); s != http.StatusForbidden {
		t.Fatalf("link at 15 minutes: %d, want 403", s)
	}
	if err := e.client.Download(e.ctx, link, io.Discard, nil); err == nil || !contains(err.Error(), "expired") {
		t.Fatalf("client on an expired link: %v", err)
	}
}

func TestInvoiceAttachments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.setup("Rheinland Offices", api.StatusCheckedOut, func(o *order) { o.invoice, o.invFiles = nil, nil })
	att, err := e.client.UploadInvoiceAttachment(e.ctx, id, textUpload("signoff.txt", "signed by store manager"))
	if err != nil {
		t.Fatal(err)
	}
	list, _ := e.client.ListInvoiceAttachments(e.ctx, id)
	if len(list) != 1 {
		t.Fatalf("list %+v", list)
	}
	link, err := e.client.InvoiceAttachmentDownloadURL(e.ctx, id, att.AttachmentId)
	if err != nil || link.URL == "" {
		t.Fatal(err)
	}
	if err := e.client.DeleteInvoiceAttachment(e.ctx, id, att.AttachmentId); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("link to a removed file: %d, want 404", resp.StatusCode)
	}
	wantCode(t, e.client.DeleteInvoiceAttachment(e.ctx, id, att.AttachmentId), 3003)
}

// TestStepAttachmentsFollowTheWorkOrderStatus: a procedure that is neither
// read-only nor N/A still only takes step attachment changes while its work
// order is Accepted, CheckedIn, Paused or OnHold; otherwise adding and
// removing are refused with 3001 and the step keeps its files.
func TestStepAttachmentsFollowTheWorkOrderStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		status  api.WorkOrderStatus
		allowed bool
	}{
		{api.StatusNew, false},
		{api.StatusCheckedOut, false},
		{api.StatusNeedsCompletionDetails, false},
		{api.StatusVerified, false},
		{api.StatusRejected, false},
		{api.StatusAccepted, true},
		{api.StatusCheckedIn, true},
		{api.StatusPaused, true},
		{api.StatusOnHold, true},
	}
	for i, c := range cases {
		t.Run(string(c.status), func(t *testing.T) {
			id, ref := e.editableStep([]string{"Northwind Retail", "Rheinland Offices"}[i%2], 0)
			first, err := e.client.UploadStepAttachment(e.ctx, ref, textUpload("before.txt", "x"))
			if err != nil {
				t.Fatal(err)
			}
			e.sb.mu.Lock()
			e.sb.st.orders[id].wo.Status = c.status
			e.sb.mu.Unlock()

			_, addErr := e.client.UploadStepAttachment(e.ctx, ref, textUpload("after.txt", "y"))
			delErr := e.client.DeleteStepAttachment(e.ctx, ref, first.AttachmentId)
			list, err := e.client.ListStepAttachments(e.ctx, ref)
			if err != nil {
				t.Fatalf("listing stays possible in %s: %v", c.status, err)
			}
			if c.allowed {
				if addErr != nil || delErr != nil {
					t.Fatalf("in %s: add %v, remove %v", c.status, addErr, delErr)
				}
				if len(list) != 1 || list[0].Name != "after.txt" {
					t.Fatalf("in %s the step lists %+v", c.status, list)
				}
				return
			}
			wantCode(t, addErr, 3001)
			wantCode(t, delErr, 3001)
			if !contains(addErr.Error(), string(c.status)) || !contains(addErr.Error(), "Accepted or CheckedIn or Paused or OnHold") {
				t.Fatalf("refusal does not say why: %v", addErr)
			}
			if len(list) != 1 || list[0].AttachmentId != first.AttachmentId {
				t.Fatalf("a refused change altered the step: %+v", list)
			}
		})
	}
}
