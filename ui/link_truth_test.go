package ui

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
)

// TestALinkNoBrowserTookSaysWhatToDo: with no browser to open the file
// (xdg-open missing), the dialog never says "Opened in your browser": it
// says why and offers Copy link, which puts the link on the clipboard with
// the time it keeps working; Save as… reports the name the person chose.
func TestALinkNoBrowserTookSaysWhatToDo(t *testing.T) {
	h := newHarnessWith(t, harnessOptions{deps: func(d *Deps) {
		d.OpenURL = func(*url.URL) error { return errors.New("xdg-open, which opens links in a browser, is not installed") }
	}})
	woID, att := workOrderFile(h)
	l := newLinkDialog(h.desk, att.Name, func(ctx context.Context) (api.DownloadURL, error) {
		return h.desk.online.AttachmentLink(ctx, woID, att.AttachmentId)
	})
	h.flush()
	dlg := h.win.Canvas().Overlays().Top()

	test.Tap(buttonIn(t, dlg, "Open in browser"))
	h.flush()
	if got := l.status.Text; strings.Contains(got, "Opened") ||
		got != "Your browser could not be opened (xdg-open, which opens links in a browser, is not installed). Copy link and paste it into a browser while it is valid (15:00 left), or Save as… to keep the file." {
		t.Fatalf("after a failed open the dialog says %q", got)
	}

	test.Tap(buttonIn(t, dlg, "Copy link"))
	h.flush()
	if got := h.desk.app.Clipboard().Content(); got == "" || got != l.link.URL {
		t.Fatalf("Copy link put %q on the clipboard, want the link", got)
	}
	if got, want := l.status.Text, "Link copied: paste it into a browser within 15:00 (it stops working at 09:15)."; got != want {
		t.Fatalf("after Copy link the dialog says %q, want %q", got, want)
	}

	dir := t.TempDir()
	w, err := storage.Writer(storage.NewFileURI(filepath.Join(dir, "boiler-nameplate.png")))
	if err != nil {
		t.Fatal(err)
	}
	l.saveTo(w)
	h.flush()
	if got, want := l.status.Text, "Saved as boiler-nameplate.png in "+dir+"."; got != want {
		t.Fatalf("after Save as… the dialog says %q, want %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "boiler-nameplate.png")); err != nil || len(b) == 0 {
		t.Fatalf("the file saved holds %d bytes (%v)", len(b), err)
	}
}
