package realwindow

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The office coordinator's day at the keyboard and on small screens, in the
// real window: keys go through the X server (xdotool, XTEST) to GLFW and
// Fyne as a person's do, not through the driver.

// tabTitles are the detail's tabs, in their order: Ctrl+1 … Ctrl+9.
var tabTitles = []string{"Summary", "Quote", "Visit", "Messages", "Attachments", "Invoice", "Procedures", "Internal note", "Activity"}

// keys presses keys on the keyboard, as xdotool names them ("ctrl+1",
// "Return"), in the app's window.
func (a *app) keys(keys ...string) {
	a.t.Helper()
	if _, err := exec.LookPath("xdotool"); err != nil {
		a.t.Fatal("xdotool is needed to type on the real keyboard: make deps installs it")
	}
	win := a.xWindow()
	args := append([]string{"windowfocus", "--sync", win, "key", "--clearmodifiers", "--delay", "80"}, keys...)
	if out, err := a.xdotool(args...).CombinedOutput(); err != nil {
		a.t.Fatalf("xdotool %v: %v: %s", keys, err, out)
	}
}

// typeText types text on the keyboard into what has the focus.
func (a *app) typeText(text string) {
	a.t.Helper()
	if out, err := a.xdotool("windowfocus", "--sync", a.xWindow(), "type", "--delay", "40", text).CombinedOutput(); err != nil {
		a.t.Fatalf("xdotool type: %v: %s", err, out)
	}
}

// xWindow is the X window of the app's process.
func (a *app) xWindow() string {
	a.t.Helper()
	out, err := a.xdotool("search", "--sync", "--pid", strconv.Itoa(a.cmd.Process.Pid)).Output()
	if err != nil {
		a.t.Fatalf("finding the app's window: %v", err)
	}
	return strings.Fields(string(out))[0]
}

// xdotool is the command xdotool args on the app's own X server.
func (a *app) xdotool(args ...string) *exec.Cmd {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+a.screen.display)
	return cmd
}

// until repeats command until its answer satisfies ok, for up to patience
// (a key reaches the window through the X server, apart from the driver).
func (a *app) until(what, command string, ok func(string) bool) string {
	a.t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(100 * time.Millisecond) {
		answer := a.do(command)
		if ok(answer) {
			return answer
		}
		if time.Now().After(deadline) {
			a.shoot("no-" + strings.ReplaceAll(what, " ", "-"))
			a.t.Fatalf("%s: %q", what, answer)
		}
	}
}

