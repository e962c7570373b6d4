package hub

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
	"github.com/workorderdesk/workdesk/outbox"
)

// maxField caps one form field of an upload; only the file part is large.
const maxField = 64 << 10

// maxUpload caps an upload's body: the service's file limit plus room for
// the fields and the multipart framing.
const maxUpload = api.MaxAttachmentSize + 1<<20

// uploadTooLarge answers an upload over the service's limit: 413, which
// the desktop's outbox does not retry.
func uploadTooLarge() *api.Error {
	return &api.Error{StatusCode: http.StatusRequestEntityTooLarge,
		Message: fmt.Sprintf("The file is larger than the service's %d MB limit.", api.MaxAttachmentSize>>20)}
}

// prepareUpload reads an upload's form fields up to its file part (the
// desktop sends the file last), takes the work order and MessageId from
// them, and sets wr.body to a new multipart body that writes those fields
// and then streams the file from the desktop's request as the service reads
// it: no file is held whole in memory or on disk. The returned cleanup stops
// the streaming goroutine.
func (h *Hub) prepareUpload(w http.ResponseWriter, r *http.Request, wr *write) (func(), *api.Error) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return nil, serve.Invalid("", "the upload is not multipart/form-data")
	}
	if r.ContentLength > maxUpload {
		// Said at once, before a byte of it is read or sent.
		return nil, uploadTooLarge()
	}
	// The service's limit plus room for the fields and the multipart
	// framing; the file arrives while the service reads it, so only a stall
	// ends it, not its length.
	streamBody(r)
	mr := multipart.NewReader(serve.MaxBytes(w, r.Body, maxUpload), params["boundary"])
	var fields []formField
	var file *multipart.Part
	var name string
	var step api.StepRef
	seen := map[string]bool{}
	for file == nil {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, serve.Invalid("File", "the upload has no file")
		}
		if err != nil {
			return nil, serve.Invalid("", "the upload cannot be read: %v", err)
		}
		if part.FileName() != "" {
			file = part
			break
		}
		v, err := io.ReadAll(io.LimitReader(part, maxField))
		if err != nil {
			return nil, serve.Invalid("", "the upload cannot be read: %v", err)
		}
		// The form is the sender's claim too: each field once, one the
		// service's form has, in UTF-8; who acts is the person signed in.
		field, known := uploadField(part.FormName())
		switch {
		case !known:
			return nil, serve.Invalid(part.FormName(), "the field %q is not part of an upload", part.FormName())
		case seen[field]:
			return nil, serve.Invalid(field, "the field %q is given twice", field)
		case !utf8.Valid(v):
			return nil, serve.Invalid(field, "the field %q is not valid UTF-8", field)
		}
		seen[field] = true
		if field != performedByField {
			fields = append(fields, formField{field, string(v)})
		}
		switch strings.ToLower(field) {
		case "workorderid":
			id, bad := serve.ID("WorkOrderId", string(v))
			if bad != nil {
				return nil, bad
			}
			wr.workOrders = []int64{id}
		case "messageid":
			if len(v) > 0 {
				wr.messageId = string(v)
			}
		case "name":
			name = string(v)
		case "procedureid":
			step.ProcedureId, _ = strconv.ParseInt(string(v), 10, 64)
		case "stepid":
			step.StepId, _ = strconv.ParseInt(string(v), 10, 64)
		}
	}
	if len(wr.workOrders) == 0 {
		if bad := idsFromQuery(r.URL.Query(), wr); bad != nil {
			return nil, serve.Invalid("WorkOrderId", "WorkOrderId is required")
		}
	}
	if name == "" {
		name = file.FileName()
	}
	if !utf8.ValidString(name) || !utf8.ValidString(file.FileName()) {
		return nil, serve.Invalid("Name", "the file's name is not valid UTF-8")
	}
	if wr.person.Name != "" {
		fields = append(fields, formField{performedByField, wr.person.Name})
	}
	// The landed check goes by the file's name and step; its size is
	// known once it has passed (uploadSize).
	var stepOf *api.StepRef
	if step.ProcedureId > 0 || step.StepId > 0 {
		step.WorkOrderId = wr.workOrders[0]
		stepOf = &step
	}
	wr.upload = &uploadInfo{name: name, step: stepOf}
	wr.request = outbox.UploadRequest(wr.workOrders[0], stepOf, name, 0)
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	done := make(chan struct{})
	started := false
	wr.contentType = mw.FormDataContentType()
	wr.replayable = false
	wr.body = func() io.Reader {
		started = true
		go func() {
			defer close(done)
			err := copyUpload(mw, fields, file, &wr.upload.size)
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok || errors.Is(err, errFileTooLarge) {
				wr.tooLarge.Store(true)
			}
			pw.CloseWithError(err)
		}()
		return pr
	}
	return func() {
		pr.CloseWithError(errors.New("upload ended"))
		if started {
			<-done
		}
	}, nil
}

type formField struct{ name, value string }

// performedByField is the upload's field naming who acts (api.UploadFields).
const performedByField = "PerformedBy.Name"

// uploadField is the service's spelling of an upload's form field, and
// whether the service's form has it (names match regardless of case).
func uploadField(name string) (string, bool) {
	for _, f := range api.UploadFields {
		if strings.EqualFold(f, name) {
			return f, true
		}
	}
	return "", false
}

// uploadInfo is what the landed check of an upload reads: the file's name
// and step, and its size once it has passed whole.
type uploadInfo struct {
	name string
	step *api.StepRef
	size atomic.Int64
}

func copyUpload(mw *multipart.Writer, fields []formField, file *multipart.Part, size *atomic.Int64) error {
	for _, f := range fields {
		if err := mw.WriteField(f.name, f.value); err != nil {
			return err
		}
	}
	part, err := mw.CreatePart(file.Header)
	if err != nil {
		return err
	}
	// No more than the service takes is passed on: past it, the service
	// is left with a broken upload it cannot store, and the desktop is
	// told the file is too large, not whatever the service makes of it.
	n, err := io.Copy(part, io.LimitReader(file, api.MaxAttachmentSize))
	if err != nil {
		return err
	}
	if m, _ := file.Read(make([]byte, 1)); m > 0 {
		return errFileTooLarge
	}
	size.Store(n)
	return mw.Close()
}

// errFileTooLarge: an upload's file went past the service's limit.
var errFileTooLarge = errors.New("the file is larger than the service takes")
