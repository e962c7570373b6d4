package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"GET", "/api/attachments", kindRead, (*call).listAttachments},
	endpoint{"POST", "/api/attachments", kindUpload, (*call).uploadAttachment},
	endpoint{"DELETE", "/api/attachments", kindMutate, (*call).deleteAttachment},
	endpoint{"GET", "/api/attachments/downloadurl", kindRead, (*call).attachmentLink},
	endpoint{"GET", "/api/invoice/attachments", kindRead, (*call).listInvoiceAttachments},
	endpoint{"POST", "/api/invoice/attachments", kindUpload, (*call).uploadInvoiceAttachment},
	endpoint{"DELETE", "/api/invoice/attachments", kindMutate, (*call).deleteInvoiceAttachment},
	endpoint{"GET", "/api/invoice/attachments/getdownloadurl", kindRead, (*call).invoiceAttachmentLink},
	endpoint{"GET", "/api/procedure/step/attachments", kindRead, (*call).listStepAttachments},
	endpoint{"POST", "/api/procedure/step/attachments", kindUpload, (*call).uploadStepAttachment},
	endpoint{"DELETE", "/api/procedure/step/attachments", kindMutate, (*call).deleteStepAttachment},
	endpoint{"GET", "/api/procedure/step/attachments/getdownloadurl", kindRead, (*call).stepAttachmentLink},
)

// LinkLifetime is how long a download link works (spec §8 for step
// attachments; assumption: the same for work order and invoice attachments).
const LinkLifetime = 15 * time.Minute

// multipartSlack is room for the form fields and boundaries around a file
// of the maximum size.
const multipartSlack = 1 << 20

var documentTypes = []string{"Document", "Picture", "Signature", "InvoicePrintout", "ServiceContract", "Misc"}

// upload is one parsed multipart request: the fields by lower-cased name
// and the file content.
type upload struct {
	fields  map[string]string
	data    []byte
	hasFile bool
}

func (u *upload) field(name string) string { return u.fields[strings.ToLower(name)] }

func (u *upload) id(name string) (int64, error) {
	n, bad := serve.ID(name, u.field(name))
	if bad != nil {
		return 0, bad
	}
	return n, nil
}

// readUpload streams the multipart body part by part: fields are small,
// the file is read through a limit one byte over 20 MB so an oversized
// upload is refused as soon as it crosses the line, not after it is all in
// memory. Nothing is buffered to disk (no ParseMultipartForm).
func (c *call) readUpload() (*upload, *api.Error) {
	if c.r.ContentLength > api.MaxAttachmentSize+multipartSlack {
		return nil, serve.TooLarge("the file", api.MaxAttachmentSize)
	}
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, api.MaxAttachmentSize+multipartSlack)
	mr, err := c.r.MultipartReader()
	if err != nil {
		return nil, serve.Invalid("", "the request must be multipart/form-data")
	}
	u := &upload{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bodyError(err)
		}
		name := part.FormName()
		if strings.EqualFold(name, "File") {
			data, err := io.ReadAll(io.LimitReader(part, api.MaxAttachmentSize+1))
			if err != nil {
				return nil, bodyError(err)
			}
			if len(data) > api.MaxAttachmentSize {
				return nil, serve.TooLarge("the file", api.MaxAttachmentSize)
			}
			u.data, u.hasFile = data, true
			continue
		}
		v, err := io.ReadAll(io.LimitReader(part, 64<<10))
		if err != nil {
			return nil, bodyError(err)
		}
		u.fields[strings.ToLower(name)] = string(v)
	}
	return u, nil
}

func bodyError(err error) *api.Error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return serve.TooLarge("the file", api.MaxAttachmentSize)
	}
	return serve.Invalid("", "the multipart body could not be read: %v", err)
}

// serveUpload reads the upload outside the lock, then applies it under the
// lock with the same MessageId idempotency as JSON mutations.
func (c *call) serveUpload(apply func(u *upload, meta api.Attachment) (any, error)) {
	u, e := c.readUpload()
	if id := u.maybeField("MessageId"); id != "" {
		c.msgID = id
	}
	given := c.msgID != ""
	if !given {
		c.msgID = uuid.NewString()
	}
	if e != nil {
		serve.WriteError(c.w, e, c.msgID)
		return
	}
	s := c.s
	key := "POST " + c.path + " " + c.msgID
	dedup := given && !s.opts.NoMessageIdDedup
	s.mu.Lock()
	if dedup {
		if b, ok := s.idem.get(key); ok {
			s.mu.Unlock()
			serve.WriteRaw(c.w, http.StatusOK, b)
			return
		}
	}
	c.now = s.clock.Now()
	var res any
	meta, err := u.meta(c.now)
	if err == nil {
		res, err = apply(u, meta)
	}
	status, b := c.answer(res, err)
	if dedup && status == http.StatusOK {
		s.idem.put(key, b)
	}
	s.mu.Unlock()
	serve.WriteRaw(c.w, status, b)
}

