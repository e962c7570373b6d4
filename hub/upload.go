package hub

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// maxField caps one form field of an upload; only the file part is large.
const maxField = 64 << 10

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
	// The service's limit plus room for the fields and the multipart
	// framing; the file arrives while the service reads it, so only a stall
	// ends it, not its length.
	streamBody(r)
	mr := multipart.NewReader(serve.MaxBytes(w, r.Body, api.MaxAttachmentSize+1<<20), params["boundary"])
	var fields []formField
	var file *multipart.Part
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
		fields = append(fields, formField{part.FormName(), string(v)})
		switch strings.ToLower(part.FormName()) {
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
		}
	}
	if len(wr.workOrders) == 0 {
		if bad := idsFromQuery(r.URL.Query(), wr); bad != nil {
			return nil, serve.Invalid("WorkOrderId", "WorkOrderId is required")
		}
	}
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
			pw.CloseWithError(copyUpload(mw, fields, file))
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

func copyUpload(mw *multipart.Writer, fields []formField, file *multipart.Part) error {
	for _, f := range fields {
		if err := mw.WriteField(f.name, f.value); err != nil {
			return err
		}
	}
	part, err := mw.CreatePart(file.Header)
	if err != nil {
		return err
	}
	if _, err := io.Copy(part, file); err != nil {
		return err
	}
	return mw.Close()
}
