package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
)

// workOrderFile is a work order of the demo world with a file, and the file.
func workOrderFile(h *harness) (int64, api.Attachment) {
	h.t.Helper()
	for _, r := range h.rows() {
		if atts, err := h.eng.Client.ListAttachments(context.Background(), r.Id); err == nil && len(atts) > 0 {
			return r.Id, atts[0]
		}
	}
	h.t.Fatal("no work order of the demo world has a file")
	return 0, api.Attachment{}
}

// TestALinkIsFetchedOnceAndReplacedBeforeItRunsOut: the dialog asks the
// service for a link when it opens, and opening the file again while the
// link is fresh asks for none; with less than a few seconds left, the next
// open fetches a new one first rather than hand the browser a link about to
// die. Closing the dialog forgets the link.
func TestALinkIsFetchedOnceAndReplacedBeforeItRunsOut(t *testing.T) {
	h := newHarness(t)
	woID, att := workOrderFile(h)
	fetches := 0
	l := newLinkDialog(h.desk, att.Name, func(ctx context.Context) (api.DownloadURL, error) {
		fetches++
		return h.desk.online.AttachmentLink(ctx, woID, att.AttachmentId)
	})
	h.flush()
	if fetches != 1 || l.link.URL == "" || l.valid.Text != "Link valid for 15:00" {
		t.Fatalf("on opening: %d fetches, %q", fetches, l.valid.Text)
	}
	open := buttonIn(t, h.win.Canvas().Overlays().Top(), "Open in browser")
	test.Tap(open)
	test.Tap(open)
	h.flush()
	if fetches != 1 || l.status.Text != "Opened in your browser." {
		t.Fatalf("opening twice with a fresh link: %d fetches, %q", fetches, l.status.Text)
	}

	setNow(t, fixedNow.Add(15*time.Minute-linkMargin+time.Second))
	l.tick()
	if l.valid.Text != "Link valid for 0:04" {
		t.Errorf("four seconds before expiry the dialog says %q", l.valid.Text)
	}
	test.Tap(open)
	h.flush()
	if fetches != 2 {
		t.Fatalf("with 4 s left, opening fetched %d links in all, want a fresh one", fetches)
	}

	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Close"))
	if l.link.URL != "" || !l.closed() {
		t.Fatal("the link is still held after the dialog closed")
	}
}

// TestALinkTheServiceRefusesIsExplained: when no link can be had the dialog
// says why in the service's words, and the next tap asks again.
func TestALinkTheServiceRefusesIsExplained(t *testing.T) {
	h := newHarness(t)
	woID, _ := workOrderFile(h)
	fetches := 0
	l := newLinkDialog(h.desk, "gone.pdf", func(ctx context.Context) (api.DownloadURL, error) {
		fetches++
		return h.desk.online.AttachmentLink(ctx, woID, "no-such-file")
	})
	h.flush()
	if l.link.URL != "" || !strings.HasPrefix(l.status.Text, "Could not get a download link: ") ||
		strings.Contains(l.status.Text, "http") || !strings.HasPrefix(l.valid.Text, "No link yet") {
		t.Fatalf("a refused link: %q, %q", l.valid.Text, l.status.Text)
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Open in browser"))
	h.flush()
	if fetches != 2 || strings.Contains(l.status.Text, "Opened") {
		t.Fatalf("tapping Open again: %d fetches, %q", fetches, l.status.Text)
	}
}
