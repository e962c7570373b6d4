package ui

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// woTable is a widget.Table that opens the highlighted row on Enter (arrows
// already move the highlight) and reports column widths after the person
// drags a header divider, so they can be remembered.
type woTable struct {
	widget.Table
	highlighted widget.TableCellID
	onEnter     func(row int)
	onResized   func(widths map[int]float32)
}

func newWOTable() *woTable {
	t := &woTable{}
	t.ExtendBaseWidget(t)
	t.OnHighlighted = func(id widget.TableCellID) { t.highlighted = id }
	return t
}

func (t *woTable) TypedKey(e *fyne.KeyEvent) {
	if (e.Name == fyne.KeyReturn || e.Name == fyne.KeyEnter) && t.onEnter != nil {
		t.onEnter(t.highlighted.Row)
		return
	}
	t.Table.TypedKey(e)
}

func (t *woTable) DragEnd() {
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
