package realwindow

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/export/ooxmlcheck"
)

// TestRealWindowExportAndJobSheet: File › Export list… saves the list as
// filtered (Accepted only) to .xlsx through the save picker, says how many
// went where, and the file holds exactly those rows; then a work order's
// Job sheet… saves its PDF, which holds its number.
func TestRealWindowExportAndJobSheet(t *testing.T) {
	t.Parallel()
	h := home(t)
	a := startWith(t, newScreen(t, "1920x1200"), []string{"--window-size", "1280x800", "--data-dir", t.TempDir()}, "HOME="+h)
	a.step("export-start", "ready")

	a.dialog("export-status-filter", "tap ^All statuses")
	a.closes("export-accepted-only", `tap ^Accepted \(\d+\)$`)
	// The count follows the filter once the list's background read returns.
	shown := regexp.MustCompile(`(\d+) of \d+ work orders`).FindStringSubmatch(a.waitMatch("the list's count", "texts", `\d+ of \d+ work orders`, patience))
	if shown == nil {
		t.Fatal("the list does not say how many of its work orders it shows")
	}
	a.dialog("export-dialog", "menu File/Export list…")
	if texts := a.do("texts"); !strings.Contains(texts, "Exports the "+shown[1]+" work orders the list shows now (status Accepted)") {
		t.Fatalf("the export dialog says: %s", texts)
	}
	a.step("export-picker", "tap ^Choose where to save…$")
	a.step("export-saving", "tap ^Save$")
	done := a.waitUntil("the export's report", "texts", "Saved "+shown[1]+" work orders to ")
	a.shoot("export-saved")
	// The report names the file, wrapped over lines (texts joins them with " | ").
	files, _ := filepath.Glob(filepath.Join(h, "work-orders-*.xlsx"))
	if len(files) != 1 || !strings.Contains(strings.ReplaceAll(done, " | ", ""), files[0]) {
		t.Fatalf("the report names no file saved in %s (%v): %s", h, files, done)
	}
	if raw, err := os.ReadFile(files[0]); err == nil {
		for _, p := range ooxmlcheck.Check(raw) {
			t.Errorf("the saved workbook: %s", p)
		}
	}
	f, err := excelize.OpenFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Work orders")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(shown[1]); len(rows)-1 != n {
		t.Errorf("the file holds %d work orders, the list showed %d", len(rows)-1, n)
	}
	for _, r := range rows[1:] {
		if r[3] != "Accepted" {
			t.Errorf("a row that is not Accepted: %v", r)
		}
	}
	a.closes("export-report-closed", "key Escape")

	number := regexp.MustCompile(`\b[A-Z]{3}\d{5}\b`).FindString(a.do("texts *list.Table"))
	a.step("jobsheet-open-work-order", "tap ^"+number+"$")
	a.dialog("jobsheet-dialog", "tap ^Job sheet…$")
	a.step("jobsheet-picker", "tap ^Save as…$")
	a.step("jobsheet-saving", "tap ^Save$")
	a.waitUntil("the job sheet's Saved as", "texts", "Saved as "+number+" job sheet.pdf")
	a.shoot("jobsheet-saved")
	pdf := filepath.Join(h, number+" job sheet.pdf")
	if _, err := exec.LookPath("pdftotext"); err == nil {
		out, err := exec.Command("pdftotext", pdf, "-").Output()
		if err != nil || !strings.Contains(string(out), number) {
			t.Errorf("the saved job sheet does not hold %s (%v): %s", number, err, out)
		}
	} else if st, err := os.Stat(pdf); err != nil || st.Size() == 0 {
		t.Errorf("no job sheet at %s: %v", pdf, err)
	}
	if dir := os.Getenv("WORKDESK_JOBSHEET_PNG"); dir != "" {
		if out, err := exec.Command("pdftoppm", "-png", "-r", "80", pdf, filepath.Join(dir, "job-sheet-real-window")).CombinedOutput(); err != nil {
			t.Errorf("pdftoppm: %v: %s", err, out)
		}
	}
}
