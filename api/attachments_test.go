package api

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

type receivedUpload struct {
	fields      map[string]string
	fileName    string
	fileType    string
	fileSize    int64
	fileSum     [32]byte
	contentType string
}

// answerMultipart parses each upload as it streams in and records it.
func answerMultipart(t *testing.T, fs *fakeService, got chan<- receivedUpload) {
	fs.setAnswer(func(w http.ResponseWriter, r *http.Request, body []byte) {
		up := receivedUpload{fields: map[string]string{}, contentType: r.Header.Get("Content-Type")}
		_, params, err := mime.ParseMediaType(up.contentType)
		if err != nil {
			t.Errorf("Content-Type %q: %v", up.contentType, err)
			w.WriteHeader(400)
			return
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				// e.g. a body the client abandoned half-way: not an upload
				w.WriteHeader(400)
				return
			}
			if p.FormName() == "File" {
				up.fileName, up.fileType = p.FileName(), p.Header.Get("Content-Type")
				h := sha256.New()
				up.fileSize, _ = io.Copy(h, p)
				copy(up.fileSum[:], h.Sum(nil))
				continue
			}
			b, _ := io.ReadAll(p)
			up.fields[p.FormName()] = string(b)
		}
		got <- up
		io.WriteString(w, `{"Attachment":{"AttachmentId":"att-1","Name":"x"}}`)
	})
}

func TestUploadMultipartFields(t *testing.T) {
	t.Parallel()
	content := []byte("%PDF-1.7 signed work ticket")
	sum := sha256.Sum256(content)
	tests := []struct {
		name       string
		call       func(c *Client, up Upload) error
		path       string
		wantFields map[string]string
	}{
		{name: "work order", path: "/Direct/api/attachments",
			call: func(c *Client, up Upload) error {
				up.MessageVisibility = VisibilityCruOnly
				_, err := c.UploadAttachment(bg, 42, up)
				return err
			},
			wantFields: map[string]string{"WorkOrderId": "42", "Name": "ticket.pdf", "MimeType": "application/pdf",
				"DocumentType": "Signature", "MessageVisibility": "CruOnly"}},
		{name: "invoice", path: "/Direct/api/invoice/attachments",
			call: func(c *Client, up Upload) error { _, err := c.UploadInvoiceAttachment(bg, 42, up); return err },
			wantFields: map[string]string{"WorkOrderId": "42", "Name": "ticket.pdf", "MimeType": "application/pdf",
				"DocumentType": "Signature"}},
		{name: "procedure step", path: "/Direct/api/procedure/step/attachments",
			call: func(c *Client, up Upload) error {
				_, err := c.UploadStepAttachment(bg, StepRef{WorkOrderId: 42, ProcedureId: 7, StepId: 9}, up)
				return err
			},
			wantFields: map[string]string{"WorkOrderId": "42", "ProcedureId": "7", "StepId": "9", "Name": "ticket.pdf",
				"MimeType": "application/pdf", "DocumentType": "Signature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			got := make(chan receivedUpload, 2)
			answerMultipart(t, fs, got)
			c, _ := fs.client(t, nil)
			err := tt.call(c, Upload{Name: "ticket.pdf", MimeType: "application/pdf", DocumentType: "Signature",
				Content: bytes.NewReader(content)})
			if err != nil {
				t.Fatal(err)
			}
			call := fs.lastCall(t)
			if call.Method != http.MethodPost || call.Path != tt.path {
				t.Errorf("sent %s %s, want POST %s", call.Method, call.Path, tt.path)
			}
			up := <-got
			if !strings.HasPrefix(up.contentType, "multipart/form-data; boundary=") {
				t.Errorf("Content-Type = %q", up.contentType)
			}
			for k, v := range tt.wantFields {
				if up.fields[k] != v {
					t.Errorf("field %s = %q, want %q", k, up.fields[k], v)
				}
			}
			if !isUUID(up.fields["MessageId"]) {
				t.Errorf("MessageId field = %q, want a UUID", up.fields["MessageId"])
			}
			if _, ok := up.fields["MessageVisibility"]; ok && tt.wantFields["MessageVisibility"] == "" {
				t.Error("MessageVisibility sent where none was chosen")
			}
			if up.fileName != "ticket.pdf" || up.fileType != "application/pdf" || up.fileSum != sum {
				t.Errorf("file = %q %q %d bytes, want ticket.pdf application/pdf %d bytes intact", up.fileName, up.fileType, up.fileSize, len(content))
			}
		})
	}
}

