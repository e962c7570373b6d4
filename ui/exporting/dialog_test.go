package exporting

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/export/ooxmlcheck"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

// TestListExportHoldsWhatTheQueryLists: File › Export list…'s file holds
// exactly the rows the list's query lists, in its order (the list's page
// and held rows aside), in CSV and in Excel, each row's status and
// Assigned cell in the person's words, and the person is told how many
// went where.
func TestListExportHoldsWhatTheQueryLists(t *testing.T) {
	f := newFake(t)
	store := viewtest.GeneratedReplica(t, 40)
	q := storage.ListQuery{Statuses: []api.WorkOrderStatus{api.StatusAccepted}, Sort: storage.SortNumber, Desc: true, Limit: 3, Offset: 2}
	page := q
	page.Limit, page.Offset = 0, 0
	rows, err := store.List(t.Context(), page)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range rows {
		want = append(want, r.Number)
	}
	if len(want) < 4 {
		t.Fatalf("the query lists %d rows: the test would test little", len(want))
	}
	dir := t.TempDir()
	for _, form := range []export.Format{export.CSV, export.XLSX} {
		path := filepath.Join(dir, "list"+form.Ext())
		w, uri := fileWriter(t, path)
		f.e.Write(ListExport(f.Win, store, words{}, q, len(want)), w, uri, form)
		if got := said(f.Win); !strings.Contains(got, "Saved "+format.Count(len(want))+" work orders to "+path+".") {
			t.Errorf("%s: the window says %q", form, got)
		}
		dismiss(f.Win)
		var got [][]string
		if form == export.CSV {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(b), "\ufeff"))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			got = recs
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
			got, err = x.GetRows("Work orders")
			x.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		if got[0][0] != "Number" || got[0][3] != "Status" || got[0][8] != "Assigned" {
			t.Errorf("%s's header is %q", form, got[0])
		}
		var numbers []string
		for _, r := range got[1:] {
			numbers = append(numbers, r[0])
			if r[3] != "Accepted" || r[8] != "unknown" {
				t.Errorf("%s row %q: status and Assigned should read Accepted, unknown", form, r)
			}
		}
		if !slices.Equal(numbers, want) {
			t.Errorf("%s holds %v, the query lists %v", form, numbers, want)
		}
	}
}

// TestExportCancelLeavesNoFile: Cancel in the progress dialog stops the
// export, says nothing was saved, and leaves no file behind.
func TestExportCancelLeavesNoFile(t *testing.T) {
	f := newFake(t)
	for _, form := range []export.Format{export.CSV, export.XLSX} {
		path := filepath.Join(t.TempDir(), "list"+form.Ext())
		w, uri := fileWriter(t, path)
		tapped := false
		tb := export.Table{Sheet: "x", Columns: []export.Column{{Title: "n", Kind: export.Number}}, Len: 1_000_000,
			Rows: func(ctx context.Context, yield func([]any) error) error {
				for i := 0; ; i++ {
					if i == 3000 && !tapped {
						// The person taps Cancel while rows are written.
						tapped = true
						cancel := viewtest.Button(f.Win.Canvas().Overlays().Top(), "Cancel")
						if cancel == nil {
							t.Fatal("no Cancel while the export runs")
						}
						test.Tap(cancel)
					}
					if err := yield([]any{i}); err != nil {
						return err
					}
				}
			}}
		f.e.Write(Spec{win: f.Win, title: "Export list", noun: "work orders", table: tb}, w, uri, form)
		if !tapped {
			t.Fatal("the export never ran")
		}
		if got := said(f.Win); !strings.Contains(got, "Export cancelled: nothing was saved.") {
			t.Errorf("%s: the window says %q", form, got)
		}
		dismiss(f.Win)
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a cancelled export left %s (%v)", form, path, err)
		}
	}
}

// TestShowAsksExcelOrCSV: the export first says what it will write (how
// many rows, what narrows the list) and offers Excel, chosen, or CSV;
// with no row it says there is nothing to export and asks nothing.
func TestShowAsksExcelOrCSV(t *testing.T) {
	f := newFake(t)
	store := viewtest.GeneratedReplica(t, 3)
	q := storage.ListQuery{Search: " freezer ", Statuses: []api.WorkOrderStatus{api.StatusNew}, NeedsAttention: true}
	f.e.Show(ListExport(f.Win, store, words{}, q, 1200))
	got := said(f.Win)
	if want := `Exports the 1,200 work orders the list shows now (search "freezer", status New, needing attention), in its order.`; !strings.Contains(got, want) {
		t.Errorf("the dialog says %q, want %q", got, want)
	}
	var formats *widget.RadioGroup
	viewtest.Walk(f.Win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if r, ok := o.(*widget.RadioGroup); ok {
			formats = r
		}
	})
	if formats == nil || len(formats.Options) != 2 || !strings.HasPrefix(formats.Selected, "Excel workbook (.xlsx)") || !strings.HasPrefix(formats.Options[1], "CSV (.csv)") {
		t.Errorf("the format choice is %+v", formats)
	}
	if viewtest.Button(f.Win.Canvas().Overlays().Top(), "Choose where to save…") == nil {
		t.Errorf("no Choose where to save… in %q", got)
	}
	test.Tap(viewtest.Button(f.Win.Canvas().Overlays().Top(), "Cancel"))
	if got := said(f.Win); got != "" {
		t.Errorf("Cancel left %q", got)
	}

	f.e.Show(ListExport(f.Win, store, words{}, storage.ListQuery{}, 1))
	if got := said(f.Win); !strings.Contains(got, "Exports the 1 work order the list shows now, in its order.") {
		t.Errorf("one row's dialog says %q", got)
	}
	dismiss(f.Win)
	f.e.Show(ListExport(f.Win, store, words{}, q, 0))
	if got := said(f.Win); !strings.Contains(got, "The list shows no work orders: there is nothing to export.") || strings.Contains(got, "Choose where to save…") {
		t.Errorf("an empty list's export says %q", got)
	}
}

