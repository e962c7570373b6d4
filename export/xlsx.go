package export

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/workorderdesk/workdesk/api"
)

// Number formats of date cells: ISO order, unambiguous in any office.
const (
	xlsxDate     = "yyyy-mm-dd"
	xlsxDateTime = "yyyy-mm-dd hh:mm"
)

// WriteXLSX writes t to w as an Excel workbook of one sheet, through
// excelize's StreamWriter, which keeps rows on disk rather than in memory
// past a few megabytes: 100,000 rows cost little more than 1,000. Cells
// are typed: money is a number in its currency's format ("$"#,##0.00,
// "¥"#,##0), dates are dates, and text is always a string cell, never a
// formula, whatever it starts with.
func WriteXLSX(ctx context.Context, w io.Writer, t Table, opts Options) error {
	f := excelize.NewFile()
	defer f.Close() // removes the stream's temporary file
	sheet := sheetName(t.Sheet)
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	st, err := newStyles(f)
	if err != nil {
		return err
	}
	// Last column first: excelize puts each width it is given before the
	// ones it has, and spreadsheet programs expect the <col> entries
	// ascending (Excel offers to "repair" a file whose are not).
	for i := len(t.Columns) - 1; i >= 0; i-- {
		if err := sw.SetColWidth(i+1, i+1, columnWidth(t.Columns[i])); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	row := make([]any, len(t.Columns))
	for i, c := range t.Columns {
		row[i] = excelize.Cell{StyleID: st.header, Value: c.Title}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return err
	}
	loc := opts.loc()
	n := &counter{ctx: ctx, opts: opts}
	err = t.Rows(ctx, func(values []any) error {
		for i, c := range t.Columns {
			var v any
			if i < len(values) {
				v = values[i]
			}
			cell, err := st.cell(c.Kind, v, loc)
			if err != nil {
				return err
			}
			row[i] = cell
		}
		ref, err := excelize.CoordinatesToCellName(1, n.n+2)
		if err != nil {
			return err
		}
		if err := sw.SetRow(ref, row); err != nil {
			return err
		}
		return n.row()
	})
	if err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := f.Write(w); err != nil {
		return err
	}
	n.done()
	return nil
}

// styles are the workbook's cell styles, made once each.
type styles struct {
	f                    *excelize.File
	header, date, dateTm int
	money                map[string]int // currency → its number format
}

func newStyles(f *excelize.File) (*styles, error) {
	s := &styles{f: f, money: map[string]int{}}
	var err error
	if s.header, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return nil, err
	}
	if s.date, err = f.NewStyle(&excelize.Style{CustomNumFmt: ptr(xlsxDate)}); err != nil {
		return nil, err
	}
	if s.dateTm, err = f.NewStyle(&excelize.Style{CustomNumFmt: ptr(xlsxDateTime)}); err != nil {
		return nil, err
	}
	return s, nil
}

func ptr[T any](v T) *T { return &v }

// cell is v as the stream writer takes it, typed and styled.
func (s *styles) cell(k Kind, v any, loc *time.Location) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		// The stream writer writes a string as an inline string cell,
		// which no spreadsheet evaluates: "=cmd" stays text.
		return v, nil
	case int, int64:
		return v, nil
	case api.Money:
		id, err := s.moneyStyle(v.Currency)
		if err != nil {
			return nil, err
		}
		// The last step only: the cell holds a double, rounded to the
		// currency's decimals so that it shows what the replica holds.
		return excelize.Cell{StyleID: id, Value: v.Round().Amount.InexactFloat64()}, nil
	case time.Time:
		if v.IsZero() {
			return nil, nil
		}
		id := s.dateTm
		if k == Date {
			id = s.date
		}
		// excelize writes the wall clock of the time's own zone.
		return excelize.Cell{StyleID: id, Value: v.In(loc)}, nil
	default:
		return fmt.Sprint(v), nil
	}
}

// moneyStyle is the style of amounts in currency: its symbol and exactly
// its decimals, "$"#,##0.00 or "¥"#,##0.
func (s *styles) moneyStyle(currency string) (int, error) {
	if id, ok := s.money[currency]; ok {
		return id, nil
	}
	id, err := s.f.NewStyle(&excelize.Style{CustomNumFmt: ptr(MoneyFormat(currency))})
	if err != nil {
		return 0, err
	}
	s.money[currency] = id
	return id, nil
}

// MoneyFormat is the Excel number format of an amount in currency.
func MoneyFormat(currency string) string {
	format := "#,##0"
	if d := api.MinorUnits(currency); d > 0 {
		format += "." + strings.Repeat("0", d)
	}
	if currency == "" {
		return format
	}
	sym := strings.ReplaceAll(api.Symbol(currency), `"`, "")
	return `"` + sym + `"` + format
}

func columnWidth(c Column) float64 {
	if c.Width > 0 {
		return c.Width
	}
	switch c.Kind {
	case Date:
		return 12
	case DateTime:
		return 17
	case Money:
		return 14
	case Number:
		return 10
	}
	return max(12, float64(len([]rune(c.Title)))+2)
}

// sheetName is name as Excel allows it: at most 31 characters, none of
// : \ / ? * [ ].
func sheetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '-'
		}
		return r
	}, name)
	if r := []rune(name); len(r) > 31 {
		name = string(r[:31])
	}
	if strings.TrimSpace(name) == "" {
		return "Sheet1"
	}
	return name
}
