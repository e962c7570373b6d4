package files

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
)

// TestALinkIsFetchedOnceAndReplacedBeforeItRunsOut: the dialog asks for a
// link when it opens, and opening the file again while the link is fresh
// asks for none; with less than a few seconds left, the next open fetches
// a new one first rather than hand the browser a link about to die.
// Closing the dialog forgets the link.
func TestALinkIsFetchedOnceAndReplacedBeforeItRunsOut(t *testing.T) {
	f := newFake(t)
	src := &links{nameFor: "boiler.png"}
	l := newLinkDialog(f, "boiler.png", src.fetch)
	f.flush()
	if src.n != 1 || l.link.URL == "" || l.valid.Text != "Link valid for 15:00" {
		t.Fatalf("on opening: %d fetches, %q", src.n, l.valid.Text)
	}
	open := button(t, f.Win.Canvas().Overlays().Top(), "Open in browser")
	test.Tap(open)
	test.Tap(open)
	f.flush()
	if src.n != 1 || l.status.Text != "Opened in your browser." || len(f.opened) != 2 {
		t.Fatalf("opening twice with a fresh link: %d fetches, %d opened, %q", src.n, len(f.opened), l.status.Text)
	}

	setNow(t, fixedNow.Add(15*time.Minute-linkMargin+time.Second))
	l.tick()
	if l.valid.Text != "Link valid for 0:04" {
		t.Errorf("four seconds before expiry the dialog says %q", l.valid.Text)
	}
	test.Tap(open)
	f.flush()
	if src.n != 2 || f.opened[2] == f.opened[0] {
		t.Fatalf("with 4 s left, opening fetched %d links in all, want a fresh one", src.n)
	}

	test.Tap(button(t, f.Win.Canvas().Overlays().Top(), "Close"))
	if l.link.URL != "" || !l.closed() {
		t.Fatal("the link is still held after the dialog closed")
	}
}

// TestALinkTheServiceRefusesIsExplained: when no link can be had the
// dialog says why in the service's words, and the next tap asks again.
func TestALinkTheServiceRefusesIsExplained(t *testing.T) {
	f := newFake(t)
	src := &links{refuse: errNoSuchFile}
	l := newLinkDialog(f, "gone.pdf", src.fetch)
	f.flush()
	if l.link.URL != "" || l.status.Text != "Could not get a download link: The attachment does not exist." ||
		!strings.HasPrefix(l.valid.Text, "No link yet") {
		t.Fatalf("a refused link: %q, %q", l.valid.Text, l.status.Text)
	}
	test.Tap(button(t, f.Win.Canvas().Overlays().Top(), "Open in browser"))
	f.flush()
	if src.n != 2 || strings.Contains(l.status.Text, "Opened") || len(f.opened) != 0 {
		t.Fatalf("tapping Open again: %d fetches, %q", src.n, l.status.Text)
	}
}

