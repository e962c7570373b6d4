package storage

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// TestDownloadLinksAndTokensNeverReachTheDisk follows a person through a
// day's work that includes opening a step attachment through its 15-minute
// link, then reads every byte the replica wrote (database, WAL, spool) and
// looks for the link, its signature, the access token and the client secret.
func TestDownloadLinksAndTokensNeverReachTheDisk(t *testing.T) {
	t.Parallel()
	svc := newService(t, 80)
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "replica.db")
	s, _ := openAt(t, path)
	s.now = svc.sb.Clock().Now
	y := NewSyncer(s, svc.client, SyncOptions{})
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}

	// Find a step with an attachment, in a procedure that still takes new
	// ones, and fetch its link the way the window does (through the client:
	// storage never sees it).
	var link api.DownloadURL
	var wo *api.WorkOrder
	var step api.StepRef
	rows, _ := s.List(ctx, ListQuery{Sort: SortNumber})
search:
	for _, r := range rows {
		w, _ := s.WorkOrder(ctx, r.Id)
		if !w.ProceduresEditable() {
			continue
		}
		for _, p := range w.Procedures() {
			if p.IsReadOnly || p.IsMarkedNa {
				continue
			}
			for _, st := range p.Steps {
				ref := api.StepRef{WorkOrderId: w.WorkOrderId, ProcedureId: p.Id, StepId: st.Id}
				atts, err := svc.client.ListStepAttachments(ctx, ref)
				if err != nil || len(atts) == 0 {
					continue
				}
				if link, err = svc.client.StepAttachmentDownloadURL(ctx, ref, atts[0].AttachmentId); err != nil {
					t.Fatal(err)
				}
				wo, step = w, ref
				break search
			}
		}
	}
	if link.URL == "" {
		t.Fatal("the sandbox world has no editable step attachment to open")
	}
	var file bytes.Buffer
	if err := svc.client.Download(ctx, link, &file, nil); err != nil || file.Len() == 0 {
		t.Fatalf("download through the link: %d bytes, %v", file.Len(), err)
	}
	token, err := svc.tokens.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}

	u, _ := url.Parse(link.URL)
	needles := map[string]string{
		"download link":            link.URL,
		"link path":                u.Path,
		"access token":             token,
		"access token's signature": token[strings.Index(token, api.TokenSeparator)+len(api.TokenSeparator):],
		"client secret":            svc.sb.InfoFor(svc.srv.URL).ClientSecret,
	}
	if u.RawQuery != "" {
		needles["link query"] = u.RawQuery
	}
	for k, v := range u.Query() {
		if len(v) > 0 && len(v[0]) >= 16 { // the signature, not a short expiry number
			needles["link "+k] = v[0]
		}
	}
	if len(needles) < 7 {
		t.Fatalf("the link %q carries no signature to look for", u.Redacted())
	}
	// plain is text that storage does write, so a scan that cannot find it
	// proves nothing.
	plain := wo.WorkOrderNumber
	scan := func(when string) {
		t.Helper()
		files := []string{path, path + "-wal", path + "-shm"}
		spooled, _ := os.ReadDir(path + spoolSuffix)
		for _, e := range spooled {
			files = append(files, filepath.Join(path+spoolSuffix, e.Name()))
		}
		var all []byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err == nil {
				all = append(all, b...)
			}
		}
		if !bytes.Contains(all, []byte(plain)) {
			t.Fatalf("%s: the scan cannot even find %q; it proves nothing", when, plain)
		}
		for what, needle := range needles {
			if needle != "" && bytes.Contains(all, []byte(needle)) {
				t.Errorf("%s: the %s was written to disk", when, what)
			}
		}
	}

	// Everything storage does to that work order afterwards: a sync, the
	// detail view's refresh, and an upload to the very step, queued (the
	// file spooled) and then sent.
	svc.sb.AdvanceClock(time.Minute)
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Logf("refresh: %v", err) // pre-4.1 orders refuse invoice calls; irrelevant here
	}
	gauge := filepath.Join(t.TempDir(), "gauge.jpg")
	os.WriteFile(gauge, []byte("jpeg bytes of the gauge"), 0o600)
	stepRow := mustRow(t)(s.AddStepAttachment(ctx, step, gauge))
	if spooled, _ := os.ReadDir(path + spoolSuffix); len(spooled) == 0 {
		t.Fatal("the queued step upload spooled no file; the scan below would not cover the spool")
	}
	scan("with the step upload queued")

	// Plenty of ordinary work on other work orders too.
	accepted := pick(t, s, status(api.StatusAccepted))
	mustRow(t)(s.SendMessage(ctx, accepted.WorkOrderId, "opened the wiring diagram", api.VisibilityAll))
	photo := filepath.Join(t.TempDir(), "after.jpg")
	os.WriteFile(photo, []byte("jpeg bytes"), 0o600)
	mustRow(t)(s.AttachFile(ctx, accepted.WorkOrderId, photo, api.VisibilityAll))
	if _, err := NewSender(s, svc.client, SenderOptions{Backoff: noWait}).SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if r := rowState(t, s, stepRow.Id); r.State != OutboxDone {
		t.Fatalf("the step upload = %s %q; want done", r.State, r.Error)
	}
	if atts, err := svc.client.ListStepAttachments(ctx, step); err != nil || !slices.ContainsFunc(atts, func(a api.StepAttachment) bool { return a.Name == "gauge.jpg" }) {
		t.Fatalf("the service's step attachments after the upload: %v, %v", atts, err)
	}
	if err := s.HandleEvent(ctx, event(t, accepted.WorkOrderId, api.ActionNteChanged, "ev-1", svc.sb.Clock().Now().Add(time.Minute),
		api.NteChangedEvent{Amount: api.MustMoney("123", accepted.Currency)})); err != nil {
		t.Fatal(err)
	}
	if err := y.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Logf("refresh: %v", err)
	}

	scan("while open")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	scan("after close")
}