func (u *upload) maybeField(name string) string {
	if u == nil {
		return ""
	}
	return u.field(name)
}

// meta validates the descriptive fields and builds the attachment record.
func (u *upload) meta(now time.Time) (api.Attachment, error) {
	if !u.hasFile {
		return api.Attachment{}, serve.Invalid("File", "File is required")
	}
	if len(u.data) == 0 {
		return api.Attachment{}, serve.Invalid("File", "the file is empty")
	}
	// Name and MimeType are required form fields (service-facts §4.4;
	// spec.md shows no form fields at all, so the docs decide); the
	// file part's own file name does not stand in for Name, nor does
	// application/octet-stream for a missing MimeType: the service documents
	// both as required, and the sandbox is never more permissive.
	name := u.field("Name")
	if name == "" {
		return api.Attachment{}, serve.Invalid("Name", "Name (the file name with its extension) is required")
	}
	if len(name) > 255 {
		return api.Attachment{}, serve.Invalid("Name", "Name is longer than 255 characters")
	}
	mt := u.field("MimeType")
	if mt == "" {
		return api.Attachment{}, serve.Invalid("MimeType", "MimeType is required (e.g. image/jpeg)")
	}
	if _, _, err := mime.ParseMediaType(mt); err != nil {
		return api.Attachment{}, serve.Invalid("MimeType", "%q is not a MIME type", mt)
	}
	dt := u.field("DocumentType")
	if dt != "" && !oneOf(dt, documentTypes) {
		return api.Attachment{}, serve.Invalid("DocumentType", "%q is not a document type (%s)", dt, strings.Join(documentTypes, ", "))
	}
	vis := api.MessageVisibility(u.field("MessageVisibility"))
	if vis == "" {
		vis = api.VisibilityAll
	}
	if !validVisibility(vis) {
		return api.Attachment{}, serve.Invalid("MessageVisibility", "%q is not a message visibility", vis)
	}
	return api.Attachment{
		AttachmentId: uuid.NewString(), Name: name, MimeType: mt, Size: int64(len(u.data)),
		DocumentType: dt, MessageVisibility: vis, Created: now,
	}, nil
}

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// ---- work order attachments ----

func (c *call) listAttachments() (any, error) {
	o, err := c.queryOrder()
	if err != nil {
		return nil, err
	}
	return c.envelope("Attachments", metas(o.files)), nil
}

func metas(fs []*file) []api.Attachment {
	out := make([]api.Attachment, len(fs))
	for i, f := range fs {
		out[i] = f.meta
	}
	return out
}

func (c *call) uploadAttachment() (any, error) {
	c.serveUpload(func(u *upload, meta api.Attachment) (any, error) {
		id, err := u.id("WorkOrderId")
		if err != nil {
			return nil, err
		}
		o, err := c.order(id)
		if err != nil {
			return nil, err
		}
		if o.wo.Status == api.StatusRejected {
			return nil, business(api.CodeWrongStatus, "Work order %s was rejected; attachments are no longer possible.", o.wo.WorkOrderNumber)
		}
		f := &file{meta: meta, data: u.data, woID: id}
		o.files = append(o.files, f)
		c.s.st.files[meta.AttachmentId] = f
		c.s.st.touch(o, c.now)
		return c.envelope("Attachment", meta), nil
	})
	return nil, nil
}

// deleteAttachment: providers cannot remove work order attachments (spec
// §2); the route exists so the refusal is a clear business error: 400 with
// code 3000, as every business refusal is (service-facts §10).
func (c *call) deleteAttachment() (any, error) {
	return nil, business(api.CodeBusinessRule, "Work order attachments cannot be removed; only the customer can remove them.")
}

func (c *call) attachmentLink() (any, error) {
	o, err := c.queryOrder()
	if err != nil {
		return nil, err
	}
	f, err := findFile(o.files, c.query("attachmentId"))
	if err != nil {
		return nil, err
	}
	return c.link(f), nil
}

func findFile(fs []*file, id string) (*file, error) {
	if id == "" {
		return nil, serve.Invalid("attachmentId", "attachmentId is required")
	}
	for _, f := range fs {
		if strings.EqualFold(f.meta.AttachmentId, id) {
			return f, nil
		}
	}
	return nil, business(api.CodeNoSuchEntity, "Attachment %s was not found.", id)
}

