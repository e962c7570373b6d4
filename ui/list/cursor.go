package list

import (
	"fyne.io/fyne/v2/widget"
)

// The keyboard's row stays on its work order when the list is read again
// and re-sorts (an accept moves a row by its next deadline): it moved
// before as a row number, and Ctrl+Shift+A left the cursor on another
// work order than the one shown on the right (A14).

// cursorAt is the work order on the keyboard's row, as the table shows
// it now (0: none read).
func (v *View) cursorAt() (id int64, row int) {
	row = v.table.highlighted.Row
	if r, ok := v.rowAt(row); ok {
		id = r.Id
	}
	return id, row
}

// followCursor puts the keyboard's row back on work order id, after a
// re-read of the same view moved it: it looks on the first page and
// around the row it was on (the pages the table shows anyway).
func (v *View) followCursor(id int64, was int) {
	if id == 0 {
		return
	}
	look := []int{0, was/pageSize - 1, was / pageSize, was/pageSize + 1}
	seen := map[int]bool{}
	for _, p := range look {
		if p < 0 || seen[p] || p*pageSize >= v.total {
			continue
		}
		seen[p] = true
		for i := p * pageSize; i < min(v.total, (p+1)*pageSize); i++ {
			r, ok := v.rowAt(i)
			if !ok {
				break
			}
			if r.Id == id {
				if i != was {
					v.table.moveHighlight(i)
				}
				return
			}
		}
	}
}

// moveHighlight puts the keyboard's row on row, Fyne's own too (where its
// Up and Down go on from), and scrolls it into view; nothing opens.
func (t *Table) moveHighlight(row int) {
	id := widget.TableCellID{Row: row, Col: max(t.highlighted.Col, 0)}
	onSelected := t.OnSelected
	t.OnSelected = nil // Select is the only way to Fyne's highlight; it is not a tap
	t.Select(id)
	t.OnSelected = onSelected
	t.UnselectAll()
	t.clicked(id)
	t.showHighlightedRow()
}
