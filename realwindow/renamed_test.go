package realwindow

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRealWindowRenamedDialect runs the app in demo mode against a sandbox
// that answers the reads without a published schema with other names than
// our guesses (--demo-dialect renamed), at Lakeside Medical Group, a
// customer that forbids back-dating and requires an answer at check-out:
// nothing locks. Back-dating is offered (the settings' flag was not found, so it
// is not "forbidden"); a price-list line is added to the invoice and
// saved (the price list's flags were not found either); and the check-out
// form offers the customer's question as optional, and the check-out is
// queued, for the service to judge. With
// WORKDESK_RENAMED_SHOT=FILE the last screen is kept there.
func TestRealWindowRenamedDialect(t *testing.T) {
	t.Parallel()
	a := startWith(t, newScreen(t, "1920x1200"), []string{"--demo", "--demo-dialect", "renamed", "--window-size", "1280x800", "--data-dir", t.TempDir()})
	a.step("renamed-start", "ready")

	// File › Check the connection… names what the service answered under
	// other names, as `workdesk doctor --contract` does.
	a.dialog("renamed-check", "menu File/Check the connection…")
	report := a.waitMatch("the contract report", "texts", `BackdatingAllowed`, 60*time.Second)
	for _, want := range []string{"FAIL", "AllowBackdating", "TextMessages", "DownloadUrl", "Save the answers for support"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report in the window does not show %q: %s", want, report)
		}
	}
	a.shoot("renamed-check-report")
	keep(a, "WORKDESK_CHECK_SHOT")
	a.closes("renamed-check-closed", "tap ^Close$")
	a.dialog("renamed-status-filter", "tap ^All statuses")
	a.closes("renamed-checked-in-only", `tap ^Checked in \(\d+\)$`)
	numbers := regexp.MustCompile(`\bLMG\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	if len(numbers) == 0 {
		t.Fatal("no checked-in work order of Lakeside Medical Group in the list")
	}
	wo := numbers[0]
	a.step("renamed-open", "tap ^"+wo+"$")

	// Back-dating offered where our guess of the flag's name was wrong.
	a.step("renamed-visit", "tapin *container.AppTabs ^Visit$")
	visit := a.do("texts *container.AppTabs")
	if strings.Contains(visit, "does not allow back-dating") || !strings.Contains(visit, "Earlier (back-date)") {
		t.Fatalf("the visit tab at a customer whose settings we could not read: %s", visit)
	}
	a.step("renamed-back-dating-offered", "tap ^Earlier \\(back-date\\)$")
	// The words wrap where the pane is narrow: read them across lines.
	if !strings.Contains(strings.ReplaceAll(visit, " | ", " "), "fill in what") {
		t.Errorf("the check-out form does not say its fields are optional here: %s", visit)
	}

	// Invoice lines can be saved.
	a.step("renamed-invoice", "tapin *container.AppTabs ^Invoice$")
	invoice := a.do("texts *container.AppTabs")
	if strings.Contains(invoice, "does not allow price list items") || strings.Contains(invoice, "accepts only items from its price list") {
		t.Fatalf("the invoice locks on price-list flags we could not read: %s", invoice)
	}
	a.dialog("renamed-price-list", "tap ^Price list item…$")
	a.closes("renamed-price-item", `tap \$`)
	a.step("renamed-item-added", "tap ^Add item$")
	a.step("renamed-invoice-saved", "tap ^Save$")
	a.waitMatch("the saved invoice", "texts *container.AppTabs", `Save.*(Sent|accepted)|Invoice saved`, 30*time.Second)
	a.shoot("renamed-invoice-sent")

	// Check-out queued, with the customer's question offered as optional.
	a.step("renamed-visit-again", "tapin *container.AppTabs ^Visit$")
	a.dialog("renamed-question", "tap ^Choose$")
	a.closes("renamed-question-answered", "tap ^Yes$")
	a.step("renamed-now", "tap ^Now$") // back-dating was offered, but this visit is now
	answer := a.step("renamed-checkout", "tap ^Check out$")
	if strings.Contains(answer, "disabled") {
		t.Fatalf("Check out: %s", answer)
	}
	if now, were := dialogCounts(answer); now > were {
		// Required steps still open: the check-out asks first, Cancel
		// focused, so Enter does not check out.
		if texts := a.do("texts"); !strings.Contains(texts, "required procedure step") || !strings.Contains(texts, "Check out anyway") {
			t.Fatalf("Check out opened a dialog that is not about open steps: %s", texts)
		}
		a.shoot("renamed-checkout-steps-open")
		a.keys("Return")
		a.until("Enter cancelling the check-out", "dialogs", func(s string) bool { return s == "0" })
		if texts := a.do("texts *container.AppTabs"); strings.Contains(texts, "Check out anyway") || !strings.Contains(texts, "| Check out |") {
			t.Fatalf("after Enter on the question: %s", texts)
		}
		a.dialog("renamed-checkout-again", "tap ^Check out$")
		a.closes("renamed-checkout-anyway", "tap ^Check out anyway$")
	}
	texts := a.waitMatch("the check-out queued, then taken", "texts", `Checked out`, 30*time.Second)
	if strings.Contains(texts, "refused by the service") {
		t.Fatalf("the service refused the check-out: %s", texts)
	}
	a.shoot("renamed-checkout-taken")
	keep(a, "WORKDESK_RENAMED_SHOT")

	// The customer verifies the work before the invoice can be submitted:
	// the invoice waits, says so, and its lines can still be prepared.
	a.step("renamed-invoice-waits", "tapin *container.AppTabs ^Invoice$")
	texts = a.waitMatch("the invoice waiting for verification", "texts *container.AppTabs", `verify the work`, 30*time.Second)
	for _, want := range []string{"Pending verification", "Submit by", "Save"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the waiting invoice does not show %q: %s", want, texts)
		}
	}
	a.shoot("renamed-invoice-waits-verified")
	keep(a, "WORKDESK_VERIFY_SHOT")
}

// keep saves the screen's window (1280x800 at the top left) to the file
// the environment variable names, when it names one.
func keep(a *app, env string) {
	a.t.Helper()
	shot := os.Getenv(env)
	if shot == "" {
		return
	}
	cmd := exec.Command("import", "-window", "root", "-crop", "1280x800+0+0", "+repage", "-strip", shot)
	cmd.Env = append(os.Environ(), "DISPLAY="+a.screen.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		a.t.Fatalf("keeping the screenshot: %v: %s", err, out)
	}
}

// waitMatch is waitUntil for a regular expression.
func (a *app) waitMatch(what, command, want string, limit time.Duration) string {
	a.t.Helper()
	re := regexp.MustCompile(want)
	for deadline := time.Now().Add(limit); ; time.Sleep(200 * time.Millisecond) {
		texts := a.do(command)
		if re.MatchString(texts) {
			return texts
		}
		if time.Now().After(deadline) {
			a.shoot("no-" + strings.ReplaceAll(what, " ", "-"))
			a.t.Fatalf("%s did not show in %v: %s", what, limit, texts)
		}
	}
}
