package realwindow

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The real-window tests start the app built with the realwindow tag
// (WORKDESK_BIN) on an X server of their own (Xvfb, see newScreen), in
// demo mode, and use it as a person does. After each step the process must
// still be running, and a screenshot of the screen is kept in
// WORKDESK_SHOTS (default: a new folder under the temp dir, printed). make
// realwindow builds the binary and runs them, side by side.

// TestRealWindowEveryTabFileAndDialog opens a work order, visits every
// tab, opens every dialog there and closes it with Cancel, Close or Esc
// (the file pickers included), adds, opens and saves files, and opens
// every dialog of the menus.
func TestRealWindowEveryTabFileAndDialog(t *testing.T) {
	t.Parallel()
	a := start(t)
	_, fileStep := a.openWorkOrderWithStepFile()

	for _, tab := range []string{"Summary", "Quote", "Visit", "Messages", "Attachments", "Invoice", "Procedures", "Internal note", "Activity"} {
		a.step("tab-"+strings.ReplaceAll(strings.ToLower(tab), " ", "-"), "tapin *container.AppTabs ^"+tab+"$")
	}

	a.step("tab-attachments", "tapin *container.AppTabs ^Attachments$")
	a.dialog("attachments-add-file", "tap ^Add file…$")
	a.closes("attachments-add-file-esc", "key Escape")
	// A file chosen in the picker is copied and queued in the background,
	// then shows in the tab as queued or, once sent, listed.
	a.dialog("attachments-add-receipt", "tap ^Add file…$")
	a.step("attachments-receipt-picked", "tap ^receipt$")
	a.closes("attachments-receipt-added", "tap ^Open$")
	a.waitUntil("the chosen file in the Attachments tab", "texts *container.AppTabs", "receipt.pdf")
	a.shoot("attachments-receipt-shown")

	a.step("tab-invoice", "tapin *container.AppTabs ^Invoice$")
	a.dialog("invoice-add-file", "tap ^Add file…$")
	a.closes("invoice-add-file-cancelled", "tap ^Cancel$")
	// A file added through the picker is uploaded; its Remove… asks first.
	a.dialog("invoice-add-receipt", "tap ^Add file…$")
	a.step("invoice-receipt-picked", `tap ^receipt$`) // the picker hides the extension
	a.closes("invoice-receipt-added", "tap ^Open$")
	a.waitUntil("the uploaded receipt's Remove… button", "texts *container.AppTabs", "| Remove…")
	a.dialog("invoice-remove", "tap ^Remove…$")
	a.closes("invoice-remove-esc", "key Escape")
	a.dialog("invoice-delete", "tap ^Delete…$")
	a.closes("invoice-delete-esc", "key Escape")
	// Deleting cannot be undone: the question opens on Cancel, so Enter
	// on the real keyboard (a second Enter, after the one that opened it)
	// keeps the invoice.
	a.dialog("invoice-delete-again", "tap ^Delete…$")
	if got := a.do("focused"); !strings.HasSuffix(got, " Cancel") {
		t.Errorf("Delete the invoice? opens with %q focused, want Cancel", got)
	}
	a.keys("Return")
	a.waitUntil("the question closed by Enter", "dialogs", "0")
	a.shoot("invoice-delete-enter-cancels")
	if texts := a.do("texts *container.AppTabs"); !strings.Contains(texts, "Delete…") {
		t.Errorf("after Enter on Delete the invoice? the tab shows: %s", texts)
	}
	// What is missing before submit shows right above Submit invoice, at
	// the foot of the tab, wherever the invoice is scrolled.
	a.step("invoice-submit-missing", "tap ^Submit invoice$")
	if texts := a.do("texts *container.AppTabs"); !strings.Contains(texts, "Not submitted yet") || !strings.Contains(texts, "check out") {
		t.Errorf("Submit on an incomplete invoice does not say what is missing: %s", texts)
	}

	a.step("tab-procedures", "tapin *container.AppTabs ^Procedures$")
	a.step("procedure-step", `tapin *widget.Tree ^1\. `)
	a.dialog("step-add-file", "tap ^Add file…$")
	a.closes("step-add-file-cancelled", "tap ^Cancel$")
	a.do(`tapin *widget.Tree ^` + fileStep + `\. `)
	a.stepFiles()
	a.dialog("step-file-remove", "tap ^Remove…$")
	a.closes("step-file-remove-esc", "key Escape")
	a.dialog("step-file-open", "tap ^Open…$")
	a.dialog("step-file-save-as", "tap ^Save as…$")
	a.closes("step-file-save-as-cancelled", "tap ^Cancel$")
	a.dialog("step-file-save-as-again", "tap ^Save as…$")
	a.closes("step-file-save-as-esc", "key Escape") // the file name is filled in, not focused
	a.closes("step-file-esc", "key Escape")

	a.dialog("connection", "menu File/Live connection…")
	a.dialog("connection-certificate", "tapicon folder-open")
	a.closes("connection-certificate-esc", "key Escape")
	a.type_("connection-typed", "https://example.test/x")
	a.closes("connection-cancelled", "tap ^Cancel$")
	a.dialog("office-hub", "menu File/Connect to office hub…")
	a.type_("office-hub-typed", "not a hub address")
	a.closes("office-hub-cancelled", "tap ^Cancel$")

	a.dialog("shortcuts", "menu View/Keyboard shortcuts")
	a.closes("shortcuts-esc", "key Escape")
	a.dialog("about", "menu Help/About Work Order Desk")
	if texts := a.do("texts"); !regexp.MustCompile(`Work Order Desk \d+\.\d+`).MatchString(texts) {
		t.Errorf("Help › About shows no version: %s", texts)
	}
	a.closes("about-esc", "key Escape")
	a.dialog("reset-demo", "menu File/Reset demo…")
	a.closes("reset-demo-esc", "key Escape") // No: the demo goes on
	a.dialog("customer-nte", "menu Customer/Change the NTE…")
	a.type_("customer-nte-typed", "12.50")
	a.closes("customer-nte-cancelled", "tap ^Cancel$")
	// A wrong amount is explained in a dialog whose icon sits beside the text.
	a.dialog("customer-nte-again", "menu Customer/Change the NTE…")
	a.type_("customer-nte-not-a-number", "abc")
	a.step("customer-nte-refused", "tap ^Change$")
	if texts := a.do("texts"); !strings.Contains(texts, "Not a valid NTE") {
		t.Fatalf("a wrong NTE was not explained: %s", texts)
	}
	a.closes("customer-nte-refused-esc", "key Escape")
	a.dialog("customer-procedure-na", "menu Customer/Mark a procedure N/A…")
	a.closes("customer-procedure-na-cancelled", "tap ^Cancel$")
}