// TestALinkNoBrowserTookSaysWhatToDo: with no browser to open the file
// (xdg-open missing), the dialog never says "Opened in your browser": it
// says why and offers Copy link, which puts the link on the clipboard with
// the time it keeps working; Save as… reports the name the person chose.
func TestALinkNoBrowserTookSaysWhatToDo(t *testing.T) {
	f := newFake(t)
	f.openErr = errors.New("xdg-open, which opens links in a browser, is not installed")
	src := &links{nameFor: "boiler-nameplate.png"}
	l := newLinkDialog(f, "boiler-nameplate.png", src.fetch)
	f.flush()
	dlg := f.Win.Canvas().Overlays().Top()

	test.Tap(button(t, dlg, "Open in browser"))
	f.flush()
	if got := l.status.Text; got != "Your browser could not be opened (xdg-open, which opens links in a browser, is not installed). "+
		"Copy link and paste it into a browser while it is valid (15:00 left), or Save as… to keep the file." {
		t.Fatalf("after a failed open the dialog says %q", got)
	}

	test.Tap(button(t, dlg, "Copy link"))
	f.flush()
	if got := fyne.CurrentApp().Clipboard().Content(); got == "" || got != l.link.URL {
		t.Fatalf("Copy link put %q on the clipboard, want the link", got)
	}
	if got, want := l.status.Text, "Link copied: paste it into a browser within 15:00 (it stops working at 09:15)."; got != want {
		t.Fatalf("after Copy link the dialog says %q, want %q", got, want)
	}

	dir := t.TempDir()
	w, err := fynestorage.Writer(fynestorage.NewFileURI(filepath.Join(dir, "boiler-nameplate.png")))
	if err != nil {
		t.Fatal(err)
	}
	l.saveTo(w)
	f.flush()
	if got, want := l.status.Text, "Saved as boiler-nameplate.png in "+dir+"."; got != want {
		t.Fatalf("after Save as… the dialog says %q, want %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "boiler-nameplate.png")); err != nil || string(b) != f.body {
		t.Fatalf("the file saved holds %q (%v)", b, err)
	}
}

// invoicePlace is an invoice's files as a tab describes them: one file,
// removable, our changes recorded in the fake's outbox.
func invoicePlace(f *fake, files *[]api.Attachment) *Place {
	const woID = 41
	return &Place{
		Key: "invoice 41", WoID: woID, What: "the invoice of WN41", From: "the invoice",
		Note: "Files up to 20 MB.", Empty: "No files on the invoice.", CanRemove: true,
		List: func(context.Context) ([]api.Attachment, error) { return *files, nil },
		Add: func(path string) func(context.Context) error {
			return func(context.Context) error {
				f.mu.Lock()
				defer f.mu.Unlock()
				f.rows = append(f.rows, storage.OutboxRow{Id: int64(len(f.rows) + 1), WorkOrderIds: []int64{woID},
					Summary: "Attach " + filepath.Base(path), State: storage.OutboxPending})
				return nil
			}
		},
		Remove: func(id string) func(context.Context) error {
			return func(context.Context) error {
				f.mu.Lock()
				defer f.mu.Unlock()
				f.rows = append(f.rows, storage.OutboxRow{Id: int64(len(f.rows) + 1), WorkOrderIds: []int64{woID},
					Summary: "Remove " + id, State: storage.OutboxPending})
				return nil
			}
		},
		Link: func(context.Context, string) (api.DownloadURL, error) {
			return api.DownloadURL{URL: "https://files.example/receipt.pdf", ExpiresAt: fixedNow.Add(15 * time.Minute)}, nil
		},
		Mine: func(storage.OutboxRow) bool { return true },
	}
}

// TestAFileIsCopiedAndQueuedWithoutHoldingTheWindow adds a 5 MB file while
// the replica's writer is held: AddFiles returns at once and the panel
// says the file is being copied, with a moving bar, until the writer is
// free; then the file shows as queued and the copying line goes.
func TestAFileIsCopiedAndQueuedWithoutHoldingTheWindow(t *testing.T) {
	f := newFake(t)
	var listed []api.Attachment
	p := NewPanel(f, f, true, nil)
	f.Win.SetContent(p)
	p.SetPlace(invoicePlace(f, &listed))
	path := filepath.Join(t.TempDir(), "site-video.mp4")
	if err := os.WriteFile(path, make([]byte, 5<<20), 0o600); err != nil {
		t.Fatal(err)
	}

	f.hold = make(chan struct{})
	p.AddFiles([]string{path}) // what choosing it in the picker, or dropping it, does
	if !strings.Contains(p.pending.Text, "Copying site-video.mp4…") || !p.pending.Visible() || !p.busyBar.Visible() {
		t.Fatalf("while the file waits the panel says %q (bar shown %v)", p.pending.Text, p.busyBar.Visible())
	}
	if rows, _ := f.OutboxRows(context.Background(), 41); len(rows) != 0 {
		t.Fatalf("%d rows reached the outbox while its writer was held", len(rows))
	}

	close(f.hold)
	f.waitFor("the file to be queued", func() bool { return !strings.Contains(p.pending.Text, "Copying") })
	if !strings.Contains(p.pending.Text, "Attach site-video.mp4 — Queued") || p.busyBar.Visible() {
		t.Fatalf("once queued the panel says %q (bar shown %v)", p.pending.Text, p.busyBar.Visible())
	}
	if len(f.Said) != 1 || f.Said[0] != "site-video.mp4 for the invoice of WN41" {
		t.Errorf("the person was told %q", f.Said)
	}
}

// A file over the service's 20 MB is refused before anything is copied,
// and so is every file while the place takes none: in plain words.
func TestAFileThePlaceCannotTakeIsRefusedAtOnce(t *testing.T) {
	f := newFake(t)
	var listed []api.Attachment
	p := NewPanel(f, f, true, nil)
	p.NoPlace = "choose a step first: dropped files attach to the step shown"
	f.Win.SetContent(p)
	big := filepath.Join(t.TempDir(), "walkthrough.mov")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, api.MaxAttachmentSize+1); err != nil {
		t.Fatal(err)
	}

	p.AddFiles([]string{big})
	if len(f.Errors) != 1 || f.Errors[0] != p.NoPlace {
		t.Fatalf("a file with no place shown: %q", f.Errors)
	}
	p.SetPlace(invoicePlace(f, &listed))
	p.AddFiles([]string{big})
	f.waitFor("the refusal", func() bool { return len(f.Errors) == 2 })
	if !strings.Contains(f.Errors[1], "not attached, over the service's 20 MB limit: walkthrough.mov is") || len(f.Said) != 0 || len(f.rows) != 0 {
		t.Errorf("a 20 MB + 1 byte file: %q, queued %q, outbox %d rows", f.Errors[1], f.Said, len(f.rows))
	}
}