func removeFile(fs []*file, f *file) []*file {
	out := fs[:0]
	for _, g := range fs {
		if g != f {
			out = append(out, g)
		}
	}
	return out
}

// ---- invoice attachments ----

func (c *call) listInvoiceAttachments() (any, error) {
	o, err := c.queryInvoiceOrder()
	if err != nil {
		return nil, err
	}
	return c.envelope("Attachments", metas(o.invFiles)), nil
}

// Invoice attachments change only while the invoice is editable
// (assumption: a submitted invoice is what the customer reviews).
func (c *call) uploadInvoiceAttachment() (any, error) {
	c.serveUpload(func(u *upload, meta api.Attachment) (any, error) {
		id, err := u.id("WorkOrderId")
		if err != nil {
			return nil, err
		}
		o, _, err := c.editableInvoice(id)
		if err != nil {
			return nil, err
		}
		meta.MessageVisibility = "" // not a field of invoice attachments
		f := &file{meta: meta, data: u.data, woID: id}
		o.invFiles = append(o.invFiles, f)
		c.s.st.files[meta.AttachmentId] = f
		c.s.st.touch(o, c.now)
		return c.envelope("Attachment", meta), nil
	})
	return nil, nil
}

func (c *call) deleteInvoiceAttachment() (any, error) {
	id, err := c.queryID("workOrderId")
	if err != nil {
		return nil, err
	}
	o, _, err := c.editableInvoice(id)
	if err != nil {
		return nil, err
	}
	f, err := findFile(o.invFiles, c.query("attachmentId"))
	if err != nil {
		return nil, err
	}
	o.invFiles = removeFile(o.invFiles, f)
	delete(c.s.st.files, f.meta.AttachmentId)
	c.s.st.touch(o, c.now)
	return nil, nil
}

func (c *call) invoiceAttachmentLink() (any, error) {
	o, err := c.queryInvoiceOrder()
	if err != nil {
		return nil, err
	}
	f, err := findFile(o.invFiles, c.query("attachmentId"))
	if err != nil {
		return nil, err
	}
	return c.link(f), nil
}

// ---- procedure step attachments ----

// stepOf resolves workOrderId, procedureId and stepId (3003 when the
// procedure or step is not on the work order).
func (s *store) stepOf(woID, procID, stepID int64) (*order, *api.Procedure, error) {
	o, err := s.actionable(woID)
	if err != nil {
		return nil, nil, err
	}
	p := o.procedure(procID)
	if p == nil {
		return nil, nil, business(api.CodeNoSuchEntity, "Procedure %d is not on work order %s.", procID, o.wo.WorkOrderNumber)
	}
	if !hasStep(p, stepID) {
		return nil, nil, business(api.CodeNoSuchEntity, "Step %d is not in procedure %q.", stepID, p.Name)
	}
	return o, p, nil
}

func (c *call) stepQuery() (*order, *api.Procedure, int64, error) {
	var ids [3]int64
	for i, k := range []string{"workOrderId", "procedureId", "stepId"} {
		v, err := c.queryID(k)
		if err != nil {
			return nil, nil, 0, err
		}
		ids[i] = v
	}
	o, p, err := c.s.st.stepOf(ids[0], ids[1], ids[2])
	return o, p, ids[2], err
}

// stepEditable is spec §2: step attachments change only while the procedure
// is editable (its work order in api.ProcedureEditStates, else 3001) and not
// marked N/A or read-only (3000 with the reason). It is
// api.WorkOrder.StepAttachmentsEditable spelled out per reason.
func stepEditable(o *order, p *api.Procedure) error {
	switch {
	case !o.wo.ProceduresEditable():
		return wrongStatus(o, "changing the attachments of procedure steps", api.ProcedureEditStates...)
	case p.IsMarkedNa:
		return business(api.CodeBusinessRule, "Procedure %q is marked N/A; its step attachments cannot be changed.", p.Name)
	case p.IsReadOnly:
		return business(api.CodeBusinessRule, "Procedure %q is read-only; its step attachments cannot be changed.", p.Name)
	}
	return nil
}

func stepMeta(f *file) api.StepAttachment {
	return api.StepAttachment{Attachment: f.meta, WorkOrderId: f.woID, ProcedureId: f.procID, StepId: f.stepID}
}

// listStepAttachments returns every attachment of the step: no count limit (spec §8).
func (c *call) listStepAttachments() (any, error) {
	o, _, stepID, err := c.stepQuery()
	if err != nil {
		return nil, err
	}
	out := []api.StepAttachment{}
	for _, f := range c.s.st.steps[stepID] {
		if f.woID == o.wo.WorkOrderId {
			out = append(out, stepMeta(f))
		}
	}
	return c.envelope("Attachments", out), nil
}

