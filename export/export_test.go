package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
)

var berlin = mustLoc("Europe/Berlin")

func mustLoc(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

var sample = export.FromRows("Work orders", []export.Column{
	{Title: "Number", Kind: export.Text},
	{Title: "Customer", Kind: export.Text},
	{Title: "NTE", Kind: export.Money},
	{Title: "Visits", Kind: export.Number},
	{Title: "Due", Kind: export.DateTime},
	{Title: "Submitted", Kind: export.Date},
}, [][]any{
	{"SMJ73264", "Sakura Hotels 桜", api.MustMoney("120000", "JPY"), 3,
		time.Date(2026, 11, 21, 13, 30, 0, 0, time.UTC), time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC)},
	{"=cmd|' /C calc'!A0", "+SUM(1,2)", api.MustMoney("1250.5", "USD"), 0, time.Time{}, nil},
	{"-2+3", "@attacker", api.MustMoney("-980", "EUR"), nil, nil, nil},
	{"\tTAB", "\rCR", api.MustMoney("15.25", "GBP"), int64(7), nil, nil},
})

func TestCSVReadsBack(t *testing.T) {
	var buf bytes.Buffer
	if err := export.WriteCSV(context.Background(), &buf, sample, export.Options{Location: berlin}); err != nil {
		t.Fatal(err)
	}
	body, ok := strings.CutPrefix(buf.String(), "\ufeff")
	if !ok {
		t.Fatal("no UTF-8 byte order mark: Excel would misread Köln and ¥")
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Number", "Customer", "NTE", "Visits", "Due", "Submitted"},
		{"SMJ73264", "Sakura Hotels 桜", "120000", "3", "2026-11-21 14:30", "2026-11-21"},
		{"'=cmd|' /C calc'!A0", "'+SUM(1,2)", "1250.50", "0", "", ""},
		{"'-2+3", "'@attacker", "-980.00", "", "", ""},
		// encoding/csv writing CRLF lines drops a lone CR; the quote stays.
		{"'\tTAB", "'CR", "15.25", "7", "", ""},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d: %q", len(recs), len(want), recs)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, recs[i], want[i])
		}
	}
}

