package ui

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/export/ooxmlcheck"
	"github.com/workorderdesk/workdesk/ui/format"
)

// TestExportReceivablesFiltered: the receivables window's Export… offers
// what the view shows as filtered (Disputed only), and the file, in Excel
// and in CSV, holds exactly those invoices in the view's order, typed:
// each amount a number in its own currency's format though the rows mix
// currencies, dates as dates, ages as numbers, and no total summed across
// currencies.
func TestExportReceivablesFiltered(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if _, err := h.eng.Syncer.FetchInvoices(ctx); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.menuItem("Receivables").Action()
	h.flush()
	w, v := h.desk.Receivables()
	if w == nil {
		t.Fatal("no receivables window")
	}
	t.Cleanup(w.Close)
	h.waitFor("the invoices", func() bool { _, rows := v.Table(); return len(rows) > 0 })

	// Dispute an invoice in a currency no disputed one is in, so that the
	// filtered rows mix currencies.
	_, rows := v.Table()
	disputedIn := map[any]bool{}
	for _, r := range rows {
		if r[2] == "Disputed" {
			disputedIn[r[5]] = true
		}
	}
	ids := map[string]int64{}
	for _, r := range h.rows() {
		ids[r.Number] = r.Id
	}
	for _, r := range rows {
		if (r[2] == "Submitted" || r[2] == "Authorized") && !disputedIn[r[5]] {
			if err := h.sb.SetInvoiceStatus(ids[r[0].(string)], api.InvoiceDisputed, ""); err != nil {
				t.Fatal(err)
			}
			disputedIn[r[5]] = true
			h.waitFor("the dispute in the view", func() bool {
				_, rows := v.Table()
				for _, x := range rows {
					if x[0] == r[0] {
						return x[2] == "Disputed"
					}
				}
				return false
			})
			break
		}
	}
	if len(disputedIn) < 2 {
		t.Fatalf("disputed invoices in %v: the test would not mix currencies", disputedIn)
	}

	var status *widget.Select
	walk(w.Content(), func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok && s.Selected == "All statuses" {
			status = s
		}
	})
	if status == nil {
		t.Fatal("no status filter")
	}
	status.SetSelected("Disputed")
	h.waitFor("only the disputed", func() bool {
		_, rows := v.Table()
		for _, r := range rows {
			if r[2] != "Disputed" {
				return false
			}
		}
		return len(rows) > 0
	})
	_, want := v.Table()
	if len(want) >= len(rows) {
		t.Fatalf("the filter keeps %d of %d invoices: the test would test nothing", len(want), len(rows))
	}

	test.Tap(buttonIn(t, w.Content(), "Export…"))
	said := strings.Join(texts(w.Canvas().Overlays().Top()), " ")
	if !strings.Contains(said, "Exports the "+format.Count(len(want))+" invoices the view shows now (status Disputed)") {
		t.Errorf("the export dialog says %q", said)
	}
	w.Canvas().Overlays().Top().Hide()

	dir := t.TempDir()
	spec := receivablesExport(h.desk.recvWin)
	for _, f := range []export.Format{export.XLSX, export.CSV} {
		path := filepath.Join(dir, "receivables"+f.Ext())
		fw, uri := fileWriter(t, path)
		h.desk.exports.Write(spec, fw, uri, f)
		h.flush()
		said := strings.Join(texts(w.Canvas().Overlays().Top()), " ")
		if !strings.Contains(said, "Saved "+format.Count(len(want))+" invoices to "+path) {
			t.Errorf("%s: the receivables window says %q", f, said)
		}
		if h.win.Canvas().Overlays().Top() != nil {
			t.Errorf("%s: the export spoke in the main window: %q", f, h.overlayText())
		}
		w.Canvas().Overlays().Top().Hide()
		if f == export.XLSX {
			checkReceivablesXLSX(t, path, want)
		} else {
			checkReceivablesCSV(t, path, want)
		}
	}
}