// TestRealWindowTypingAndSizes types into every entry of each tab and
// resizes the window to 1024x700, 1280x800 and 1920x1080 on each wide tab.
func TestRealWindowTypingAndSizes(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.openWorkOrderWithStepFile()

	// Typing into every entry of each tab (the search box's own test is
	// TestRealWindowNewWorkOrdersSearchAndOffline: what it finds changes
	// the list).
	for _, tab := range []string{"Quote", "Visit", "Messages", "Invoice", "Procedures", "Internal note"} {
		name := strings.ReplaceAll(strings.ToLower(tab), " ", "-")
		a.step("tab-"+name, "tapin *container.AppTabs ^"+tab+"$")
		a.type_("typed-"+name, "12.50 Test", "*container.AppTabs")
		if tab == "Invoice" {
			// 12.50 of each line is far above the NTE: the invoice offers
			// to ask for more, which opens the quote form filled in.
			a.step("request-nte-increase", "tap ^Request NTE increase$")
			if texts := a.do("texts *container.AppTabs"); !strings.Contains(texts, "Submit quote") || !strings.Contains(texts, "the total of the line items") { // "below" may wrap to the next line
				t.Errorf("Request NTE increase did not open the filled-in quote form: %s", texts)
			}
		}
	}

	// Each size after the Invoice tab: the list, the invoice, the other
	// wide tabs, and a file picker.
	for _, size := range []string{"1024x700", "1280x800", "1920x1080"} {
		a.step("size-"+size, "resize "+size)
		for _, tab := range []string{"Invoice", "Summary", "Quote", "Attachments", "Procedures"} {
			a.step("size-"+size+"-"+strings.ToLower(tab), "tapin *container.AppTabs ^"+tab+"$")
		}
		a.dialog("size-"+size+"-add-file", "tap ^Add file…$")
		a.closes("size-"+size+"-add-file-cancelled", "tap ^Cancel$")
	}
	a.step("size-1280x800-again", "resize 1280x800")
}

