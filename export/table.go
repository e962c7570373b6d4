// Package export writes a table of typed cells to CSV and to Excel (.xlsx):
// the work order list as it is filtered, the receivables view, whatever
// hands it a Table. It knows api's types (money with its currency) and
// nothing of storage or the window, so any view can export through it.
package export

import (
	"context"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// Kind is what a column holds, which decides how its cells are written.
type Kind int

const (
	Text     Kind = iota // string
	Number               // int or int64
	Money                // api.Money: a number in its currency's format
	Date                 // time.Time: the local day
	DateTime             // time.Time: the local day and time of day
)

// Column is one column of a Table.
type Column struct {
	Title string
	Kind  Kind
	Width float64 // in characters; 0 = a width for its kind
}

// Table is what is exported. Each row holds one value per column, of the
// column's kind (string, int, api.Money, time.Time), or nil for an empty
// cell; a zero time is empty too. A Text column may hold any value: it is
// written as text.
type Table struct {
	Sheet   string // the .xlsx sheet's name: "Work orders"
	Columns []Column
	// Len is how many rows Rows yields, for the progress a person sees;
	// 0 when not known.
	Len int
	// Rows calls yield with every row in order and stops at the first
	// error yield returns, which it returns. yield may keep no row: the
	// caller can reuse the slice.
	Rows func(ctx context.Context, yield func(row []any) error) error
}

// FromRows is a Table of rows held in memory (a view that has them
// already, such as the receivables view).
func FromRows(sheet string, cols []Column, rows [][]any) Table {
	return Table{Sheet: sheet, Columns: cols, Len: len(rows),
		Rows: func(ctx context.Context, yield func([]any) error) error {
			for _, r := range rows {
				if err := yield(r); err != nil {
					return err
				}
			}
			return nil
		}}
}

// Format is a file format a Table is written in.
type Format int

const (
	CSV Format = iota
	XLSX
)

// Ext is the file name extension of f, with its dot.
func (f Format) Ext() string {
	if f == XLSX {
		return ".xlsx"
	}
	return ".csv"
}

func (f Format) String() string {
	if f == XLSX {
		return "Excel"
	}
	return "CSV"
}

// Options are what a writer needs besides the table.
type Options struct {
	// Location is the time zone dates are written in, as the window shows
	// them; nil = time.Local. Spreadsheets keep no zone with a date.
	Location *time.Location
	// Progress, when set, is called with how many rows are written, every
	// few hundred rows and once at the end, on the writing goroutine.
	Progress func(done int)
}

func (o Options) loc() *time.Location {
	if o.Location == nil {
		return time.Local
	}
	return o.Location
}

// progressEvery is how many rows pass between Progress calls and checks
// of the context: often enough for a bar to move and Cancel to be felt
// at once, seldom enough to cost nothing.
const progressEvery = 500

// counter calls Progress and checks ctx every progressEvery rows.
type counter struct {
	ctx  context.Context
	opts Options
	n    int
}

func (c *counter) row() error {
	c.n++
	if c.n%progressEvery != 0 {
		return nil
	}
	if c.opts.Progress != nil {
		c.opts.Progress(c.n)
	}
	return c.ctx.Err()
}

func (c *counter) done() {
	if c.opts.Progress != nil {
		c.opts.Progress(c.n)
	}
}

// needsDefusing reports whether a spreadsheet could take s for a formula:
// OWASP's list of leading characters (CSV injection), tab and carriage
// return included, since some programs strip them and read what follows.
func needsDefusing(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// moneyText is the amount with exactly its currency's decimals, no symbol
// and no grouping: what a spreadsheet reads as a number.
func moneyText(m api.Money) string {
	return m.Amount.StringFixed(int32(api.MinorUnits(m.Currency)))
}