// TestRealWindowKeyboardPath: from the keyboard alone, every detail tab
// (Ctrl+1 … Ctrl+9), a message sent with Ctrl+Enter, Tab to Accept with a
// ring around it (light and dark), Ctrl+Shift+I on a new work order saying
// why in a dialog that Enter closes, the reject dialog cancelled with Esc,
// Space ticking a row, Ctrl+E's export, Ctrl+S saving the internal note,
// and the menus opened with Alt.
func TestRealWindowKeyboardPath(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("keys-start", "ready")

	a.keys("ctrl+l")
	for i, title := range tabTitles {
		a.keys(fmt.Sprintf("ctrl+%d", i+1))
		a.until("Ctrl+"+strconv.Itoa(i+1)+" shows "+title, "tabsel", func(s string) bool { return s == fmt.Sprintf("%d %s", i, title) })
		a.shoot("keys-ctrl-" + strconv.Itoa(i+1) + "-" + strings.ReplaceAll(strings.ToLower(title), " ", "-"))
		// The keyboard went into the tab: off the list it was on.
		if f := a.do("focused"); strings.Contains(f, "woTable") {
			t.Errorf("after Ctrl+%d the keyboard is still on the list", i+1)
		}
	}

	// A message, typed and sent from the keyboard.
	a.keys("ctrl+4")
	a.until("the Messages tab", "tabsel", func(s string) bool { return strings.HasPrefix(s, "3 ") })
	a.do("focus *messages.messageEntry")
	a.typeText("On our way, about 20 minutes")
	a.keys("Return")
	a.typeText("Gate code please")
	a.shoot("keys-message-typed")
	a.keys("ctrl+Return")
	thread := a.until("the message sent with Ctrl+Enter", "texts *container.AppTabs", func(s string) bool {
		return strings.Contains(s, "On our way, about 20 minutes | Gate code please") && strings.Contains(s, "0 / 3000")
	})
	if !strings.Contains(thread, "Customer and crew") {
		t.Errorf("after sending, the next message is not for the customer and crew: %s", thread)
	}
	a.shoot("keys-ctrl-enter-sent")

	// A new work order: Tab reaches Accept, ringed.
	a.dialog("keys-status-filter", "tap ^All statuses")
	a.closes("keys-new-only", `tap ^New \(\d+\)$`)
	news := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindAllString(a.do("texts *list.Table"), -1)
	if len(news) < 2 {
		t.Fatalf("the New filter lists %v", news)
	}
	a.do("tap ^" + news[0] + "$")
	a.keys("ctrl+l")
	for i := 0; ; i++ {
		if strings.HasSuffix(a.do("focused"), "Accept") {
			break
		}
		if i == 40 {
			t.Fatalf("40 presses of Tab did not reach Accept: %s", a.do("focused"))
		}
		a.keys("Tab")
	}
	a.shoot("keys-accept-focused-light")
	a.do("menu View/Appearance/Dark")
	a.shoot("keys-accept-focused-dark")
	a.do("menu View/Appearance/Light")

	// Ctrl+Shift+I on a new one says why; Enter closes what it says.
	a.keys("ctrl+shift+i")
	a.until("a dialog saying why Check in cannot be done", "dialogs", func(s string) bool { return s == "1" })
	if texts := a.do("texts"); !strings.Contains(texts, "accept") {
		t.Errorf("Ctrl+Shift+I on a new work order says: %s", texts)
	}
	a.shoot("keys-check-in-refused")
	a.keys("Return")
	a.until("the dialog closed by Enter", "dialogs", func(s string) bool { return s == "0" })

	// Ctrl+Shift+R opens Reject…, Esc cancels it.
	a.keys("ctrl+shift+r")
	a.until("the reject dialog", "dialogs", func(s string) bool { return s == "1" })
	if texts := a.do("texts"); !strings.Contains(texts, "Reject this work order") {
		t.Errorf("Ctrl+Shift+R opened: %s", texts)
	}
	a.shoot("keys-reject-dialog")
	a.keys("Escape")
	a.until("the reject dialog cancelled by Esc", "dialogs", func(s string) bool { return s == "0" })

	// Space ticks the highlighted row; Reject counts it.
	a.keys("ctrl+l", "Down", "space")
	a.until("Space ticking a row", "texts", func(s string) bool { return strings.Contains(s, "| Reject 1 |") })
	a.shoot("keys-space-ticked")

	// Ctrl+E offers the export; Esc cancels it.
	a.keys("ctrl+e")
	a.until("the export dialog", "dialogs", func(s string) bool { return s == "1" })
	if texts := a.do("texts"); !strings.Contains(texts, "Exports the") {
		t.Errorf("Ctrl+E opened: %s", texts)
	}
	a.shoot("keys-export")
	a.keys("Escape")
	a.until("the export dialog cancelled by Esc", "dialogs", func(s string) bool { return s == "0" })

	// Ctrl+S, typed in the internal note, saves it.
	a.keys("ctrl+8")
	a.until("the Internal note tab", "tabsel", func(s string) bool { return strings.HasPrefix(s, "7 ") })
	a.typeText("Gate code 4471")
	a.keys("ctrl+s")
	// The first save asks for the person's name, once.
	a.until("Ctrl+S asking for the name", "dialogs", func(s string) bool { return s == "1" })
	if texts := a.do("texts"); !strings.Contains(texts, "Your name") {
		t.Fatalf("Ctrl+S on the note opened: %s", texts)
	}
	a.typeText("Ana Ruiz")
	a.keys("Return")
	a.until("the name taken by Enter", "dialogs", func(s string) bool { return s == "0" })
	a.until("the note saved by Ctrl+S", "texts", func(s string) bool { return !strings.Contains(s, "Not saved yet") })
	a.shoot("keys-ctrl-s-saved")

	// Every menu item from the keyboard: Alt alone opens the menu bar on
	// File, Right moves to View, Down walks its items (Find…, Move to the
	// list, Tab, Dispatch board, Receivables), Enter chooses.
	a.keys("alt")
	a.keys("Right", "Down", "Down", "Down", "Down", "Down")
	a.shoot("keys-menu-receivables")
	a.keys("Return")
	a.until("Receivables opened from the menus by keys", "windows", func(s string) bool { return strings.Contains(s, "Receivables") })
}

// TestRealWindowSmallScreens: at 1024x700 and in a 960x800 window the list
// shows the number, customer, status, the deadline with what is due and
// the NTE with its currency; at 960 the tabs show icons only, at 1024 their
// names.
func TestRealWindowSmallScreens(t *testing.T) {
	t.Parallel()
	a := start(t)
	a.step("small-start", "ready")
	// Triage at a glance: overdue in red, each row saying why it is there.
	a.step("needs-attention", "tap ^Needs attention")
	if list := a.do("texts *list.Table"); !regexp.MustCompile(` late \|`).MatchString(list) {
		t.Errorf("under Needs attention no row says it is late: %s", list)
	}
	a.do("tap ^Needs attention")
	for _, size := range []struct {
		name  string
		named bool
	}{{"1024x700", true}, {"960x800", false}} {
		a.step("small-"+size.name, "resize "+size.name)
		list := a.do("texts *list.Table")
		for _, want := range []struct{ what, re string }{
			{"a number", `\b[A-Z]{3}\d{5}\b`},
			{"a customer", `Sakura Mart Japan|Northwind Retail|Rheinland Offices|…`},
			{"a status", `Accepted|Checked in|New`},
			{"a deadline with what is due", `(On site|Due|Ack|Acknowledge|Invoice|Inv|Site) · `},
			{"an NTE with its currency", `[$€£¥][\d,]+`},
		} {
			if !regexp.MustCompile(want.re).MatchString(list) {
				t.Errorf("at %s the list shows no %s: %s", size.name, want.what, list)
			}
		}
		tabs := a.do("texts *container.AppTabs")
		if named := strings.Contains(tabs, "Summary |"); named != size.named {
			t.Errorf("at %s the tabs show their names: %v", size.name, named)
		}
		a.step("small-"+size.name+"-invoice", "shortcut ctrl+6")
		a.step("small-"+size.name+"-visit", "shortcut ctrl+3")
	}
}