// TestRealWindowNewWorkOrdersSearchAndOffline: Reject… on a new work
// order, ticking two to reject or accept together, a search typed as read
// off a sheet, a quote the service refuses, and a check-in with the
// service gone.
func TestRealWindowNewWorkOrdersSearchAndOffline(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("start", "ready")

	// A new work order offers Reject…, which asks why in a dialog.
	a.dialog("status-filter", "tap ^All statuses")
	a.closes("new-only", `tap ^New \(\d+\)$`)
	a.step("new-work-order", `tap ^[A-Z]{3}\d{5}$`)
	a.dialog("reject", "tap ^Reject…$")
	a.type_("reject-reason-typed", "No technician free this week")
	a.do("focus") // back in the reason, as after typing it
	a.closes("reject-esc", "key Escape")

	// Two ticked New work orders: Reject 2 asks why, Accept 2 reports each.
	news := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	if len(news) < 2 {
		t.Fatalf("the New filter lists %v: too few to tick two", news)
	}
	a.step("ticked-one", "tick ^"+news[0]+"$")
	a.step("ticked-two", "tick ^"+news[1]+"$")
	a.dialog("bulk-reject", `tap ^Reject 2$`)
	a.type_("bulk-reject-reason-typed", "Outside our service area")
	a.do("focus")
	a.closes("bulk-reject-esc", "key Escape")
	// Accept 2 is queued in the background; its report opens once queued.
	a.do(`tap ^Accept 2$`)
	a.waitUntil("the bulk accept's report", "texts", "Accept 2 work orders")
	a.shoot("bulk-accept")
	a.closes("bulk-accept-closed", "key Escape")

	// A word and digits read off a sheet find the work order.
	a.dialog("status-filter-all", "tap ^New \\(")
	a.closes("all-statuses", `tap ^All statuses \(\d+\)$`)
	// A work order without an NTE says so in words, without a currency.
	list := a.do("texts *list.Table")
	if m := regexp.MustCompile(`([A-Z]{3}\d{5}) \| [^|]+ \| [^|]+ \| [^|]+ \| no limit \|`).FindStringSubmatch(list); m != nil {
		// Found by its number: the list may hold it below the rows shown.
		a.type_("no-limit-search-"+m[1], m[1], "*list.SearchEntry")
		for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
			if rows := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1); len(rows) == 1 && rows[0] == m[1] {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("searching %s does not list it alone", m[1])
			}
		}
		a.step("no-limit-"+m[1], "tap ^"+m[1]+"$")
		if texts := a.do("texts"); !strings.Contains(texts, "| NTE: | no limit |") {
			t.Errorf("the header of %s, which has no NTE, does not read \"NTE: no limit\": %s", m[1], texts)
		}
		a.do("focus *list.SearchEntry")
		a.step("no-limit-search-cleared", "key Escape")
	} else {
		t.Errorf("the demo list shows no work order without an NTE: %s", list)
	}

	sakura := regexp.MustCompile(`\bSMJ\d{5}\b`).FindString(list)
	if sakura == "" {
		t.Fatal("the demo list shows no Sakura Mart work order")
	}
	search := "sakura " + sakura[len(sakura)-4:]
	a.type_("search-"+strings.ReplaceAll(search, " ", "-"), search, "*list.SearchEntry")
	// The search runs in the background; its answer shows a moment later.
	for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
		list := a.do("texts *list.Table")
		if strings.Contains(list, sakura) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("searching %q does not list %s: %s", search, sakura, list)
		}
	}
	a.do("focus *list.SearchEntry")
	a.step("search-cleared", "key Escape")

	// A quote to a customer who takes none is refused by the service; the
	// Activity tab offers Discard, which asks first.
	a.dialog("status-filter-accepted", "tap ^All statuses \\(")
	a.closes("accepted-only", `tap ^Accepted \(\d+\)$`)
	accepted := a.do("texts *list.Table")
	smj := regexp.MustCompile(`\bSMJ\d{5}\b`).FindString(accepted)
	if smj == "" {
		t.Fatalf("no accepted Sakura Mart work order to quote: %s", accepted)
	}
	a.step("quote-"+smj, "tap ^"+smj+"$")
	a.step("quote-tab", "tapin *container.AppTabs ^Quote$")
	a.type_("quote-typed", "9990000", "*container.AppTabs")
	a.step("quote-submitted", "tap ^Submit quote$")
	a.step("activity-tab", "tapin *container.AppTabs ^Activity$")
	a.waitUntil("the refused quote", "texts *container.AppTabs", "Refused by the service")
	a.dialog("activity-discard", "tapin *widget.List ^Discard…$")
	a.closes("activity-discard-esc", "key Escape")

	// With the service gone, a check-in where the customer does not allow
	// back-dating asks before it waits in the outbox.
	hph := regexp.MustCompile(`\bHPH\d{5}\b`).FindString(accepted)
	if hph == "" {
		t.Fatalf("no accepted Harbor Point Hotels work order: %s", accepted)
	}
	a.do("offline")
	a.step("offline-sync", "menu File/Sync now")
	// The status bar says the sync failed and why, in plain words.
	why := a.waitUntil("the reason of the failed sync", "texts", "Nothing answers at ")
	if !strings.Contains(why, "Offline: sync failed") {
		t.Errorf("with the service gone the status bar does not say offline: %s", why)
	}
	a.shoot("offline-sync-why")
	a.step("offline-"+hph, "tap ^"+hph+"$")
	a.step("offline-visit-tab", "tapin *container.AppTabs ^Visit$")
	a.dialog("check-in-offline", "tap ^Check in$")
	a.closes("check-in-offline-esc", "key Escape")
}