func TestXLSXReadsBackTyped(t *testing.T) {
	var buf bytes.Buffer
	if err := export.WriteXLSX(context.Background(), &buf, sample, export.Options{Location: berlin}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const sh = "Work orders"
	if got := f.GetSheetList(); len(got) != 1 || got[0] != sh {
		t.Fatalf("sheets %q", got)
	}
	// A cell's type, raw value and number format, as a spreadsheet reads it.
	type want struct {
		cell   string
		typ    excelize.CellType
		raw    string
		format string // "" = not checked
		shown  string // "" = not checked
	}
	for _, w := range []want{
		{cell: "A1", typ: excelize.CellTypeInlineString, raw: "Number"},
		{cell: "B2", typ: excelize.CellTypeInlineString, raw: "Sakura Hotels 桜"},
		{cell: "C2", typ: excelize.CellTypeUnset, raw: "120000", format: `"¥"#,##0`, shown: "¥120,000"},
		{cell: "C3", typ: excelize.CellTypeUnset, raw: "1250.5", format: `"$"#,##0.00`, shown: "$1,250.50"},
		{cell: "C4", typ: excelize.CellTypeUnset, raw: "-980", format: `"€"#,##0.00`, shown: "-€980.00"},
		{cell: "C5", typ: excelize.CellTypeUnset, raw: "15.25", format: `"£"#,##0.00`},
		{cell: "D2", typ: excelize.CellTypeUnset, raw: "3"},
		// 14:30 in Berlin: dates are written as the window shows them.
		{cell: "E2", typ: excelize.CellTypeUnset, raw: "46347.604166666664", format: "yyyy-mm-dd hh:mm", shown: "2026-11-21 14:30"},
		{cell: "F2", typ: excelize.CellTypeUnset, format: "yyyy-mm-dd", shown: "2026-11-21"},
		{cell: "E3", typ: excelize.CellTypeUnset, raw: ""},
		// Text that spreadsheets would run is a string cell, no formula.
		{cell: "A3", typ: excelize.CellTypeInlineString, raw: "=cmd|' /C calc'!A0"},
		{cell: "B3", typ: excelize.CellTypeInlineString, raw: "+SUM(1,2)"},
		{cell: "A4", typ: excelize.CellTypeInlineString, raw: "-2+3"},
		{cell: "B4", typ: excelize.CellTypeInlineString, raw: "@attacker"},
	} {
		typ, err := f.GetCellType(sh, w.cell)
		if err != nil {
			t.Fatal(err)
		}
		if typ != w.typ {
			t.Errorf("%s: type %v, want %v", w.cell, typ, w.typ)
		}
		if w.raw != "" || w.typ == excelize.CellTypeUnset {
			raw, _ := f.GetCellValue(sh, w.cell, excelize.Options{RawCellValue: true})
			if w.raw != "" && raw != w.raw {
				t.Errorf("%s: raw %q, want %q", w.cell, raw, w.raw)
			}
		}
		if formula, _ := f.GetCellFormula(sh, w.cell); formula != "" {
			t.Errorf("%s: holds the formula %q", w.cell, formula)
		}
		if w.format != "" {
			id, _ := f.GetCellStyle(sh, w.cell)
			st, err := f.GetStyle(id)
			if err != nil {
				t.Fatal(err)
			}
			if st.CustomNumFmt == nil || *st.CustomNumFmt != w.format {
				t.Errorf("%s: number format %v, want %q", w.cell, st.CustomNumFmt, w.format)
			}
		}
		if w.shown != "" {
			if got, _ := f.GetCellValue(sh, w.cell); got != w.shown {
				t.Errorf("%s shows %q, want %q", w.cell, got, w.shown)
			}
		}
	}
	// Numbers are numbers: a spreadsheet sums them.
	if err := f.SetCellFormula(sh, "H1", "SUM(D2:D5)"); err != nil {
		t.Fatal(err)
	}
	if got, err := f.CalcCellValue(sh, "H1"); err != nil || got != "10" {
		t.Errorf("SUM of the visits = %q, %v; want 10", got, err)
	}
	if got, err := f.CalcCellValue(sh, "A3"); err != nil || got != "=cmd|' /C calc'!A0" {
		t.Errorf("the injected cell calculates to %q, %v", got, err)
	}
}

func TestWriteFileRemovesWhatItCouldNotFinish(t *testing.T) {
	for _, f := range []export.Format{export.CSV, export.XLSX} {
		t.Run(f.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "list"+f.Ext())
			ctx, cancel := context.WithCancel(context.Background())
			// Cancel once rows are being written, as the Cancel button does.
			err := export.WriteFile(ctx, path, f, endless(), export.Options{Progress: func(done int) {
				if done >= 2000 {
					cancel()
				}
			}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a cancelled export left %s (%v)", path, err)
			}
			// An error from the rows does the same.
			broken := errors.New("the replica went away")
			tb := endless()
			tb.Rows = func(ctx context.Context, yield func([]any) error) error { return broken }
			if err := export.WriteFile(context.Background(), path, f, tb, export.Options{}); !errors.Is(err, broken) {
				t.Fatalf("err = %v", err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed export left %s (%v)", path, err)
			}
		})
	}
}

// endless yields rows until told to stop.
func endless() export.Table {
	return export.Table{Sheet: "x", Columns: []export.Column{{Title: "n", Kind: export.Number}},
		Rows: func(ctx context.Context, yield func([]any) error) error {
			row := []any{0}
			for i := 0; ; i++ {
				row[0] = i
				if err := yield(row); err != nil {
					return err
				}
			}
		}}
}

func TestMoneyFormat(t *testing.T) {
	for cur, want := range map[string]string{
		"USD": `"$"#,##0.00`, "JPY": `"¥"#,##0`, "EUR": `"€"#,##0.00`, "BHD": `"BHD "#,##0.000`, "": "#,##0.00",
	} {
		if got := export.MoneyFormat(cur); got != want {
			t.Errorf("MoneyFormat(%q) = %s, want %s", cur, got, want)
		}
	}
}