// zeroes is an io.ReaderAt of zero bytes, so large seekable files cost no memory.
type zeroes struct{}

func (zeroes) ReadAt(p []byte, _ int64) (int, error) { clear(p); return len(p), nil }

// countingReader produces size bytes of a pattern without holding them,
// counting what it has handed out.
type countingReader struct {
	size int64
	read atomic.Int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	left := r.size - r.read.Load()
	if left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	for i := range p {
		p[i] = byte(i)
	}
	r.read.Add(int64(len(p)))
	return len(p), nil
}

func TestUploadOver20MBRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	const size = 21 << 20
	tests := []struct {
		name string
		up   func() (Upload, *countingReader)
	}{
		{"declared size", func() (Upload, *countingReader) {
			r := &countingReader{size: size}
			return Upload{Name: "video.mp4", Size: size, Content: r}, r
		}},
		{"seekable file", func() (Upload, *countingReader) {
			return Upload{Name: "video.mp4", Content: io.NewSectionReader(zeroes{}, 0, size)}, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeService(t)
			c, _ := fs.client(t, nil)
			up, counter := tt.up()
			_, err := c.UploadAttachment(bg, 42, up)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if !IsBusiness(err) || IsTemporary(err) {
				t.Error("a too-large file must not be queued for retry")
			}
			if !strings.Contains(err.Error(), "video.mp4") || !strings.Contains(err.Error(), "21.0 MB") {
				t.Errorf("error does not tell the user which file and how big: %v", err)
			}
			if n := len(fs.apiCalls()); n != 0 {
				t.Errorf("%d requests sent for a refused file", n)
			}
			if n := len(fs.tokenRequests()); n != 0 {
				t.Errorf("%d token requests for a refused file", n)
			}
			if counter != nil && counter.read.Load() != 0 {
				t.Errorf("%d bytes read from a refused file", counter.read.Load())
			}
		})
	}
}

func TestUploadOfUnknownSizeStopsAtTheLimit(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	got := make(chan receivedUpload, 1)
	answerMultipart(t, fs, got)
	c, _ := fs.client(t, nil)
	r := &countingReader{size: 21 << 20}
	_, err := c.UploadAttachment(bg, 42, Upload{Name: "stream.bin", Content: onlyReader{r}})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if n := r.read.Load(); n > MaxAttachmentSize+1<<20 {
		t.Errorf("read %d bytes; the stream should stop just past 20 MB", n)
	}
	select {
	case <-got:
		t.Error("the service received a complete over-size upload")
	default:
	}
}

// TestUpload20MBIsStreamed checks that the file is sent while it is read,
// not read whole into memory first: when the service has received the
// first megabyte of the file, the reader is still far from its end.
func TestUpload20MBIsStreamed(t *testing.T) {
	t.Parallel()
	const size = MaxAttachmentSize
	fs := newFakeService(t)
	r := &countingReader{size: size}
	var readWhenFirstMBArrived atomic.Int64
	var received atomic.Int64
	fs.streamAnswer = func(w http.ResponseWriter, req *http.Request) {
		_, params, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
		mr := multipart.NewReader(req.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			if p.FormName() != "File" {
				continue
			}
			buf := make([]byte, 32<<10)
			var n int64
			for {
				k, err := p.Read(buf)
				n += int64(k)
				if n >= 1<<20 && readWhenFirstMBArrived.Load() == 0 {
					readWhenFirstMBArrived.Store(r.read.Load())
				}
				if err != nil {
					break
				}
			}
			received.Store(n)
		}
		io.WriteString(w, `{"Attachment":{"AttachmentId":"big"}}`)
	}
	c, _ := fs.client(t, nil)
	a, err := c.UploadAttachment(bg, 42, Upload{Name: "scan.tiff", MimeType: "image/tiff", Size: size, Content: r})
	if err != nil {
		t.Fatalf("a 20 MB file (the limit itself) was refused: %v", err)
	}
	if a.AttachmentId != "big" {
		t.Errorf("AttachmentId = %q", a.AttachmentId)
	}
	if received.Load() != size {
		t.Errorf("service received %d bytes, want %d", received.Load(), size)
	}
	if at := readWhenFirstMBArrived.Load(); at == 0 || at >= size {
		t.Errorf("the whole file (%d bytes) was read before the first megabyte reached the service: not streamed", at)
	}
}