// openWorkOrderWithStepFile waits for the first sync and opens a checked-in
// work order with a procedure step holding a file: every "Add file…" is
// enabled on it, and the file can be opened and saved. It returns the work
// order's number and the step's.
func (a *app) openWorkOrderWithStepFile() (picked, fileStep string) {
	a.t.Helper()
	a.step("start", "ready")
	a.dialog("status-filter", "tap ^All statuses")
	a.closes("checked-in-only", `tap ^Checked in \(\d+\)$`)

	numbers := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	if len(numbers) == 0 {
		a.t.Fatal("the list filtered to checked-in work orders shows no work order numbers")
	}
	for _, n := range numbers {
		a.do("tap ^" + n + "$")
		a.do("tapin *container.AppTabs ^Procedures$")
		for _, s := range regexp.MustCompile(`(?:^|\| )(\d+)\. `).FindAllStringSubmatch(a.do("texts *widget.Tree"), -1) {
			a.do(`tapin *widget.Tree ^` + s[1] + `\. `)
			if strings.Contains(a.stepFiles(), "| Open… |") {
				picked, fileStep = n, s[1]
				break
			}
		}
		if picked != "" {
			break
		}
	}
	if picked == "" {
		a.t.Fatalf("none of the checked-in work orders %v has a procedure step with a file", numbers)
	}
	a.shoot("work-order-" + picked)
	return picked, fileStep
}

// TestRealWindowNoticeBanner starts the app configured for a live service
// whose client secret this computer does not hold (no keyring under Xvfb):
// the window opens on the live replica with a banner, and its "Connection
// settings…" opens the connection dialog, which Esc closes.
func TestRealWindowNoticeBanner(t *testing.T) {
	t.Parallel()
	config := t.TempDir()
	prefs := filepath.Join(config, "fyne", "com.workorderdesk.workdesk")
	if err := os.MkdirAll(prefs, 0o755); err != nil {
		t.Fatal(err)
	}
	live := `{"live.base_url":"https://api.example.com/Direct/","live.token_url":"https://login.example.com/oauth/token","live.client_id":"office-7"}`
	if err := os.WriteFile(filepath.Join(prefs, "preferences.json"), []byte(live), 0o644); err != nil {
		t.Fatal(err)
	}
	a := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()}, "XDG_CONFIG_HOME="+config)
	a.waitUntil("the banner", "texts", "Connection settings…")
	a.shoot("banner")
	a.dialog("banner-connection-settings", "tap ^Connection settings…$")
	a.closes("banner-connection-settings-esc", "key Escape")
}