func checkReceivablesXLSX(t *testing.T, path string, want [][]any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ooxmlcheck.Check(raw) {
		t.Errorf("the workbook: %s", p)
	}
	x, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	const sh = "Receivables"
	got, err := x.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want)+1 {
		t.Fatalf("the workbook holds %d rows, the view %d invoices (a totals row adds across currencies): %q", len(got)-1, len(want), got)
	}
	if !slices.Equal(got[0][:6], []string{"Work order", "Customer", "Status", "Invoice", "Amount", "Currency"}) {
		t.Errorf("header %q", got[0])
	}
	for i, r := range want {
		row := i + 2
		cell := func(col int) string {
			name, _ := excelize.CoordinatesToCellName(col+1, row)
			return name
		}
		if s, _ := x.GetCellValue(sh, cell(0)); s != r[0] {
			t.Errorf("row %d is %q, the view's %q", row, s, r[0])
		}
		if s, _ := x.GetCellValue(sh, cell(2)); s != "Disputed" {
			t.Errorf("row %d is %q", row, s)
		}
		// The amount: a number, in its own currency's format.
		m := r[4].(api.Money)
		raw, _ := x.GetCellValue(sh, cell(4), excelize.Options{RawCellValue: true})
		if raw != m.Amount.String() {
			t.Errorf("row %d's amount is %q, want %s", row, raw, m.Amount)
		}
		if typ, _ := x.GetCellType(sh, cell(4)); typ != excelize.CellTypeUnset {
			t.Errorf("row %d's amount is a %v cell, not a number", row, typ)
		}
		id, _ := x.GetCellStyle(sh, cell(4))
		st, err := x.GetStyle(id)
		if err != nil {
			t.Fatal(err)
		}
		if st.CustomNumFmt == nil || *st.CustomNumFmt != export.MoneyFormat(m.Currency) {
			t.Errorf("row %d (%s): number format %v, want %s", row, m.Currency, st.CustomNumFmt, export.MoneyFormat(m.Currency))
		}
		if s, _ := x.GetCellValue(sh, cell(5)); s != m.Currency {
			t.Errorf("row %d's currency is %q, want %s", row, s, m.Currency)
		}
		// The submitted date, a date cell showing the view's day.
		if sub, ok := r[6].(time.Time); ok {
			id, _ := x.GetCellStyle(sh, cell(6))
			st, _ := x.GetStyle(id)
			if st.CustomNumFmt == nil || *st.CustomNumFmt != "yyyy-mm-dd" {
				t.Errorf("row %d's submitted date has format %v", row, st.CustomNumFmt)
			}
			if s, _ := x.GetCellValue(sh, cell(6)); s != sub.Local().Format("2006-01-02") {
				t.Errorf("row %d was submitted %q, the view says %s", row, s, sub.Local().Format("2006-01-02"))
			}
		}
		// The age, a number.
		if age, ok := r[7].(int); ok {
			raw, _ := x.GetCellValue(sh, cell(7), excelize.Options{RawCellValue: true})
			typ, _ := x.GetCellType(sh, cell(7))
			if raw != strconv.Itoa(age) || typ != excelize.CellTypeUnset {
				t.Errorf("row %d's age is %q (%v), want the number %d", row, raw, typ, age)
			}
		}
	}
}

func checkReceivablesCSV(t *testing.T, path string, want [][]any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(want)+1 {
		t.Fatalf("the CSV holds %d rows, the view %d invoices", len(recs)-1, len(want))
	}
	for i, r := range want {
		got := recs[i+1]
		m := r[4].(api.Money)
		if got[0] != r[0] || got[2] != "Disputed" || got[4] != m.Amount.StringFixed(int32(api.MinorUnits(m.Currency))) || got[5] != m.Currency {
			t.Errorf("CSV row %d is %q, the view's %v", i+1, got, r)
		}
	}
}
