package realwindow

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRealWindowWhoGoesWhereTheRecordIsSilent: where the service's work
// order does not list who is assigned, the Visit tab's "Who goes" says
// it is not known, and after Assign… names whom this office assigned, as
// such, queued and once sent. The demo first runs in the plain dialect,
// which reads the branches' people into the replica; started again on
// the same data in the renamed dialect, the service lists neither the
// people (the replica keeps those it had) nor who is on a work order.
func TestRealWindowWhoGoesWhereTheRecordIsSilent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"--demo", "--window-size", "1280x800", "--data-dir", dir}
	a := startWith(t, newScreen(t, "1920x1200"), args)
	a.step("whogoes-plain-start", "ready")
	world := filepath.Join(dir, "demo-world.json")
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		if _, err := os.Stat(world); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo did not save its world to %s", world)
		}
	}
	a.cmd.Process.Kill()
	select {
	case <-a.exited:
	case <-time.After(patience):
		t.Fatal("the app did not end")
	}

	b := startWith(t, newScreen(t, "1920x1200"), append(args, "--demo-dialect", "renamed"))
	b.step("whogoes-renamed-start", "ready")
	b.do("stillcustomer") // its next tick may change the work order this test watches
	b.dialog("whogoes-status-filter", "tap ^All statuses")
	b.closes("whogoes-accepted-only", `tap ^Accepted \(\d+\)$`)
	wo := ""
	for _, n := range b.listed() {
		if usNumber.MatchString(n) {
			wo = n
			break
		}
	}
	if wo == "" {
		t.Fatalf("no accepted work order of the US branch: %v", b.listed())
	}
	b.open(wo)
	b.shoot("whogoes-open")
	b.step("whogoes-visit", "tapin *container.AppTabs ^Visit$")
	// The words wrap where the pane is narrow: read them across lines.
	says := func(what string, ok func(string) bool) string {
		t.Helper()
		return b.until(what, "texts *container.AppTabs", func(s string) bool { return ok(strings.ReplaceAll(s, " | ", " ")) })
	}
	has := func(want string) func(string) bool {
		return func(s string) bool { return strings.Contains(s, want) }
	}
	says("not known on the silent record", has("Not known: the service does not say who is assigned."))
	b.shoot("whogoes-not-known")

	b.dialog("whogoes-assign", "tap ^Assign…$")
	// Clicked through the X server on its box, as a person clicks it.
	var x, y int
	if _, err := fmt.Sscanf(b.do(`at ^Kenji Sato \(technician\)$`), "%d %d", &x, &y); err != nil {
		t.Fatal(err)
	}
	if out, err := b.xdotool("mousemove", "--window", b.xWindow(), strconv.Itoa(x-16), strconv.Itoa(y), "click", "1").CombinedOutput(); err != nil {
		t.Fatalf("clicking Kenji Sato: %v: %s", err, out)
	}
	b.until("Kenji Sato ticked", `checked ^Kenji Sato \(technician\)$`, func(s string) bool { return s == "true" })
	b.shoot("whogoes-kenji")
	b.closes("whogoes-saved", "tap ^Save$")
	fromOffice := "Kenji Sato (technician), assigned from this office. The service's record does not say who is assigned"
	says("the office's assignment in Who goes", has(fromOffice))
	b.shoot("whogoes-queued")
	b.waitUntil("the assignment sent", "texts", "Outbox: all sent")
	if texts := says("the office's assignment once sent", has(fromOffice)); strings.Contains(texts, "Not known") {
		t.Errorf("Who goes once sent: %s", texts)
	}
	b.shoot("whogoes-sent")
	keep(b, "WORKDESK_WHOGOES_SHOT")
}