// TestRealWindowAtLaptopSizes keeps pictures of the list and of a filled-in
// invoice at 1024x700 and 1280x800 (the sizes), untouched by the
// typing of the test above.
func TestRealWindowAtLaptopSizes(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("start", "ready")
	a.dialog("status-filter", "tap ^All statuses")
	a.closes("checked-in-only", `tap ^Checked in \(\d+\)$`)
	numbers := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	if len(numbers) == 0 {
		t.Fatal("no checked-in work order")
	}
	invoiced := ""
	for _, n := range numbers {
		a.do("tap ^" + n + "$")
		a.do("tapin *container.AppTabs ^Invoice$")
		if strings.Contains(a.do("texts *container.AppTabs"), "Price list") {
			invoiced = n
			break
		}
	}
	if invoiced == "" {
		t.Fatalf("none of %v has invoice lines", numbers)
	}
	a.dialog("status-filter-all", "tap ^Checked in \\(")
	a.closes("all-statuses", `tap ^All statuses \(\d+\)$`)
	for _, size := range []string{"1024x700", "1280x800"} {
		a.do("resize " + size)
		a.step("invoice-"+size, "tapin *container.AppTabs ^Invoice$")
		a.step("list-"+size, "tapin *container.AppTabs ^Summary$")
	}
}

// TestRealWindowRefusedActionInTheHeader: a quote the service refuses
// (Sakura Mart Japan takes none) shows in the work order's header with the
// service's words; Edit puts the amount back into the Quote tab, and
// Discard, after asking, removes the refusal. The header is kept at
// 1024x700 and 1280x800.
func TestRealWindowRefusedActionInTheHeader(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("refusal-start", "ready")
	a.type_("refusal-search-sakura", "sakura", "*list.SearchEntry")
	list := a.do("texts *list.Table")
	m := regexp.MustCompile(`\b(SMJ\d{5}) \| Sakura Mart J[^|]* \| Accepted \|`).FindStringSubmatch(list)
	if m == nil {
		t.Fatalf("the demo lists no accepted Sakura Mart work order: %s", list)
	}
	a.step("refusal-open-"+m[1], "tap ^"+m[1]+"$")
	a.step("refusal-quote-tab", "tapin *container.AppTabs ^Quote$")
	a.type_("refusal-quote-typed", "9999999", "*container.AppTabs")
	a.step("refusal-quote-submitted", "tap ^Submit quote$")
	header := a.waitFor("the refusal in the header", func(texts string) bool { return strings.Contains(texts, "does not accept quotes") })
	if !strings.Contains(header, "refused by the service") || !strings.Contains(header, "| Retry |") || !strings.Contains(header, "| Discard… |") {
		t.Fatalf("the header shows the refusal without its title or buttons: %s", header)
	}
	for _, size := range []string{"1024x700", "1280x800"} {
		a.step("refused-action-"+size, "resize "+size)
		// The refusal's lines in the header must not make the window ask for
		// more than the screen has: at 1280x800 it grew to 825 (issue 38).
		fits := a.until("the window laid out at "+size, "fits", func(s string) bool { return strings.HasSuffix(s, " of "+size) })
		t.Logf("at %s: %s", size, fits)
		var mw, mh, w, h int
		if _, err := fmt.Sscanf(fits, "%dx%d in %dx%d", &mw, &mh, &w, &h); err != nil || mh > h || mw > w {
			t.Errorf("at %s with a refusal in the header the window asks for %s", size, fits)
		}
	}

	a.step("refusal-edit", "tap ^Edit$")
	// JPY has no minor units: the amount comes back as typed, not as "9999999.00".
	if texts := a.do("texts"); !strings.Contains(texts, "| Stop editing |") || !strings.Contains(texts, "| 9999999 |") || strings.Contains(texts, "9999999.") {
		t.Fatalf("Edit did not put the quote back into its form: %s", texts)
	}
	a.step("refusal-stop-editing", "tap ^Stop editing$")
	// The customer refused quotes (3004): its quote form stays closed, and
	// says so, until the person tries again.
	if texts := a.do("texts *container.AppTabs"); !strings.Contains(texts, "does not accept quotes") || !strings.Contains(texts, "| Try again") {
		t.Fatalf("the quote tab after a 3004: %s", texts)
	}
	a.step("refusal-try-again", "tap ^Try again$")
	// Something else typed into the form since: Edit asks before replacing it.
	a.type_("refusal-typed-over", "1", "*container.AppTabs")
	a.dialog("refusal-edit-asks", "tap ^Edit$")
	if texts := a.do("texts"); !strings.Contains(texts, "Replace what you typed with the refused quote?") {
		t.Fatalf("Edit over what was typed asked nothing: %s", texts)
	}
	a.closes("refusal-edit-kept", "tap ^Keep what I typed$")
	a.dialog("refusal-discard", "tap ^Discard…$")
	a.closes("refusal-discarded", "tap ^Discard$")
	a.waitFor("the refusal gone", func(texts string) bool { return !strings.Contains(texts, "does not accept quotes") })
	a.shoot("refusal-gone")
}

