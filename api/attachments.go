package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Upload is a file to attach. Content is streamed, never buffered whole; when
// it is an io.ReadSeeker the upload can be replayed after a 401.
type Upload struct {
	Name              string // file name with extension
	MimeType          string
	Size              int64 // bytes; 0 = find out from Content when it can seek
	Content           io.Reader
	DocumentType      string            // Document, Picture, Signature, ...; optional
	MessageVisibility MessageVisibility // work order attachments only; default All
	// PerformedBy names the person uploading; "" = the Client's (SetPerformedBy).
	PerformedBy string
}

// FileError is a file to upload that could not be read on this computer:
// not a network problem, and sending again does not help until it can be.
type FileError struct {
	Name string // the file's name, as uploaded
	Err  error
}

func (e *FileError) Error() string { return e.Name + " could not be read (" + e.Reason() + ")" }
func (e *FileError) Unwrap() error { return e.Err }

// Reason is the system's words for what went wrong ("input/output
// error"), without the path the file was read from.
func (e *FileError) Reason() string { return innermost(e.Err).Error() }

// fileReader marks the errors of reading the file being uploaded, which
// reach the caller through the HTTP transport, as the file's.
type fileReader struct {
	r    io.Reader
	name string
}

func (f fileReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && err != io.EOF {
		err = &FileError{Name: f.name, Err: err}
	}
	return n, err
}

type attachmentResponse struct {
	Attachment Attachment `json:"Attachment"`
	MessageId  string     `json:"MessageId"`
}

// StepLinkLifetime is how long a step attachment download link stays valid (spec §8).
const StepLinkLifetime = 15 * time.Minute

// ListAttachments lists a work order's attachments (GET /api/attachments).
// The list's key, Attachments, is our guess.
func (c *Client) ListAttachments(ctx context.Context, workOrderId int64) ([]Attachment, error) {
	return getList[Attachment](ctx, c, "api/attachments", idQuery(workOrderId), "Attachments")
}

// UploadAttachment attaches a file to a work order (POST /api/attachments).
// Work order attachments cannot be removed afterwards.
func (c *Client) UploadAttachment(ctx context.Context, workOrderId int64, up Upload) (*Attachment, error) {
	fields := map[string]string{"WorkOrderId": strconv.FormatInt(workOrderId, 10)}
	if up.MessageVisibility != "" {
		fields["MessageVisibility"] = string(up.MessageVisibility)
	}
	var out attachmentResponse
	err := c.upload(ctx, "api/attachments", fields, up, &out)
	return &out.Attachment, err
}

// AttachmentDownloadURL asks for a temporary link to a work order attachment.
func (c *Client) AttachmentDownloadURL(ctx context.Context, workOrderId int64, attachmentId string) (DownloadURL, error) {
	q := idQuery(workOrderId)
	q.Set("attachmentId", attachmentId)
	return c.downloadURL(ctx, "api/attachments/downloadUrl", q)
}

func (c *Client) downloadURL(ctx context.Context, path string, q url.Values) (DownloadURL, error) {
	var raw json.RawMessage
	asked := time.Now()
	if err := c.getJSON(ctx, path, q, &raw); err != nil {
		return DownloadURL{}, err
	}
	link, err := readLink(raw, "GET /"+path)
	if err != nil {
		return DownloadURL{}, err
	}
	if link.ExpiresAt.IsZero() {
		// The service documents the lifetime, not a field carrying it.
		link.ExpiresAt = asked.Add(StepLinkLifetime)
	}
	return link, nil
}

// readLink finds the link in a download-link answer, whose shape is not
// published (service-facts §14): Url (our guess) when it is there, else
// the one absolute http(s) address the answer holds, or the answer itself
// when it is a bare string. Anything else is an error naming the keys:
// never a link we made up.
func readLink(raw []byte, op string) (DownloadURL, error) {
	var bare string
	if json.Unmarshal(raw, &bare) == nil {
		if isLink(bare) {
			return DownloadURL{URL: bare}, nil
		}
		return DownloadURL{}, fmt.Errorf("%s: the service returned no link", op)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return DownloadURL{}, fmt.Errorf("%s: %w", op, plainJSONError(err))
	}
	var link DownloadURL
	_ = json.Unmarshal(raw, &link) // Url and ExpiresAt, where they are
	if link.URL != "" {
		if !isLink(link.URL) {
			return DownloadURL{}, fmt.Errorf("%s: the service's link is not an http(s) address", op)
		}
		return link, nil
	}
	var found []string
	keys := make([]string, 0, len(fields))
	for k, v := range fields {
		keys = append(keys, k)
		var s string
		if json.Unmarshal(v, &s) == nil && isLink(s) {
			found = append(found, s)
		}
	}
	if len(found) == 1 {
		link.URL = found[0]
		return link, nil
	}
	slices.Sort(keys)
	return DownloadURL{}, fmt.Errorf("%s: the service returned no link we know (we read Url): keys %s", op, strings.Join(keys, ", "))
}

func isLink(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// Download fetches the file behind a temporary link, writing it to w and
// reporting progress (bytes so far, total or -1). The link is not logged.
func (c *Client) Download(ctx context.Context, link DownloadURL, w io.Writer, progress func(done, total int64)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link.URL, nil)
	if err != nil {
		return errors.New("the download link is not a valid URL")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		// Unwrapped first: the *url.Error would carry the link itself.
		return fmt.Errorf("downloading: %w", plainNetError("the file's server", errors.Unwrap(err)))
	}
	defer drain(resp)
	if resp.StatusCode != http.StatusOK {
		if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusGone {
			return fmt.Errorf("the download link has expired (HTTP %d); ask for a new one", resp.StatusCode)
		}
		return fmt.Errorf("download failed: HTTP %d", resp.StatusCode)
	}
	total := resp.ContentLength
	var done int64
	buf := make([]byte, 64<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return werr
			}
			done += int64(n)
			if progress != nil {
				progress(done, total)
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("download interrupted: %w", rerr)
		}
	}
}

