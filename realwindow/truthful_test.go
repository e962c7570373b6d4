package realwindow

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRealWindowTruthfulWords: in the real window, an empty list names what
// hides the rows and clears it with a tap, and a file that no browser can
// open (this machine has no xdg-open) is not said to be "Opened in your
// browser": the dialog says what to do and Copy link says how long the
// link works.
func TestRealWindowTruthfulWords(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("truth-start", "ready")

	// "harbor" under a status none of Harbor Point's work orders has.
	a.type_("truth-search-harbor", "harbor", "*list.SearchEntry")
	// The list shortens the customer's name to its column ("Harbor Point Ho…").
	a.waitUntil("Harbor Point's work orders", "texts *list.Table", "Harbor Point")
	statuses := map[string]bool{}
	for _, m := range regexp.MustCompile(`Harbor Point[^|]* \| ([^|]+) \|`).FindAllStringSubmatch(a.do("texts *list.Table"), -1) {
		statuses[strings.TrimSpace(m[1])] = true
	}
	other := ""
	for _, s := range []string{"Accepted", "New", "Checked in", "Paused", "On hold", "Checked out", "Rejected"} {
		if !statuses[s] {
			other = s
			break
		}
	}
	if other == "" {
		t.Fatalf("Harbor Point's work orders have every status: %v", statuses)
	}
	a.dialog("truth-status-filter", "tap ^All statuses")
	a.closes("truth-filtered-"+strings.ReplaceAll(other, " ", "-"), `tap ^`+other+` \(\d+\)$`)
	empty := a.waitUntil("the empty list's words", "texts", "“harbor” matches ")
	if !strings.Contains(empty, "but none is "+other+".") || !strings.Contains(empty, "Show all statuses") || !strings.Contains(empty, "Clear the search") {
		t.Fatalf("the empty list does not name the filter as what hides the rows: %s", empty)
	}
	a.step("truth-show-all-statuses", "tap ^Show all statuses$")
	a.waitUntil("Harbor Point's rows back", "texts *list.Table", "Harbor Point")
	a.do("focus *list.SearchEntry")
	a.step("truth-search-cleared", "key Escape")

	// A work order's file, opened where no browser can take it.
	numbers := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	found := ""
	for _, n := range numbers {
		a.do("tap ^" + n + "$")
		a.do("tapin *container.AppTabs ^Attachments$")
		if texts := a.waitAttachments(); strings.Contains(texts, "| Open… |") {
			found = n
			break
		}
	}
	if found == "" {
		t.Fatalf("none of %v has a file", numbers)
	}
	a.dialog("truth-file-"+found, "tap ^Open…$")
	a.waitUntil("a download link", "texts", "Link valid for")
	a.do("tap ^Open in browser$")
	said := a.waitUntil("what came of opening it", "texts", "Your browser could not be opened")
	if strings.Contains(said, "Opened in your browser") || !strings.Contains(said, "Copy link") {
		t.Fatalf("with no browser the dialog says: %s", said)
	}
	a.shoot("truth-no-browser")
	a.do("tap ^Copy link$")
	copied := a.waitUntil("the link copied", "texts", "Link copied: paste it into a browser within ")
	if !regexp.MustCompile(`within \d+:\d\d \(it stops working at( \|)? \d\d:\d\d\)`).MatchString(copied) {
		t.Errorf("Copy link does not say how long the link works: %s", copied)
	}
	a.shoot("truth-link-copied")
	a.closes("truth-file-closed", "key Escape")
}

// waitAttachments waits for the Attachments tab to have read its files
// and returns the tab's texts.
func (a *app) waitAttachments() string {
	a.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		texts := a.do("texts *container.AppTabs")
		if !strings.Contains(texts, "Loading") {
			return texts
		}
		if time.Now().After(deadline) {
			return texts
		}
	}
}