// patience bounds every wait for the window: long, so that a busy machine
// makes the test slower, never wrong (a wait ends as soon as what it waits
// for shows).
const patience = 90 * time.Second

// waitFor polls the window's texts until ok holds, for up to patience (the
// outbox sends in the background), and returns them.
func (a *app) waitFor(what string, ok func(texts string) bool) string {
	a.t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		texts := a.do("texts")
		if ok(texts) {
			return texts
		}
		if time.Now().After(deadline) {
			a.shoot("timed-out")
			a.t.Fatalf("timed out waiting for %s: %s", what, texts)
		}
	}
}

// stepFiles waits for the chosen step's files to load and returns the
// texts of the Procedures tab.
func (a *app) stepFiles() string {
	a.t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(100 * time.Millisecond) {
		texts := a.do("texts *container.Split")
		if !strings.Contains(texts, "Loading the step's files") {
			return texts
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("the step's files did not load in %v", patience)
		}
	}
}

// waitUntil repeats command (a "texts" one) until its answer holds want,
// failing after patience.
func (a *app) waitUntil(what, command, want string) string {
	a.t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(200 * time.Millisecond) {
		texts := a.do(command)
		if strings.Contains(texts, want) {
			return texts
		}
		if time.Now().After(deadline) {
			a.shoot("no-" + strings.ReplaceAll(what, " ", "-"))
			a.t.Fatalf("%s did not show in %v: %s", what, patience, texts)
		}
	}
}

// app is the running binary, spoken to through its driver (realwindow.go).
type app struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	exited chan struct{}
	stderr *syncBuffer
	screen *screen
}

// start starts the app in demo mode on a 1920x1200 screen of t's own.
func start(t *testing.T) *app {
	return startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()})
}

// startWith starts the app on scr with args and, added to the
// environment, env (a later variable wins: XDG_CONFIG_HOME=… brings
// preferences of its own).
func startWith(t *testing.T, scr *screen, args []string, env ...string) *app {
	return startFresh(t, scr, args, append(env, seenGuide(t, env))...)
}

// seenGuide is the XDG_CONFIG_HOME=… of env (a new one if none) with the
// preferences of a person who has seen the demo's Getting started, which
// the demo's first start opens over everything.
func seenGuide(t *testing.T, env []string) string {
	config := t.TempDir()
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "XDG_CONFIG_HOME="); ok {
			config = v
		}
	}
	dir := filepath.Join(config, "fyne", "com.workorderdesk.workdesk")
	prefs := map[string]any{}
	if b, err := os.ReadFile(filepath.Join(dir, "preferences.json")); err == nil {
		if err := json.Unmarshal(b, &prefs); err != nil {
			t.Fatal(err)
		}
	}
	prefs["help.guideShown"] = true
	b, err := json.Marshal(prefs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "preferences.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return "XDG_CONFIG_HOME=" + config
}