func (c *call) uploadStepAttachment() (any, error) {
	c.serveUpload(func(u *upload, meta api.Attachment) (any, error) {
		var ids [3]int64
		for i, k := range []string{"WorkOrderId", "ProcedureId", "StepId"} {
			v, err := u.id(k)
			if err != nil {
				return nil, err
			}
			ids[i] = v
		}
		o, p, err := c.s.st.stepOf(ids[0], ids[1], ids[2])
		if err != nil {
			return nil, err
		}
		if err := stepEditable(o, p); err != nil {
			return nil, err
		}
		meta.MessageVisibility = ""
		f := &file{meta: meta, data: u.data, woID: ids[0], procID: ids[1], stepID: ids[2]}
		c.s.st.steps[ids[2]] = append(c.s.st.steps[ids[2]], f)
		c.s.st.files[meta.AttachmentId] = f
		c.s.st.touch(o, c.now)
		return c.envelope("Attachment", stepMeta(f)), nil
	})
	return nil, nil
}

func (c *call) deleteStepAttachment() (any, error) {
	o, p, stepID, err := c.stepQuery()
	if err != nil {
		return nil, err
	}
	f, err := findFile(c.s.st.steps[stepID], c.query("attachmentId"))
	if err != nil {
		return nil, err
	}
	if err := stepEditable(o, p); err != nil {
		return nil, err
	}
	c.s.st.steps[stepID] = removeFile(c.s.st.steps[stepID], f)
	delete(c.s.st.files, f.meta.AttachmentId)
	c.s.st.touch(o, c.now)
	return nil, nil
}

// stepAttachmentLink works whatever the procedure's state: reading is
// always allowed, only changes are restricted.
func (c *call) stepAttachmentLink() (any, error) {
	_, _, stepID, err := c.stepQuery()
	if err != nil {
		return nil, err
	}
	f, err := findFile(c.s.st.steps[stepID], c.query("attachmentId"))
	if err != nil {
		return nil, err
	}
	return c.link(f), nil
}

// ---- signed download links ----

// link builds a temporary download URL: /files/<id>?expires=<unix>&sig=<hmac>,
// the HMAC-SHA256 of path and expiry under a secret that never leaves the
// sandbox, so a link cannot be forged or extended.
func (c *call) link(f *file) map[string]any {
	exp := c.now.Add(LinkLifetime)
	path := "/files/" + f.meta.AttachmentId
	q := url.Values{"expires": {strconv.FormatInt(exp.Unix(), 10)}, "sig": {c.s.sign(path, exp.Unix())}}
	return map[string]any{
		"Url":       linkBase(c.r) + path + "?" + q.Encode(),
		"ExpiresAt": time.Unix(exp.Unix(), 0).UTC(),
		"MessageId": c.msgID,
	}
}

func (s *Sandbox) sign(path string, exp int64) string {
	m := hmac.New(sha256.New, s.linkSecret)
	io.WriteString(m, path+"\n"+strconv.FormatInt(exp, 10))
	return hex.EncodeToString(m.Sum(nil))
}

// serveFile answers a download link: 403 for a bad signature or once the
// sandbox clock has passed the expiry, 404 when the file was removed.
func (s *Sandbox) serveFile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		serve.WriteError(w, &api.Error{StatusCode: http.StatusMethodNotAllowed, Message: "download links are read with GET"}, "")
		return
	}
	i := strings.Index(strings.ToLower(r.URL.Path), "/files/")
	id := strings.TrimRight(r.URL.Path[i+len("/files/"):], "/")
	path := "/files/" + id
	exp, err := strconv.ParseInt(r.URL.Query().Get("expires"), 10, 64)
	sig := r.URL.Query().Get("sig")
	if err != nil || !hmac.Equal([]byte(sig), []byte(s.sign(path, exp))) {
		serve.WriteError(w, &api.Error{StatusCode: http.StatusForbidden, Message: "The download link is not valid."}, "")
		return
	}
	if !s.clock.Now().Before(time.Unix(exp, 0)) {
		serve.WriteError(w, &api.Error{StatusCode: http.StatusForbidden, Message: "The download link has expired; ask for a new one."}, "")
		return
	}
	s.mu.RLock()
	f, ok := s.st.files[id]
	s.mu.RUnlock()
	if !ok {
		serve.WriteError(w, &api.Error{StatusCode: http.StatusNotFound, Message: "The file no longer exists."}, "")
		return
	}
	// f.data is never modified after upload, so it is safe to use unlocked.
	w.Header().Set("Content-Type", f.meta.MimeType)
	w.Header().Set("Content-Length", strconv.Itoa(len(f.data)))
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.meta.Name}))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(f.data)
	}
}
