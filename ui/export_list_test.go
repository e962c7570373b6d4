package ui

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/export/ooxmlcheck"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/exporting"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/list"
)

// fileWriter is what the save dialog hands back for path.
func fileWriter(t *testing.T, path string) (fyne.URIWriteCloser, fyne.URI) {
	t.Helper()
	uri := fynestorage.NewFileURI(path)
	w, err := fynestorage.Writer(uri)
	if err != nil {
		t.Fatal(err)
	}
	return w, uri
}

// TestExportListHasTheFilteredRows: an export of the list searched,
// filtered and sorted holds exactly the rows the list shows, in its order,
// in CSV and in Excel, and the person is told how many went where.
func TestExportListHasTheFilteredRows(t *testing.T) {
	h := newHarness(t)
	all := len(h.rows())
	// Accepted work orders, by customer, Z first.
	h.statusFilter().SetSelectedIndex(slices.Index(api.AllStatuses, api.StatusAccepted) + 1)
	h.sortListBy("Customer", true)
	shown := h.rows()
	if len(shown) == 0 || len(shown) == all {
		t.Fatalf("the filter shows %d of %d work orders: the test would test nothing", len(shown), all)
	}
	var want []string
	for _, r := range shown {
		want = append(want, r.Number)
	}
	whom, err := h.store.AssigneesOf(t.Context(), list.RowIDs(shown))
	if err != nil {
		t.Fatal(err)
	}
	var wantWho []string
	for _, r := range shown {
		wantWho = append(wantWho, exporting.Assigned(listWords{}, whom[r.Id]))
	}
	if !slices.ContainsFunc(wantWho, func(s string) bool { return s != "" && s != "unknown" }) {
		t.Fatal("no work order shown is assigned to anyone: the Assigned column would test nothing")
	}
	dir := t.TempDir()
	for _, f := range []export.Format{export.CSV, export.XLSX} {
		path := filepath.Join(dir, "list"+f.Ext())
		w, uri := fileWriter(t, path)
		h.desk.exports.Write(listExport(h.desk), w, uri, f)
		h.flush()
		if got := h.overlayText(); !strings.Contains(got, "saved "+format.Count(len(shown))+" work orders to "+strings.ToLower(path)) {
			t.Errorf("%s: the window says %q", f, got)
		}
		h.dismissOverlays()
		var got, gotWho []string
		if f == export.CSV {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if recs[0][8] != "Assigned" {
				t.Errorf("CSV column 9 is %q, not Assigned", recs[0][8])
			}
			for _, r := range recs[1:] {
				if r[3] != "Accepted" {
					t.Errorf("CSV row %v is not Accepted", r)
				}
				got, gotWho = append(got, r[0]), append(gotWho, r[8])
			}
		} else {
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
			rows, err := x.GetRows("Work orders")
			x.Close()
			if err != nil {
				t.Fatal(err)
			}
			if rows[0][8] != "Assigned" {
				t.Errorf("column I is %q, not Assigned", rows[0][8])
			}
			for _, r := range rows[1:] {
				who := ""
				if len(r) > 8 {
					who = r[8]
				}
				got, gotWho = append(got, r[0]), append(gotWho, who)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %d rows %v…, the list shows %d %v…", f, len(got), got[:min(3, len(got))], len(want), want[:min(3, len(want))])
		}
		if !slices.Equal(gotWho, wantWho) {
			t.Errorf("%s's Assigned column is %q, want %q", f, gotWho, wantWho)
		}
	}
}

// TestExportListMenu: File › Export list… offers Excel and CSV for what
// the list shows, and says when it shows nothing.
func TestExportListMenu(t *testing.T) {
	h := newHarness(t)
	h.win.SetMainMenu(h.desk.mainMenu())
	h.desk.list.Search().SetText("Rheinland")
	h.flush()
	h.rows()
	h.menuItem("Export list…").Action()
	got := h.overlayText()
	for _, want := range []string{"exports the " + format.Count(h.desk.list.Len()) + " work orders the list shows now (search \"rheinland\")", "choose where to save…"} {
		if !strings.Contains(got, want) {
			t.Errorf("the dialog lacks %q: %q", want, got)
		}
	}
	var formats *widget.RadioGroup
	walk(h.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RadioGroup); ok {
			formats = r
		}
	})
	if formats == nil || len(formats.Options) != 2 || !strings.HasPrefix(formats.Selected, "Excel workbook (.xlsx)") || !strings.HasPrefix(formats.Options[1], "CSV (.csv)") {
		t.Errorf("the format choice is %+v", formats)
	}
	h.dismissOverlays()
	h.desk.list.Search().SetText("zzzz no such thing")
	h.flush()
	h.rows()
	h.menuItem("Export list…").Action()
	if got := h.overlayText(); !strings.Contains(got, "nothing to export") {
		t.Errorf("an empty list's export says %q", got)
	}
}

// TestTheExportSaysWhereRowsActedOnGo: while the list holds a row just
// acted on where it was, the export (in sort order) does not claim the
// list's order, and says where that row goes; before, and after moving
// on, it is the list's order. In the real window the dialog said "in its
// order" and the file's order was not the window's (issue 38's second
// tryout).
func TestTheExportSaysWhereRowsActedOnGo(t *testing.T) {
	h := newHarness(t)
	said := func() string {
		h.t.Helper()
		h.desk.exports.Show(listExport(h.desk))
		s := h.overlayText()
		h.dismissOverlays()
		return s
	}
	if s := said(); !strings.Contains(s, "the list shows now, in its order.") {
		t.Errorf("with nothing held the export says %q", s)
	}
	rows := h.rows()
	at := slices.IndexFunc(rows, func(r storage.Row) bool { return r.Status == api.StatusNew })
	if at < 0 || at+1 >= len(rows) {
		t.Fatal("the demo lists no new work order with one below it")
	}
	h.open(rows[at].Id)
	tapButton(h.desk.detail.accept)
	h.flush()
	if s := said(); strings.Contains(s, "in its order") || !strings.Contains(s, "in its sort order: the one you just acted on where the sort puts it, not where the list holds it now.") {
		t.Errorf("with %s held the export says %q", rows[at].Number, s)
	}
	h.open(rows[at+1].Id)
	if s := said(); !strings.Contains(s, "in its order.") {
		t.Errorf("after moving on the export says %q", s)
	}
}
