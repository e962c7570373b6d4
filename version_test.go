package main

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// fileVersion reads the Version line of FyneApp.toml as a person would,
// without the TOML parser the program uses.
func fileVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Version\s*=\s*"([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version line")
	}
	return string(m[1])
}

// `workdesk --version`, Help › About and the packages `make dist` builds
// all say the version written in FyneApp.toml.
func TestVersionIsFyneAppTomls(t *testing.T) {
	t.Parallel()
	want := fileVersion(t)
	if appVersion != want {
		t.Errorf("workdesk --version says %q, FyneApp.toml says %q", appVersion, want)
	}
	if _, err := exec.LookPath("make"); err != nil || runtime.GOOS == "windows" {
		t.Skip("packages are made by make dist on Debian; no such make here")
	}
	out, err := exec.Command("make", "-s", "--no-print-directory", "print-version").Output()
	if err != nil {
		t.Fatalf("make print-version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("make dist stamps the packages %q, FyneApp.toml says %q", got, want)
	}
}

func TestVersionOfRefusesAFileWithoutOne(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"[Details]\nName = \"x\"\n", "[Details\nVersion = 1.0"} {
		if v, err := versionOf(bad); err == nil {
			t.Errorf("versionOf(%q) = %q, want an error", bad, v)
		}
	}
}

// Help › About is added after the window's own menus and shows the version.
func TestHelpAboutShowsTheVersion(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("desk"))
	w.Resize(fyne.NewSize(800, 600))
	w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("File"), fyne.NewMenu("View")))
	addHelpMenu(w)

	menus := w.MainMenu().Items
	if len(menus) != 3 || menus[0].Label != "File" || menus[2].Label != "Help" {
		t.Fatalf("menus after addHelpMenu: %v, want File, View, Help", labels(menus))
	}
	help := menus[2]
	if len(help.Items) != 1 || !strings.HasPrefix(help.Items[0].Label, "About") {
		t.Fatalf("Help menu holds %d items, want About", len(help.Items))
	}
	help.Items[0].Action()

	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("About opened no dialog")
	}
	var shown []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok && l.Visible() {
			shown = append(shown, l.Text)
		}
	}
	if !strings.Contains(strings.Join(shown, "\n"), "Work Order Desk "+fileVersion(t)) {
		t.Errorf("About shows %q, want the version %s", shown, fileVersion(t))
	}
}

func labels(menus []*fyne.Menu) []string {
	var out []string
	for _, m := range menus {
		out = append(out, m.Label)
	}
	return out
}

// The window's own Help menu (Getting started, Keyboard shortcuts) gains
// About at its end; no second Help menu appears.
func TestHelpAboutJoinsTheWindowsHelpMenu(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("desk"))
	w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("File"), fyne.NewMenu("Help", fyne.NewMenuItem("Getting started", nil))))
	addHelpMenu(w)
	menus := w.MainMenu().Items
	if len(menus) != 2 || menus[1].Label != "Help" {
		t.Fatalf("menus after addHelpMenu: %v, want File, Help", labels(menus))
	}
	items := menus[1].Items
	if last := items[len(items)-1]; items[0].Label != "Getting started" || !strings.HasPrefix(last.Label, "About") {
		t.Errorf("Help holds %q … %q", items[0].Label, last.Label)
	}
}