// TestReceivablesExportSpeaksInItsWindow: the receivables' export asks
// and answers in the receivables window, never the main one, names
// invoices and what the view's filters keep, and ends when that window
// or the main window goes away.
func TestReceivablesExportSpeaksInItsWindow(t *testing.T) {
	f := newFake(t)
	rw := test.NewTempWindow(t, widget.NewLabel("receivables"))
	rw.Resize(fyne.NewSize(900, 700))
	cols := []export.Column{{Title: "Invoice", Kind: export.Text}, {Title: "Amount", Kind: export.Money}}
	v := view{table: export.FromRows("Receivables", cols, [][]any{{"INV-1", api.MustMoney("10.00", "USD")}, {"INV-2", api.MustMoney("48000", "JPY")}}),
		narrowed: " (status Disputed)"}
	spec := ReceivablesExport(rw, v, make(chan struct{}))

	f.e.Show(spec)
	if got := said(rw); !strings.Contains(got, "Exports the 2 invoices the view shows now (status Disputed), in its order.") {
		t.Errorf("the receivables window says %q", got)
	}
	if got := said(f.Win); got != "" {
		t.Errorf("the main window says %q", got)
	}
	dismiss(rw)

	path := filepath.Join(t.TempDir(), "receivables.csv")
	w, uri := fileWriter(t, path)
	f.e.Write(spec, w, uri, export.CSV)
	if got := said(rw); !strings.Contains(got, "Saved 2 invoices to "+path+".") {
		t.Errorf("the receivables window says %q", got)
	}
	if got := said(f.Win); got != "" {
		t.Errorf("the export spoke in the main window: %q", got)
	}
	dismiss(rw)

	for _, c := range []struct {
		name  string
		close func(receivables chan struct{})
	}{
		{"the receivables window closed", func(receivables chan struct{}) { close(receivables) }},
		{"the main window closed", func(chan struct{}) { close(f.closed) }},
	} {
		path := filepath.Join(t.TempDir(), "receivables.xlsx")
		w, uri := fileWriter(t, path)
		endless := export.Table{Sheet: "x", Columns: cols[:1], Len: 1_000_000,
			Rows: func(ctx context.Context, yield func([]any) error) error {
				for {
					if err := yield([]any{"INV"}); err != nil {
						return err
					}
				}
			}}
		closed := make(chan struct{})
		s := ReceivablesExport(rw, view{table: endless}, closed)
		c.close(closed)
		f.e.Write(s, w, uri, export.XLSX)
		if got := said(rw); !strings.Contains(got, "Export cancelled: nothing was saved.") {
			t.Errorf("%s: the receivables window says %q", c.name, got)
		}
		dismiss(rw)
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the export left %s (%v)", c.name, path, err)
		}
	}
}

// failing is a replica whose reads fail, as a closing one does.
type failing struct{}

func (failing) EachRow(context.Context, storage.ListQuery, func(storage.Row) error) error {
	return errors.New("database is closed")
}

func (failing) AssigneesOf(context.Context, []int64) (map[int64]storage.Assignees, error) {
	return nil, errors.New("database is closed")
}

// TestListExportThatFailsSavesNothing: an export the replica could not
// finish says so in plain words, in the view's window, and leaves no file.
func TestListExportThatFailsSavesNothing(t *testing.T) {
	f := newFake(t)
	path := filepath.Join(t.TempDir(), "list.csv")
	w, uri := fileWriter(t, path)
	f.e.Write(ListExport(f.Win, failing{}, words{}, storage.ListQuery{}, 10), w, uri, export.CSV)
	if got := f.LastError(); got != "the work orders could not be exported, and nothing was saved: database is closed" {
		t.Errorf("the error told is %q", got)
	}
	if len(f.errorsIn) != 1 || f.errorsIn[0] != f.Win {
		t.Errorf("the error was told in %v, not the list's window", f.errorsIn)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed export left %s (%v)", path, err)
	}
}
