package exporting

import (
	"context"

	"fmt"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Words of an exported list besides its column titles, in one place.
const (
	exportSheetWorkOrders = "Work orders"
	exportNoLimit         = "No limit"
	exportYes             = "Yes"
)

// listExportColumns are the columns of an exported list: what the list shows,
// typed, and the deadline's name beside its date.
var listExportColumns = []export.Column{
	{Title: "Number", Kind: export.Text, Width: 12},
	{Title: "Customer", Kind: export.Text, Width: 24},
	{Title: "Site", Kind: export.Text, Width: 28},
	{Title: "Status", Kind: export.Text, Width: 12},
	{Title: "NTE", Kind: export.Money},
	{Title: "Currency", Kind: export.Text, Width: 9},
	{Title: "Quote", Kind: export.Text, Width: 11},
	{Title: "Scheduled", Kind: export.DateTime},
	{Title: "Assigned", Kind: export.Text, Width: 24},
	{Title: "Next deadline", Kind: export.Text, Width: 15},
	{Title: "Deadline at", Kind: export.DateTime},
	{Title: "Needs attention", Kind: export.Text, Width: 15},
}

// listTable is the list of query q as a table to export: every row the
// list shows for it, in its order, read from the replica one at a time,
// with who each is assigned to (read a batch of rows at a time), in the
// list's words. n is how many the list counted, for the progress bar.
func listTable(store Replica, words ListWords, q storage.ListQuery, n int) export.Table {
	return export.Table{Sheet: exportSheetWorkOrders, Columns: listExportColumns, Len: n,
		Rows: func(ctx context.Context, yield func([]any) error) error {
			row := make([]any, len(listExportColumns))
			batch := make([]storage.Row, 0, assignedBatch)
			flush := func() error {
				who, err := store.AssigneesOf(ctx, rowIDs(batch))
				if err != nil {
					return err
				}
				for _, r := range batch {
					if err := yield(listExportRow(row, r, Assigned(words, who[r.Id]))); err != nil {
						return err
					}
				}
				batch = batch[:0]
				return nil
			}
			err := store.EachRow(ctx, q, func(r storage.Row) error {
				if batch = append(batch, r); len(batch) == assignedBatch {
					return flush()
				}
				return nil
			})
			if err != nil {
				return err
			}
			return flush()
		}}
}

// assignedBatch is how many rows' assignees an export reads at once.
const assignedBatch = 500

// rowIDs are the ids of rows.
func rowIDs(rows []storage.Row) []int64 {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.Id
	}
	return ids
}

// listExportRow fills row with r's cells, assigned is its Assigned cell.
func listExportRow(row []any, r storage.Row, assigned string) []any {
	row[0], row[1], row[2] = r.Number, r.Customer, r.Site
	row[3] = format.Status(r.Status)
	// An NTE of 0 is no limit, not an amount: a sum over the column must
	// not take it for one.
	row[4], row[5] = exportNoLimit, ""
	if !r.Nte.IsZero() {
		row[4], row[5] = r.Nte, r.Nte.Currency
	}
	row[6] = nil
	if r.QuoteStatus != "" {
		row[6] = format.Status(r.QuoteStatus)
	}
	row[7], row[8] = r.ScheduledStart, assigned
	row[9], row[10] = r.NextDeadlineLabel, r.NextDeadline
	row[11] = ""
	if r.Attention {
		row[11] = exportYes
	}
	return row
}

// Assigned is the Assigned cell of an export: every name in full (a
// spreadsheet has the room the list has not), empty for nobody, and
// "unknown" where the service did not say, as the list (words) shows it.
func Assigned(words ListWords, a storage.Assignees) string {
	if !a.Known {
		return words.AssignedText(a)
	}
	var names []string
	for _, p := range a.Who {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ") + words.Partly(a)
}

// ListExport is File › Export list…'s export, shown over win: the list of
// query q (n rows, as the list counted them) as it is searched, filtered
// and sorted now, to CSV or Excel, read from store and written in the
// list's words.
func ListExport(win fyne.Window, store Replica, words ListWords, q storage.ListQuery, n int) Spec {
	q.Limit, q.Offset = 0, 0
	held := len(q.Held)
	q.Held = nil // in the export, in their sorted places (still listed: q.Keep)
	s := Spec{win: win, title: "Export list", noun: "work orders", one: "work order", file: "work-orders",
		empty: "The list shows no work orders: there is nothing to export. Clear the search or the filters first.",
		table: listTable(store, words, q, n)}
	// The rows just acted on stay where they were in the window only until
	// the person moves on; the file has them where the sort puts them, and
	// says so: it said "in its order" while its order was not the
	// window's (issue 38's second tryout).
	order := "in its order"
	switch {
	case held == 1:
		order = "in its sort order: the one you just acted on where the sort puts it, not where the list holds it now"
	case held > 1:
		order = fmt.Sprintf("in its sort order: the %d you just acted on where the sort puts them, not where the list holds them now", held)
	}
	s.what = fmt.Sprintf("Exports the %s the list shows now%s, %s.", s.rows(n), listDescription(q), order)
	return s
}

// listDescription says what narrows the list: " (search "main", status
// Accepted, needing attention)"; "" when nothing does.
func listDescription(q storage.ListQuery) string {
	var parts []string
	if s := strings.TrimSpace(q.Search); s != "" {
		parts = append(parts, fmt.Sprintf("search %q", s))
	}
	for _, st := range q.Statuses {
		parts = append(parts, "status "+format.Status(st))
	}
	if q.NeedsAttention {
		parts = append(parts, "needing attention")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