// upload streams a multipart/form-data body: the fields, Name, MimeType,
// DocumentType, MessageId and the File part last.
func (c *Client) upload(ctx context.Context, path string, fields map[string]string, up Upload, out any) error {
	op := "POST /" + path
	if up.Content == nil || up.Name == "" {
		return &Error{Op: op, StatusCode: http.StatusBadRequest, Code: CodeInvalidModel, Message: "a file and its name are required"}
	}
	size, err := uploadSize(up)
	if err != nil {
		return fmt.Errorf("%s: %w", op, &FileError{Name: up.Name, Err: err})
	}
	if size > MaxAttachmentSize {
		return fmt.Errorf("%s: %q is %s: %w", op, up.Name, HumanSize(size), ErrTooLarge)
	}
	mimeType := up.MimeType
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	id := messageId(ctx)
	if up.PerformedBy == "" {
		up.PerformedBy = c.PerformedBy()
	}
	seeker, replayable := up.Content.(io.Seeker)
	start := int64(0)
	if replayable {
		start, _ = seeker.Seek(0, io.SeekCurrent)
	}
	// The transport may go on reading a request body after it has the
	// answer, so each attempt's writer is stopped and waited for before the
	// content is rewound for a retry or handed back to the caller.
	var (
		pr       *io.PipeReader
		done     chan struct{}
		writeErr error // written by the writer before done closes
	)
	stop := func() {
		if pr != nil {
			pr.CloseWithError(errUploadEnded)
			<-done
		}
	}
	body := func() (io.Reader, string, error) {
		if pr != nil {
			stop()
			if _, err := seeker.Seek(start, io.SeekStart); err != nil {
				return nil, "", &FileError{Name: up.Name, Err: err}
			}
		}
		var pw *io.PipeWriter
		pr, pw = io.Pipe()
		done = make(chan struct{})
		mw := multipart.NewWriter(pw)
		go func() {
			defer close(done)
			writeErr = writeMultipart(mw, fields, up, mimeType, id)
			pw.CloseWithError(writeErr)
		}()
		return pr, mw.FormDataContentType(), nil
	}
	err = c.do(ctx, request{method: http.MethodPost, path: path, body: body, replayable: replayable, messageId: id}, out)
	stop()
	var fe *FileError
	switch {
	case err == nil:
	case errors.As(writeErr, &fe) || errors.As(err, &fe):
		// The transport reports the file's read error as its own failure:
		// said as the service's, it read "could not be reached".
		return fmt.Errorf("%s: %w", op, fe)
	case errors.Is(writeErr, ErrTooLarge):
		// The declared size was missing or wrong: the stream itself crossed the limit.
		return fmt.Errorf("%s: %q: %w", op, up.Name, ErrTooLarge)
	}
	return err
}

var errUploadEnded = errors.New("upload ended")

// UploadFields are an upload's form fields besides its file, in the order
// they are written (service-facts §4.4; PerformedBy.Name is our guess at
// the "Perfor…" field the form documents).
var UploadFields = []string{"WorkOrderId", "ProcedureId", "StepId", "Name", "MimeType", "DocumentType", "MessageVisibility", "PerformedBy.Name", "MessageId"}

func writeMultipart(mw *multipart.Writer, fields map[string]string, up Upload, mimeType, id string) error {
	all := map[string]string{"Name": up.Name, "MimeType": mimeType, "MessageId": id}
	if up.DocumentType != "" {
		all["DocumentType"] = up.DocumentType
	}
	for k, v := range fields {
		all[k] = v
	}
	// The form documents a field whose name begins "Perfor…" (service-facts
	// §4.4); ASP.NET binds a form's nested object from dotted names, so the
	// person goes as PerformedBy.Name (assumption).
	if up.PerformedBy != "" {
		all["PerformedBy.Name"] = up.PerformedBy
	}
	for _, k := range UploadFields {
		if v, ok := all[k]; ok {
			if err := mw.WriteField(k, v); err != nil {
				return err
			}
		}
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="File"; filename=%q`, up.Name))
	h.Set("Content-Type", mimeType)
	part, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	// Refuse mid-stream too when the declared size was wrong or unknown.
	n, err := io.Copy(part, io.LimitReader(fileReader{up.Content, up.Name}, MaxAttachmentSize+1))
	if err != nil {
		return err
	}
	if n > MaxAttachmentSize {
		return ErrTooLarge
	}
	return mw.Close()
}

func uploadSize(up Upload) (int64, error) {
	if up.Size > 0 {
		return up.Size, nil
	}
	if s, ok := up.Content.(io.Seeker); ok {
		cur, err := s.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, err
		}
		end, err := s.Seek(0, io.SeekEnd)
		if err != nil {
			return 0, err
		}
		if _, err := s.Seek(cur, io.SeekStart); err != nil {
			return 0, err
		}
		return end - cur, nil
	}
	return 0, nil // unknown: the stream itself is capped
}

// HumanSize renders a byte count as people read it ("20.0 MB").
func HumanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