// Remove… asks first, and queues the removal once; Open… shows the file's
// link dialog, which Esc closes as Close does, letting the link go.
func TestAFileIsRemovedAfterAskingAndItsLinkLetGoOnEsc(t *testing.T) {
	f := newFake(t)
	listed := []api.Attachment{{AttachmentId: "att-7", Name: "receipt.pdf", Size: 2048, Created: fixedNow}}
	p := NewPanel(f, f, true, nil)
	f.Win.SetContent(p)
	p.SetPlace(invoicePlace(f, &listed))
	if got := texts(p); !strings.Contains(got, "receipt.pdf") || !strings.Contains(got, "Fri 20 Nov 2026 09:00") {
		t.Fatalf("the panel lists:\n%s", got)
	}

	test.Tap(button(t, p, "Open…"))
	f.flush()
	l := p.link
	if l == nil || l.link.URL == "" || l.valid.Text != "Link valid for 15:00" {
		t.Fatal("Open… showed no link dialog with a fresh link")
	}
	dialogs.DismissTop(f.Win.Canvas()) // what Esc does
	if f.Win.Canvas().Overlays().Top() != nil || p.link != nil || l.link.URL != "" {
		t.Fatalf("after Esc: dialog open %v, link dialog held %v, link held %v", f.Win.Canvas().Overlays().Top() != nil, p.link != nil, l.link.URL != "")
	}

	test.Tap(button(t, p, "Remove…"))
	ask := f.Win.Canvas().Overlays().Top()
	if ask == nil || !strings.Contains(texts(ask), "The file is removed from the invoice at the service.") {
		t.Fatal("Remove… did not ask first")
	}
	test.Tap(button(t, ask, "Remove"))
	f.waitFor("the removal to be queued", func() bool { return len(f.Said) == 1 })
	if f.Said[0] != "Remove receipt.pdf" || len(f.rows) != 1 || f.rows[0].Summary != "Remove att-7" {
		t.Errorf("queued %q, outbox %+v", f.Said, f.rows)
	}
}

// The panel of an invoice with a file and one on its way, and a file's
// link dialog, as drawn.
func TestPanelAndLinkDialogGolden(t *testing.T) {
	f := newFake(t)
	test.ApplyTheme(t, test.Theme())
	listed := []api.Attachment{{AttachmentId: "att-7", Name: "receipt.pdf", Size: 2048, Created: fixedNow}}
	p := NewPanel(f, f, true, nil)
	f.Win.SetContent(p)
	f.Win.Resize(fyne.NewSize(520, 300))
	f.rows = []storage.OutboxRow{{Id: 1, WorkOrderIds: []int64{41}, Summary: "Attach signed-ticket.pdf", State: storage.OutboxPending}}
	p.SetPlace(invoicePlace(f, &listed))
	test.AssertImageMatches(t, "panel_invoice.png", f.Win.Canvas().Capture())

	newLinkDialog(f, "receipt.pdf", (&links{nameFor: "receipt.pdf"}).fetch)
	f.flush()
	f.Win.Resize(fyne.NewSize(600, 400))
	test.AssertImageMatches(t, "link_dialog.png", f.Win.Canvas().Capture())
}

// TestAnExpiredLinkIsForgottenAndReplaced: the countdown runs down to the
// second; at 15 minutes the link is forgotten and the dialog says so, and
// the next open fetches a fresh one rather than reuse it. Save as…
// downloads through the link with a progress bar.
func TestAnExpiredLinkIsForgottenAndReplaced(t *testing.T) {
	f := newFake(t)
	src := &links{nameFor: "meter.jpg"}
	l := newLinkDialog(f, "meter.jpg", src.fetch)
	f.flush()
	first := l.link.URL

	setNow(t, fixedNow.Add(14*time.Minute+59*time.Second))
	l.tick()
	if l.valid.Text != "Link valid for 0:01" {
		t.Errorf("one second before expiry the dialog shows %q", l.valid.Text)
	}
	setNow(t, fixedNow.Add(15*time.Minute))
	l.tick()
	if !strings.Contains(l.valid.Text, "expired") || l.link.URL != "" {
		t.Fatalf("after 15 minutes the dialog shows %q and still holds a link: %v", l.valid.Text, l.link.URL != "")
	}
	test.Tap(button(t, f.Win.Canvas().Overlays().Top(), "Open in browser"))
	f.flush()
	if l.link.URL == "" || l.link.URL == first || l.valid.Text != "Link valid for 15:00" || !strings.Contains(l.status.Text, "Opened") {
		t.Fatalf("after re-opening: a fresh link %v, %q, %q", l.link.URL != first, l.valid.Text, l.status.Text)
	}

	dst := filepath.Join(t.TempDir(), "meter.jpg")
	w, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	l.saveTo(w) // what choosing where to save in the dialog does
	f.flush()
	if got, _ := os.ReadFile(dst); string(got) != f.body || !strings.Contains(l.status.Text, "Saved") || l.progress.Value != 1 {
		t.Fatalf("saving wrote %q; the dialog says %q at %.0f%%", got, l.status.Text, l.progress.Value*100)
	}
}
