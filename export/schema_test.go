package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/export/ooxmlcheck"
)

// TestXLSXFollowsTheSchemaOrder: the workbook's parts are in the order
// the OOXML schema gives, its <col> width entries ascending (they were
// written descending, min="11" first, which spreadsheet programs may
// offer to "repair"); and the check does find descending entries.
func TestXLSXFollowsTheSchemaOrder(t *testing.T) {
	for _, tb := range []export.Table{sample, wide()} {
		var buf bytes.Buffer
		if err := export.WriteXLSX(context.Background(), &buf, tb, export.Options{Location: berlin}); err != nil {
			t.Fatal(err)
		}
		for _, p := range ooxmlcheck.Check(buf.Bytes()) {
			t.Errorf("%s: %s", tb.Sheet, p)
		}
	}

	// What excelize's stream writer makes of widths given first to last.
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		sw.SetColWidth(i, i, 10)
	}
	sw.SetRow("A1", []any{"a", "b", "c"})
	sw.Flush()
	var bad bytes.Buffer
	f.Write(&bad)
	if p := ooxmlcheck.Check(bad.Bytes()); len(p) == 0 || !strings.Contains(strings.Join(p, "\n"), "not ascending") {
		t.Errorf("descending <col> entries pass the check: %v", p)
	}
}

// wide is a table of more than 26 columns (AA and on), every kind.
func wide() export.Table {
	var cols []export.Column
	row := []any{}
	for i := range 30 {
		cols = append(cols, export.Column{Title: "c" + string(rune('A'+i%26)), Kind: export.Text, Width: float64(8 + i%5)})
		row = append(row, "v")
	}
	return export.FromRows("Wide", cols, [][]any{row, row})
}

// TestLibreOfficeOpensTheWorkbook: LibreOffice (headless, a Debian
// package) opens the exported workbook and reads back its cells as
// written: names in every script, money with its decimals, dates.
func TestLibreOfficeOpensTheWorkbook(t *testing.T) {
	t.Parallel() // LibreOffice's first start takes seconds
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "list.xlsx")
	if err := export.WriteFile(context.Background(), path, export.XLSX, sample, export.Options{Location: berlin}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless", "--norestore",
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76", "--outdir", dir, path)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "list.csv"))
	if err != nil {
		t.Fatalf("LibreOffice wrote no CSV: %v", err)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Fatalf("LibreOffice reads %d rows: %q", len(recs), recs)
	}
	for cell, want := range map[[2]int]string{
		{0, 0}: "Number", {1, 1}: "Sakura Hotels 桜", {1, 2}: "¥120,000", {2, 2}: "$1,250.50",
		{1, 4}: "2026-11-21 14:30", {1, 5}: "2026-11-21", {2, 0}: "=cmd|' /C calc'!A0",
	} {
		if got := recs[cell[0]][cell[1]]; got != want {
			t.Errorf("LibreOffice reads row %d column %d as %q, want %q", cell[0], cell[1], got, want)
		}
	}
}