// startFresh is startWith as the app's first start on this computer.
func startFresh(t *testing.T, scr *screen, args []string, env ...string) *app {
	cmd := exec.Command(os.Getenv("WORKDESK_BIN"), args...)
	cmd.Env = append(append(os.Environ(), "DISPLAY="+scr.display, "XDG_CONFIG_HOME="+t.TempDir(), "FYNE_SCALE=1", "HOME="+home(t)), env...)
	a := &app{t: t, cmd: cmd, lines: make(chan string), exited: make(chan struct{}), stderr: &syncBuffer{}, screen: scr}
	cmd.Stderr = a.stderr
	var err error
	if a.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "realwindow: "); ok {
				a.lines <- l
			}
		}
		close(a.lines)
	}()
	go func() {
		cmd.Wait()
		close(a.exited)
	}()
	t.Cleanup(func() {
		a.in.Close()
		cmd.Process.Kill()
		<-a.exited
	})
	return a
}

// home is a home folder with a few files for the file pickers to list.
func home(t *testing.T) string {
	h := t.TempDir()
	for _, name := range []string{"receipt.pdf", "meter-reading.jpg", "work-ticket.png"} {
		if err := os.WriteFile(filepath.Join(h, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// do sends one command and returns the driver's answer; a refusal fails
// the test, and so does the process ending before it answers.
func (a *app) do(command string) string {
	a.t.Helper()
	if _, err := fmt.Fprintln(a.in, command); err != nil {
		a.died(command)
	}
	select {
	case l, ok := <-a.lines:
		if !ok {
			a.died(command)
		}
		if msg, failed := strings.CutPrefix(l, "fail "); failed {
			a.shoot("failed")
			a.t.Fatalf("%s", msg)
		}
		return strings.TrimPrefix(l, "ok ")
	case <-time.After(patience):
		a.shoot("no-answer")
		a.t.Fatalf("no answer to %q in %v: the window is frozen", command, patience)
	}
	return ""
}

func (a *app) died(command string) {
	a.t.Helper()
	select {
	case <-a.exited:
	case <-time.After(10 * time.Second):
	}
	a.t.Fatalf("the app ended during %q (%v). The end of what it wrote:\n%s", command, a.cmd.ProcessState, tail(a.stderr.String(), 40))
}

// shoot keeps a picture of the screen (screen.shoot) once the process is
// known alive.
func (a *app) shoot(name string) {
	a.t.Helper()
	select {
	case <-a.exited:
		a.died("the screenshot " + name)
	default:
	}
	a.screen.shoot(name)
}

// step runs command, checks the process is alive and keeps a screenshot.
func (a *app) step(name, command string) string {
	a.t.Helper()
	answer := a.do(command)
	a.shoot(name)
	return answer
}

var openDialogs = regexp.MustCompile(`dialogs open: (\d+) \(were (\d+)\)`)

// dialogCounts reads how many dialogs were open before and after a tap.
func dialogCounts(answer string) (now, were int) {
	m := openDialogs.FindStringSubmatch(answer)
	if m == nil {
		return -1, -1
	}
	now, _ = strconv.Atoi(m[1])
	were, _ = strconv.Atoi(m[2])
	return now, were
}

// dialog runs a command that must open one more dialog.
func (a *app) dialog(name, command string) {
	a.t.Helper()
	answer := a.step(name, command)
	if now, were := dialogCounts(answer); now <= were {
		a.t.Fatalf("%q opened no dialog: %s", command, answer)
	}
}

// closes runs a command that must close the topmost dialog.
func (a *app) closes(name, command string) {
	a.t.Helper()
	answer := a.step(name, command)
	if now, were := dialogCounts(answer); now >= were {
		a.t.Fatalf("%q closed no dialog: %s", command, answer)
	}
}

// type_ types text into every entry in view (in the topmost dialog, or
// inside a within when given) and expects at least one.
func (a *app) type_(name, text string, within ...string) {
	a.t.Helper()
	command := "type " + text
	if len(within) > 0 {
		command = "typein " + within[0] + " " + text
	}
	answer := a.step(name, command)
	if strings.HasPrefix(answer, "typed into 0 ") {
		a.t.Fatalf("no entry to type into at %s", name)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// syncBuffer is the process's stderr, written by exec's copier and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
