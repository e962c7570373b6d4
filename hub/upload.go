package hub

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/workorderdesk/workdesk/api"
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
		return nil, invalid("", "the upload is not multipart/form-data")
	}
	// The service's limit plus room for the fields and the multipart
	// framing; the file arrives while the service reads it, so only a stall
	// ends it, not its length.
	streamBody(r)
	mr := multipart.NewReader(maxBytes(w, r.Body, api.MaxAttachmentSize+1<<20), params["boundary"])
	var fields []formField
	var file *multipart.Part
	for file == nil {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, invalid("File", "the upload has no file")
		}
		if err != nil {
			return nil, invalid("", "the upload cannot be read: "+err.Error())
		}
		if part.FileName() != "" {
			file = part
			break
		}
		v, err := io.ReadAll(io.LimitReader(part, maxField))
		if err != nil {
			return nil, invalid("", "the upload cannot be read: "+err.Error())
		}
		fields = append(fields, formField{part.FormName(), string(v)})
		switch strings.ToLower(part.FormName()) {
		case "workorderid":
			id, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64)
			if err != nil || id <= 0 {
				return nil, invalid("WorkOrderId", "WorkOrderId must be a positive integer")
			}
			wr.workOrders = []int64{id}
		case "messageid":
			wr.messageId = string(v)
		}
	}
	if len(wr.workOrders) == 0 {
		if bad := idsFromQuery(r.URL.Query(), wr); bad != nil {
			return nil, invalid("WorkOrderId", "WorkOrderId is required")
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
