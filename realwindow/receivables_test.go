package realwindow

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRealWindowReceivables opens View › Receivables in the demo, in light
// and in dark: the invoices of finished work arrive after the first sync,
// in their own window, with a total per currency, the aging charts and the
// SLA chart; the status filter keeps the disputed ones. With
// WORKDESK_RECEIVABLES_SHOTS set (make receivables-shot: docs/notes), the
// window at 1280x800 is kept there as receivables-light.png and
// receivables-dark.png.
func TestRealWindowReceivablesLight(t *testing.T) { t.Parallel(); receivablesIn(t, "light") }
func TestRealWindowReceivablesDark(t *testing.T)  { t.Parallel(); receivablesIn(t, "dark") }

func receivablesIn(t *testing.T, look string) {
	{
		{
			config := t.TempDir()
			prefs := filepath.Join(config, "fyne", "com.workorderdesk.workdesk")
			if err := os.MkdirAll(prefs, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(prefs, "preferences.json"), []byte(`{"view.appearance":"`+look+`"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			a := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()}, "XDG_CONFIG_HOME="+config)
			a.step("start", "ready")
			a.step("receivables-"+look, "menu View/Receivables")
			// The invoices of finished work come in the background after
			// the first sync: wait for a total in each of the demo's
			// currencies and the 90+ bucket's money.
			var texts string
			for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
				texts = a.do("receivables texts")
				all := true
				for _, want := range []string{"EUR  €", "GBP  £", "JPY  ¥", "USD  $", "Outstanding in USD by customer and age", "SLA kept and missed"} {
					all = all && strings.Contains(texts, want)
				}
				if all {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the receivables of every currency did not show: %s", texts)
				}
			}
			for _, want := range []string{"Disputed", "Paid", "90+ days", "of ", "Age (days)"} {
				if !strings.Contains(texts, want) {
					t.Errorf("the receivables window does not say %q: %s", want, texts)
				}
			}
			a.shoot("receivables-" + look)
			if dir := os.Getenv("WORKDESK_RECEIVABLES_SHOTS"); dir != "" {
				keepAs(a, filepath.Join(dir, "receivables-"+look+".png"))
			}
			a.step("receivables-status-filter-"+look, "receivables tap ^All statuses$")
			a.step("receivables-disputed-"+look, "receivables tap ^Disputed$")
			texts = a.waitMatch("only the disputed invoices", "receivables texts", `\d+ invoices?\b`, 10*time.Second)
			if strings.Contains(texts, "| Paid | INV-") || strings.Contains(texts, "| Submitted | INV-") || !strings.Contains(texts, "| Disputed | INV-") {
				t.Errorf("the Disputed filter shows: %s", texts)
			}
		}
	}
}

// keepAs saves the screen's top-left 1280x800, where the newest window
// opens, to path.
func keepAs(a *app, path string) {
	a.t.Helper()
	cmd := exec.Command("import", "-window", "root", "-crop", "1280x800+0+0", "+repage", "-strip", path)
	cmd.Env = append(os.Environ(), "DISPLAY="+a.screen.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		a.t.Fatalf("keeping the screenshot: %v: %s", err, out)
	}
}
