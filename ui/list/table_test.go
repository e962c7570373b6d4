package list

import (
	"fmt"
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// newTestTable is a woTable of rows labelled "row N" with a header row,
// alone in a window of the given height.
func newTestTable(t *testing.T, rows int, height float32) (*Table, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	tbl := newTable()
	tbl.Length = func() (int, int) { return rows, 2 }
	tbl.CreateCell = func() fyne.CanvasObject { return widget.NewLabel("") }
	tbl.UpdateCell = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(fmt.Sprintf("row %d", id.Row))
	}
	tbl.ShowHeaderRow = true
	tbl.CreateHeader = func() fyne.CanvasObject { return widget.NewLabel("") }
	tbl.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(fmt.Sprintf("column %d", id.Col))
	}
	for col := 0; col < 2; col++ {
		tbl.SetColumnWidth(col, 120)
	}
	w := test.NewTempWindow(t, tbl)
	w.Resize(fyne.NewSize(300, height))
	return tbl, w
}

// refreshLength is pinned by TestTheScrollBarFollowsTheRowCount
// (flows_more_test.go), on the list itself.

// The table reads three unexported fields of Fyne's Table to scroll a row
// into view (offset, cellSize, headerSize) and one to remember column
// widths (columnWidths). If a Fyne upgrade renames or retypes them, the
// table quietly falls back to Fyne's own behaviour; this test is where that
// shows.
func TestTheTableFindsTheFieldsItReadsInFynesTable(t *testing.T) {
	v := reflect.ValueOf(widget.Table{})
	for _, name := range []string{"offset", "cellSize", "headerSize"} {
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != reflect.Struct || f.NumField() < 2 ||
			f.Field(0).Kind() != reflect.Float32 || f.Field(1).Kind() != reflect.Float32 {
			t.Errorf("widget.Table.%s is no longer a position or size of two float32: showHighlightedRow falls back to Fyne's scrolling", name)
		}
	}
	if f := v.FieldByName("columnWidths"); !f.IsValid() || f.Type() != reflect.TypeOf(map[int]float32{}) {
		t.Error("widget.Table.columnWidths is no longer a map[int]float32: dragged column widths are not remembered")
	}
}

// TestADraggedColumnWidthIsReported drags the divider after the first
// column in the header, as a person does, and expects the new width to be
// reported for saving, as columnWidths reads it back.
func TestADraggedColumnWidthIsReported(t *testing.T) {
	tbl, _ := newTestTable(t, 5, 200)
	var reported map[int]float32
	tbl.onResized = func(w map[int]float32) { reported = w }

	pad := theme.Padding()
	divider := fyne.NewPos(120+pad/2, 5)
	tbl.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: divider}})
	tbl.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: divider}})
	tbl.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: divider.AddXY(40, 0)}, Dragged: fyne.NewDelta(40, 0)})
	tbl.DragEnd()

	if reported[0] != 160 || reported[1] != 120 {
		t.Fatalf("after dragging the first column 40 px wider, the widths reported are %v", reported)
	}
	if got := columnWidths(&tbl.Table); !reflect.DeepEqual(got, reported) {
		t.Fatalf("columnWidths reads %v, the drag reported %v", got, reported)
	}
}

// TestTheHighlightedRowStaysWholeInView moves the highlight down past the
// bottom and back up past the top with the arrow keys: the highlighted
// row is always drawn whole, below the header, never under it (Fyne
// 2.8.1's own ScrollTo leaves it under the header on the way up), and Enter
// opens the row highlighted.
func TestTheHighlightedRowStaysWholeInView(t *testing.T) {
	tbl, w := newTestTable(t, 40, 240)
	opened := -1
	tbl.onEnter = func(row int) { opened = row }
	w.Canvas().Focus(tbl)

	inView := func(row int) {
		t.Helper()
		var label *widget.Label
		walk(tbl, func(o fyne.CanvasObject) {
			if l, ok := o.(*widget.Label); ok && l.Text == fmt.Sprintf("row %d", row) && label == nil {
				label = l
			}
		})
		if label == nil {
			t.Fatalf("row %d is not drawn", row)
		}
		top := fyne.CurrentApp().Driver().AbsolutePositionForObject(label).Y
		header := tbl.CreateHeader().MinSize().Height
		if top < header-0.5 || top+label.Size().Height > tbl.Size().Height+0.5 {
			t.Fatalf("row %d is drawn at y %.0f–%.0f: not whole between the header (%.0f px) and the bottom (%.0f)",
				row, top, top+label.Size().Height, header, tbl.Size().Height)
		}
	}
	press := func(key fyne.KeyName, n int) {
		for i := 0; i < n; i++ {
			w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: key})
		}
	}
	press(fyne.KeyDown, 25)
	inView(25)
	press(fyne.KeyUp, 20)
	inView(5)
	press(fyne.KeyReturn, 1)
	if opened != 5 {
		t.Fatalf("Enter opened row %d, want the highlighted row 5", opened)
	}
}
