package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	ics "github.com/arran4/golang-ical"
)

// TestDaySheetCommand: `workdesk daysheet` with nothing configured reads
// the demo's replica (made and synced the first time, as the window
// would): a technician's week goes to a PDF and a calendar; a name that
// matches no one lists those there are and exits 1; flags wrong exit 2.
func TestDaySheetCommand(t *testing.T) {
	prefs := test.NewTempApp(t).Preferences()
	data, dir := t.TempDir(), t.TempDir()
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := runDaySheet(append(args, "--data-dir", data), prefs, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, _, errOut := run("--technician", "Nobody Here", "--pdf", filepath.Join(dir, "x.pdf"))
	if code != 1 || !strings.Contains(errOut, `no technician of that name: "Nobody Here"; the technicians are: `) || !strings.Contains(errOut, "Kenji Sato") {
		t.Fatalf("an unknown name: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.pdf")); !os.IsNotExist(err) {
		t.Errorf("an unknown name wrote a file (%v)", err)
	}
	pdf, cal := filepath.Join(dir, "kenji.pdf"), filepath.Join(dir, "kenji.ics")
	code, out, errOut := run("--technician", "kenji sato", "--days", "7", "--pdf", pdf, "--ics", cal, "--paper", "letter")
	if code != 0 || !strings.HasPrefix(out, "Kenji Sato, ") || !strings.Contains(out, "→ "+pdf+", "+cal) {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if errOut != "" {
		t.Errorf("a sheet made says on stderr: %q", errOut)
	}
	raw, err := os.ReadFile(cal)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ics.ParseCalendar(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range parsed.Events() {
		if !strings.HasSuffix(e.Id(), "-visit@demo.workorderdesk") {
			t.Errorf("a demo visit's UID is %q", e.Id())
		}
	}
	if _, err := exec.LookPath("pdfinfo"); err == nil {
		info, _ := exec.Command("pdfinfo", pdf).Output()
		if !strings.Contains(string(info), "(letter)") {
			t.Errorf("--paper letter: pdfinfo says\n%s", info)
		}
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		text, _ := exec.Command("pdftotext", pdf, "-").Output()
		if !strings.Contains(string(text), "Kenji Sato") {
			t.Errorf("the sheet reads:\n%s", text)
		}
	}
	for _, bad := range [][]string{
		{"--pdf", pdf},
		{"--technician", "Kenji Sato"},
		{"--technician", "Kenji Sato", "--pdf", pdf, "--from", "1/12/2026"},
		{"--technician", "Kenji Sato", "--pdf", pdf, "--days", "0"},
		{"--technician", "Kenji Sato", "--pdf", pdf, "--paper", "A3"},
	} {
		if code, _, errOut := run(bad...); code != 2 || !strings.HasPrefix(errOut, "daysheet: ") {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
}

// TestDaySheetReadsTheWindowsReplica: with a live connection configured,
// or office mode in use, the command reads that replica, as the window
// does, and says so when it is not there yet (never the demo's instead).
func TestDaySheetReadsTheWindowsReplica(t *testing.T) {
	prefs := test.NewTempApp(t).Preferences()
	data := t.TempDir()
	prefs.SetString("live.base_url", "https://api.example.com/wo")
	prefs.SetString("live.token_url", "https://login.example.com/token")
	prefs.SetString("live.client_id", "acme")
	_, _, _, err := windowReplica(context.Background(), prefs, data)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(data, "api.example.com_wo.db")) {
		t.Errorf("live: %v", err)
	}
	prefs.SetString("office.hub_url", "https://hub.example.com")
	prefs.SetString("office.client_id", "ana")
	prefs.SetBool("office.in_use", true)
	_, _, _, err = windowReplica(context.Background(), prefs, data)
	if err == nil || !strings.Contains(err.Error(), "office_hub.example.com") || !strings.Contains(err.Error(), "ana") {
		t.Errorf("office: %v", err)
	}
}
