package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// utf8BOM starts the file so that Excel reads it as UTF-8 (names such as
// "Köln" or "¥"); without it Excel guesses the system's code page.
const utf8BOM = "\ufeff"

// Layouts of dates in a CSV file: ISO order, which every spreadsheet
// reads as a date whatever its locale.
const (
	csvDate     = "2006-01-02"
	csvDateTime = "2006-01-02 15:04"
)

// WriteCSV writes t to w as CSV: a header row, then one line per row.
// Money is a plain number with its currency's decimals (the table carries
// the currency in a column of its own), dates are local, and text that a
// spreadsheet could run as a formula is prefixed with a single quote.
func WriteCSV(ctx context.Context, w io.Writer, t Table, opts Options) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.WriteString(utf8BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true // RFC 4180, and what Excel writes
	rec := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		rec[i] = defuse(c.Title)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	loc := opts.loc()
	n := &counter{ctx: ctx, opts: opts}
	err := t.Rows(ctx, func(row []any) error {
		for i, c := range t.Columns {
			var v any
			if i < len(row) {
				v = row[i]
			}
			rec[i] = csvField(c.Kind, v, loc)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		return n.row()
	})
	if err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	n.done()
	return nil
}

func csvField(k Kind, v any, loc *time.Location) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return defuse(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case api.Money:
		return moneyText(v)
	case time.Time:
		if v.IsZero() {
			return ""
		}
		if k == Date {
			return v.In(loc).Format(csvDate)
		}
		return v.In(loc).Format(csvDateTime)
	default:
		return defuse(fmt.Sprint(v))
	}
}

// defuse makes text that a spreadsheet would run as a formula plain text,
// as OWASP advises for CSV: a leading single quote, which spreadsheets
// show as nothing and read as "this is text".
func defuse(s string) string {
	if needsDefusing(s) {
		return "'" + s
	}
	return s
}
