package attachments

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestTheWorkOrdersFilesAreListedAndOpened: the work order's files are
// listed, each with Open…, which asks the service for a link to that
// file of that work order; none can be removed, and the tab says why.
func TestTheWorkOrdersFilesAreListedAndOpened(t *testing.T) {
	f := newFake(t)
	f.show()
	says := f.says()
	for _, want := range []string{"site-photo.jpg", "quote.pdf", "Attachments cannot be removed once added: the service does not allow it."} {
		if !strings.Contains(says, want) {
			t.Errorf("the tab does not say %q: %q", want, says)
		}
	}
	if n := len(f.buttons("Remove…")); n != 0 {
		t.Errorf("the tab offers %d Remove…; the service removes no work order file", n)
	}
	open := f.buttons("Open…")
	if len(open) != 2 {
		t.Fatalf("the tab offers %d Open…, want one per file", len(open))
	}
	test.Tap(open[0])
	if len(f.links) != 1 || !strings.HasPrefix(f.links[0], "7/") {
		t.Fatalf("Open… asked for links %q; want one to a file of work order 7", f.links)
	}
}

// TestAFileIsQueuedVisibleToWhomTheTabSays: a file added (dropped on the
// window while the tab shows) is queued for the work order open, visible
// to whom the select says when it is added, and the window says so.
func TestAFileIsQueuedVisibleToWhomTheTabSays(t *testing.T) {
	f := newFake(t)
	f.show()
	path := filepath.Join(t.TempDir(), "after.jpg")
	if err := os.WriteFile(path, []byte("jpeg"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.tab.vis.SetSelected(format.Visibility(api.VisibilityCruOnly))
	f.tab.AddFiles([]string{path})
	if len(f.attached) != 1 || f.attached[0] != (attached{7, path, api.VisibilityCruOnly}) {
		t.Fatalf("adding a file queued %+v; want after.jpg on 7, our crew only", f.attached)
	}
	if !slices.Equal(f.Said, []string{"after.jpg for NWR7"}) || len(f.Errors) != 0 {
		t.Errorf("the window was told %q (errors %q)", f.Said, f.Errors)
	}
	if f.tab.vis.Selected != format.Visibility(api.VisibilityCruOnly) {
		t.Errorf("after adding, the select says %q", f.tab.vis.Selected)
	}
}

// TestNoFileIsAddedWhereTheRulesRefuse: before a work order is open, or
// on one the rules close to files, a file dropped is refused in plain
// words and nothing is queued.
func TestNoFileIsAddedWhereTheRulesRefuse(t *testing.T) {
	f := newFake(t)
	path := filepath.Join(t.TempDir(), "late.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.tab.AddFiles([]string{path})
	if got := f.LastError(); got != "open a work order first, then drop the files on the window" {
		t.Errorf("a file dropped with no work order open says %q", got)
	}
	f.wo.Status = api.StatusRejected
	f.show()
	f.tab.AddFiles([]string{path})
	if got := f.LastError(); !strings.Contains(got, "was rejected") {
		t.Errorf("a file dropped on a rejected work order says %q", got)
	}
	if len(f.attached) != 0 {
		t.Fatalf("refused files were queued: %+v", f.attached)
	}
	if add := f.buttons("Add file…"); len(add) != 1 || !add[0].Disabled() {
		t.Errorf("a rejected work order shows %d Add file…, enabled", len(add))
	}
}