func TestSeekableUploadReplayedAfter401(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.revokeOnIssue = 1
	got := make(chan receivedUpload, 2)
	answerMultipart(t, fs, got)
	c, _ := fs.client(t, nil)
	content := bytes.Repeat([]byte("photo "), 100_000)
	if _, err := c.UploadAttachment(bg, 42, Upload{Name: "p.jpg", MimeType: "image/jpeg", Content: bytes.NewReader(content)}); err != nil {
		t.Fatal(err)
	}
	if n := len(fs.apiCalls()); n != 2 {
		t.Fatalf("API calls = %d, want 2", n)
	}
	up := <-got
	if up.fileSum != sha256.Sum256(content) {
		t.Errorf("replayed file arrived damaged: %d of %d bytes", up.fileSize, len(content))
	}
}

func TestUploadNeedsFileAndName(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	for _, up := range []Upload{{Name: "x.pdf"}, {Content: strings.NewReader("x")}} {
		if _, err := c.UploadAttachment(bg, 1, up); !IsBusiness(err) {
			t.Errorf("err = %v, want a business error", err)
		}
	}
	if n := len(fs.apiCalls()); n != 0 {
		t.Errorf("%d invalid uploads sent", n)
	}
}

// TestUploadReplayAfterEarly401 has the service refuse the token before
// reading the body, as a real server may: the first attempt's body is still
// being written when the retry rewinds the file, so the retry must wait for it.
func TestUploadReplayAfterEarly401(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	fs.revokeOnIssue = 1
	sums := make(chan [32]byte, 1)
	fs.streamAnswer = func(w http.ResponseWriter, r *http.Request) {
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			if p.FormName() == "File" {
				h := sha256.New()
				io.Copy(h, p)
				var s [32]byte
				copy(s[:], h.Sum(nil))
				sums <- s
			}
		}
		io.WriteString(w, `{"Attachment":{"AttachmentId":"ok"}}`)
	}
	c, _ := fs.client(t, nil)
	content := bytes.Repeat([]byte("0123456789abcdef"), 4<<20/16)
	if _, err := c.UploadAttachment(bg, 42, Upload{Name: "big.bin", Content: bytes.NewReader(content)}); err != nil {
		t.Fatal(err)
	}
	if got := <-sums; got != sha256.Sum256(content) {
		t.Error("the retried upload arrived damaged")
	}
	if n := len(fs.apiCalls()); n != 2 {
		t.Errorf("API calls = %d, want 2", n)
	}
}

// failingFile gives some bytes, then the error a failing disk gives.
type failingFile struct{ given bool }

func (f *failingFile) Read(p []byte) (int, error) {
	if !f.given {
		f.given = true
		return copy(p, "%PDF-1.7"), nil
	}
	return 0, &os.PathError{Op: "read", Path: "/home/pat/spool/3f2a", Err: syscall.EIO}
}

// TestUploadOfAnUnreadableFileIsNotANetworkProblem: a file that cannot be
// read while it is sent is this computer's problem, said so without the
// path, never "the service could not be reached", and not worth retrying
// as a network failure.
func TestUploadOfAnUnreadableFileIsNotANetworkProblem(t *testing.T) {
	t.Parallel()
	fs := newFakeService(t)
	c, _ := fs.client(t, nil)
	_, err := c.UploadAttachment(bg, 42, Upload{Name: "report.pdf", Size: 4096, Content: &failingFile{}})
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v (%T); want the file's read error", err, err)
	}
	if p := Plain(err); p != "" {
		t.Errorf("said as a network problem: %q", p)
	}
	if IsTemporary(err) {
		t.Error("an unreadable file would be retried as a network failure")
	}
	msg := err.Error()
	if !strings.Contains(msg, "report.pdf could not be read (input/output error)") || strings.Contains(msg, "reached") ||
		strings.Contains(msg, "/home/pat") {
		t.Errorf("the error reads %q", msg)
	}
}
