package list

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Table is a widget.Table that opens the highlighted row on Enter (arrows
// already move the highlight), ticks it on Space, marks the whole highlighted row while it has
// the keyboard (Fyne tints one cell in its faint hover colour), and reports
// column widths after the person drags a header divider, so they can be
// remembered.
type Table struct {
	widget.Table
	highlighted widget.TableCellID
	focused     bool
	onEnter     func(row int)
	onSpace     func(row int)
	onResized   func(widths map[int]float32)
}

func newTable() *Table {
	t := &Table{}
	t.ExtendBaseWidget(t)
	t.OnHighlighted = func(id widget.TableCellID) {
		moved := id.Row != t.highlighted.Row
		t.highlighted = id
		if moved && t.focused {
			t.Refresh() // the row marks move with it
		}
	}
	return t
}

// clicked moves the keyboard's row to a row the person clicked: Fyne's
// Select moves its own highlight there without telling OnHighlighted, and
// the row mark would stay where the keyboard last was.
func (t *Table) clicked(id widget.TableCellID) {
	moved := id.Row != t.highlighted.Row
	t.highlighted = id
	if moved && t.focused {
		t.Refresh()
	}
}

func (t *Table) FocusGained() {
	t.focused = true
	t.Table.FocusGained()
	t.Refresh()
}

func (t *Table) FocusLost() {
	t.focused = false
	t.Table.FocusLost() // redraws the cells
}

// KeyboardRow is the row the keyboard is on: where its arrows and Enter
// go on from, whether or not the table has the keyboard now.
func (t *Table) KeyboardRow() int { return t.highlighted.Row }

// focusedRow is the row the keyboard is on, -1 while the table does not
// have the keyboard.
func (t *Table) focusedRow() int {
	if !t.focused {
		return -1
	}
	return t.highlighted.Row
}

func (t *Table) TypedKey(e *fyne.KeyEvent) {
	if (e.Name == fyne.KeyReturn || e.Name == fyne.KeyEnter) && t.onEnter != nil {
		t.onEnter(t.highlighted.Row)
		return
	}
	// Fyne's Table selects the highlighted cell on Space, which here
	// would open the row; Space ticks it instead, as a tap on its box.
	if e.Name == fyne.KeySpace && t.onSpace != nil {
		t.onSpace(t.highlighted.Row)
		return
	}
	t.Table.TypedKey(e)
	if e.Name == fyne.KeyUp || e.Name == fyne.KeyDown {
		t.showHighlightedRow()
	}
}

// showHighlightedRow scrolls the least that shows the highlighted row whole.
// Fyne 2.8.1's Table.ScrollTo counts the header row into the row's place
// inside the scrolled area, so moving up left the row hidden under the
// header. The geometry is read like columnWidths; if a future Fyne renames
// the fields, Fyne's own scrolling stays.
func (t *Table) showHighlightedRow() {
	v := reflect.ValueOf(&t.Table).Elem()
	off, cell, header := v.FieldByName("offset"), v.FieldByName("cellSize"), v.FieldByName("headerSize")
	for _, f := range []reflect.Value{off, cell, header} {
		if !f.IsValid() || f.Kind() != reflect.Struct || f.NumField() < 2 || f.Field(1).Kind() != reflect.Float32 {
			return
		}
	}
	rowH := float32(cell.Field(1).Float())
	if rowH <= 0 {
		return
	}
	pad := t.Theme().Size(theme.SizeNamePadding)
	top := float32(t.highlighted.Row) * (rowH + pad)
	view := t.Size().Height - float32(header.Field(1).Float())
	y, want := float32(off.Field(1).Float()), float32(off.Field(1).Float())
	switch {
	case top < y:
		want = top
	case top+rowH > y+view:
		want = top + rowH - view
	}
	if want != y {
		t.ScrollToOffset(fyne.NewPos(float32(off.Field(0).Float()), want))
	}
}

// toTop scrolls to the first row and puts the keyboard on it, in the
// column it was in.
func (t *Table) toTop() {
	t.ScrollToTop()
	t.moveTo(0)
}

// moveTo puts the keyboard on row, in the column it was in, as an arrow
// key would, so that Down and Enter go on from there.
func (t *Table) moveTo(row int) {
	id := widget.TableCellID{Row: row, Col: max(t.highlighted.Col, 0)}
	t.highlighted = id
	if rows, _ := t.Length(); rows > row {
		t.Highlight(id) // Fyne's own keyboard cell, which Down and Enter start from
		t.showHighlightedRow()
	}
	t.Refresh()
}

// refreshLength redraws the table after its number of rows changed. Fyne
// 2.8.1's Table.Refresh redraws the cells but leaves its scrolled area at
// the old height (no scroll bar after the first load, a long one after a
// narrowing search) until the next layout; resizing it there and back is
// that layout, and keeps the scroll position.
func (t *Table) refreshLength() {
	t.Refresh()
	if s := t.Size(); !s.IsZero() {
		t.Resize(s.AddWidthHeight(0, 1))
		t.Resize(s)
	}
}

func (t *Table) DragEnd() {
	t.Table.DragEnd()
	if t.onResized != nil {
		t.onResized(columnWidths(&t.Table))
	}
}

// columnWidths reads the widths the table holds. Fyne exposes SetColumnWidth
// but no getter and no resize callback; reading the unexported map through
// reflection is read-only and degrades to "nothing remembered" if a future
// Fyne renames it.
func columnWidths(t *widget.Table) map[int]float32 {
	out := map[int]float32{}
	v := reflect.ValueOf(t).Elem().FieldByName("columnWidths")
	if !v.IsValid() || v.Kind() != reflect.Map {
		return out
	}
	for _, k := range v.MapKeys() {
		if k.Kind() == reflect.Int {
			out[int(k.Int())] = float32(v.MapIndex(k).Float())
		}
	}
	return out
}
