package storage

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
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

	// Find a step with an attachment and fetch its link through the client.
	var link api.DownloadURL
	var wo *api.WorkOrder
	rows, _ := s.List(ctx, ListQuery{Sort: SortNumber})
search:
	for _, r := range rows {
		w, _ := s.WorkOrder(ctx, r.Id)
		for _, p := range w.Procedures() {
			for _, st := range p.Steps {
				ref := api.StepRef{WorkOrderId: w.WorkOrderId, ProcedureId: p.Id, StepId: st.Id}
				atts, err := svc.client.ListStepAttachments(ctx, ref)
				if err != nil || len(atts) == 0 {
					continue
				}
				if link, err = svc.client.StepAttachmentDownloadURL(ctx, ref, atts[0].AttachmentId); err != nil {
					t.Fatal(err)
				}
				wo = w
				break search
			}
		}
	}
	if link.URL == "" {
		t.Fatal("the sandbox world has no step attachment to open")
	}
	var file bytes.Buffer
	if err := svc.client.Download(ctx, link, &file, nil); err != nil || file.Len() == 0 {
		t.Fatalf("download through the link: %d bytes, %v", file.Len(), err)
	}
	token, err := svc.tokens.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// Plenty of ordinary work afterwards.
	if err := y.Refresh(ctx, wo.WorkOrderId); err != nil {
		t.Logf("refresh: %v", err) // pre-4.1 orders refuse invoice calls; irrelevant here
	}
	accepted := pick(t, s, status(api.StatusAccepted))
	mustRow(t)(s.SendMessage(ctx, accepted.WorkOrderId, "opened the wiring diagram", api.VisibilityAll))
	photo := filepath.Join(t.TempDir(), "after.jpg")
	os.WriteFile(photo, []byte("jpeg bytes"), 0o600)
	mustRow(t)(s.AttachFile(ctx, accepted.WorkOrderId, photo, api.VisibilityAll))
	if _, err := NewSender(s, svc.client, SenderOptions{Backoff: noWait}).SendReady(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.HandleEvent(ctx, event(t, accepted.WorkOrderId, api.ActionNteChanged, "ev-1", svc.sb.Clock().Now().Add(time.Minute),
		api.NteChangedEvent{Amount: api.MustMoney("123", accepted.Currency)})); err != nil {
		t.Fatal(err)
	}
	if err := y.SyncNow(ctx); err != nil {
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
		needles["link signature"] = u.RawQuery
	}
	scan := func(when string) {
		t.Helper()
		files := []string{path, path + "-wal", path + "-shm"}
		spooled, _ := os.ReadDir(filepath.Join(dir, "spool"))
		for _, e := range spooled {
			files = append(files, filepath.Join(dir, "spool", e.Name()))
		}
		var all []byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err == nil {
				all = append(all, b...)
			}
		}
		// The scan must be able to see plain text at all, or it proves nothing.
		if !bytes.Contains(all, []byte(accepted.WorkOrderNumber)) {
			t.Fatalf("%s: the scan cannot even find a work order number; it proves nothing", when)
		}
		for what, needle := range needles {
			if needle != "" && bytes.Contains(all, []byte(needle)) {
				t.Errorf("%s: the %s was written to disk", when, what)
			}
		}
	}
	scan("while open")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	scan("after close")
}
