package list

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestListColumnsNarrowWithoutCuttingWhatMatters: however narrow the list,
// it shows its kept columns (which, which work order, for whom, where it
// stands, what is due, how much), and all of them where it has the room;
// the columns it shows fit its width without scrolling sideways, and no
// deadline, amount or number is cut short in them.
func TestListColumnsNarrowWithoutCuttingWhatMatters(t *testing.T) {
	kept := []int{colSelect, colNumber, colCustomer, colStatus, colDeadline, colNte}
	store := demoReplica(t)
	least := newFixture(t, store, 400).v.LeastWidth()
	for _, width := range []float32{least, least + 60, 900, 1300} {
		t.Run(fmt.Sprintf("%.0f", width), func(t *testing.T) {
			f := newFixture(t, store, width)
			v := f.v
			for _, id := range kept {
				if !slices.Contains(v.cols, id) {
					t.Errorf("the list does not show %q; it shows %v", columns[id].title, titles(v.cols))
				}
			}
			if width >= 1300 && len(v.cols) != len(columns) {
				t.Errorf("%.0f px shows only %v", width, titles(v.cols))
			}
			pad := theme.Padding()
			held := columnWidths(&v.table.Table)
			total := float32(0)
			for i, id := range v.cols {
				if held[i] != v.widths[id] {
					t.Errorf("the table holds %.0f px for %q, the list chose %.0f", held[i], columns[id].title, v.widths[id])
				}
				total += v.widths[id] + pad
			}
			if total > v.table.Size().Width+pad {
				t.Errorf("the columns take %.0f px of a %.0f px list: it scrolls sideways", total, v.table.Size().Width)
			}

			room := func(id int) float32 { return v.widths[id] - 2*theme.InnerPadding() }
			for row := 0; row < v.total; row++ {
				for i, id := range v.cols {
					if id == colCustomer || id == colSite {
						continue // names are shortened with "…"; the detail has them whole
					}
					c := newCell()
					v.updateCell(widget.TableCellID{Row: row, Col: i}, c)
					switch {
					case c.text.Visible():
						if w := fyne.MeasureText(c.text.Text, theme.TextSize(), c.text.TextStyle).Width; w > room(id) {
							t.Errorf("row %d: %q in %q needs %.0f px of %.0f: it is cut", row, c.text.Text, columns[id].title, w, room(id))
						}
						if r, _ := v.rowAt(row); id == colDeadline && !r.NextDeadline.IsZero() && !strings.Contains(c.text.Text, " · ") && r.Why.Deadline() {
							t.Errorf("row %d: the deadline %q does not say what is due", row, c.text.Text)
						}
						if r, _ := v.rowAt(row); id == colNte && !r.Nte.IsZero() && !strings.ContainsAny(c.text.Text, "$€£¥") && !strings.Contains(c.text.Text, r.Nte.Currency) {
							t.Errorf("row %d: the NTE %q does not say its currency", row, c.text.Text)
						}
					case c.badge.Visible() && c.badge.Text() != "":
						if w := c.badge.MinSize().Width + 2*theme.Padding(); w > v.widths[id] {
							t.Errorf("row %d: the %q badge needs %.0f px of %.0f", row, c.badge.Text(), w, v.widths[id])
						}
					}
				}
			}
		})
	}
}

func titles(ids []int) []string {
	var out []string
	for _, id := range ids {
		out = append(out, columns[id].title)
	}
	return out
}

// TestTheListSaysHowFarEachDeadlineIsInWholeUnits: the list's deadline is
// short ("in 8 h", "3 days late"), labelled with what is due when the
// column is wide enough; the summary has the exact time.
func TestTheListSaysHowFarEachDeadlineIsInWholeUnits(t *testing.T) {
	for _, c := range []struct {
		label string
		in    time.Duration
		short bool
		want  string
	}{
		{"On site by", 8*time.Hour + 20*time.Minute, false, "On site · in 8 h"},
		{"On site by", -(8*time.Hour + 20*time.Minute), false, "On site · 8 h late"},
		{"Acknowledge by", 40 * time.Hour, false, "Acknowledge · in 40 h"},
		{"Acknowledge by", 40 * time.Hour, true, "Ack · in 40 h"},
		{"Due", 25 * time.Minute, false, "Due · in 25 min"},
		{"Due", -3*24*time.Hour - time.Hour, true, "Due · 3 days late"},
		{"Due", 20 * time.Second, false, "Due · now"},
		{"Invoice by", 29*24*time.Hour + time.Hour, false, "Invoice · in 29 days"},
	} {
		if got := shortDeadline(c.label, fixedNow.Add(c.in), c.short); got != c.want {
			t.Errorf("%s %v (short %v) reads %q, want %q", c.label, c.in, c.short, got, c.want)
		}
	}
}

// TestEveryHeaderFitsItsColumn: a column's title, with the sort arrow it
// shows when the list is sorted by it, fits the column at every size, as
// the header button lays them out, the list sorted by a tap on each header
// in turn (each that sorts).
func TestEveryHeaderFitsItsColumn(t *testing.T) {
	f := newFixture(t, demoReplica(t), 400)
	v := f.v
	for _, w := range []float32{v.LeastWidth(), 700, 900, 1300} {
		f.w.Resize(fyne.NewSize(w, 800))
		var titles []string
		for _, id := range v.cols {
			if title := columns[id].title; title != "" && columns[id].sort >= 0 { // Assigned does not sort
				titles = append(titles, title)
			}
		}
		for _, title := range titles {
			hd := header(t, v.table, title)
			if !hd.arrow.Visible() {
				test.Tap(hd.button)
				hd = header(t, v.table, title)
			}
			if !hd.arrow.Visible() {
				t.Fatalf("at %.0f px, sorted by %q, its header shows no arrow", w, title)
			}
			var label *canvas.Text
			walk(hd.button, func(o fyne.CanvasObject) {
				if x, ok := o.(*canvas.Text); ok && x.Text == title {
					label = x
				}
			})
			if label == nil {
				t.Fatalf("the %q header draws no title", title)
			}
			// The title's end as drawn, from the header's left edge.
			drv := fyne.CurrentApp().Driver()
			end := drv.AbsolutePositionForObject(label).X - drv.AbsolutePositionForObject(hd).X +
				fyne.MeasureText(title, label.TextSize, label.TextStyle).Width
			// The arrow's triangle, within its box.
			from := hd.arrow.Position().X + hd.arrow.Size().Width*arrowInkStart
			to := hd.arrow.Position().X + hd.arrow.Size().Width*arrowInkEnd
			if end > from {
				t.Errorf("at %.0f px the %q header's title runs to %.0f, under its arrow from %.0f", w, title, end, from)
			}
			if to > hd.Size().Width {
				t.Errorf("at %.0f px the %q header's arrow ends at %.0f px of its %.0f px column", w, title, to, hd.Size().Width)
			}
		}
	}
}

// TestTheSortedColumnShowsItsDirectionAsAnArrow: tapping a header sorts
// the list by that column, an up arrow after its title; tapping it again
// reverses the order and the arrow points down. No other header has one,
// and no title carries a character for it (a system font may lack it).
func TestTheSortedColumnShowsItsDirectionAsAnArrow(t *testing.T) {
	f := newFixture(t, demoReplica(t), 900)
	v := f.v
	customers := func() (first, last string) {
		a, _ := v.rowAt(0)
		z, _ := v.rowAt(v.total - 1)
		return a.Customer, z.Customer
	}
	for _, step := range []struct {
		arrow fyne.Resource
		desc  bool
	}{{theme.MenuDropUpIcon(), false}, {theme.MenuDropDownIcon(), true}} {
		test.Tap(header(t, v.table, "Customer").button)
		first, last := customers()
		if (first > last) != step.desc || first == last {
			t.Errorf("after tapping Customer (descending: %v) the list runs from %q to %q", step.desc, first, last)
		}
		walk(v.table, func(o fyne.CanvasObject) {
			hd, ok := o.(*columnHeader)
			if !ok {
				return
			}
			title := hd.button.Text
			if strings.ContainsFunc(title, func(r rune) bool { return r > unicode.MaxLatin1 }) {
				t.Errorf("the header %q draws a character beyond Latin-1", title)
			}
			shown := hd.arrow.Visible()
			switch {
			case title == "Customer" && (!shown || hd.arrow.Resource.Name() != step.arrow.Name()):
				t.Errorf("sorted by customer (descending: %v), its header shows the arrow %v (shown: %v), want %s", step.desc, hd.arrow.Resource, shown, step.arrow.Name())
			case title != "Customer" && shown:
				t.Errorf("the %q header shows an arrow while the list is sorted by customer", title)
			}
		})
	}
}

// header is the list's column header titled title.
func header(t *testing.T, tbl *Table, title string) *columnHeader {
	t.Helper()
	var found *columnHeader
	walk(tbl, func(o fyne.CanvasObject) {
		if h, ok := o.(*columnHeader); ok && h.button.Text == title && found == nil {
			found = h
		}
	})
	if found == nil {
		t.Fatalf("no %q header on screen", title)
	}
	return found
}

// headerSpan is the on-screen width of the list's header for column title.
func headerSpan(t *testing.T, tbl *Table, title string) float32 {
	t.Helper()
	return header(t, tbl, title).Size().Width
}

// A column widened by dragging its header divider keeps its width at the
// next start.
func TestADraggedColumnWidthIsRemembered(t *testing.T) {
	a := newApp(t)
	store := demoReplica(t)
	tbl := newFixtureIn(t, a, store, &fakeWindow{}, listWidth).v.table
	before := headerSpan(t, tbl, "Number")
	pad := tbl.Theme().Size(theme.SizeNamePadding)
	// The divider between Number and Customer, in the header row.
	divider := fyne.NewPos(columns[colSelect].width+pad+before+pad/2, 5)
	tbl.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: divider}})
	if tbl.Cursor() != desktop.HResizeCursor {
		t.Fatalf("over the Number/Customer divider the cursor is %v, want a resize cursor", tbl.Cursor())
	}
	tbl.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: divider}})
	tbl.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: divider.AddXY(44, 0)}, Dragged: fyne.NewDelta(44, 0)})
	tbl.DragEnd()
	tbl.MouseUp(&desktop.MouseEvent{})
	if got := headerSpan(t, tbl, "Number"); got != before+44 {
		t.Fatalf("dragging the divider 44 px made Number %v wide, want %v", got, before+44)
	}

	again := newFixtureIn(t, a, store, &fakeWindow{}, listWidth).v // the next start: the same preferences
	if got := headerSpan(t, again.table, "Number"); got != before+44 {
		t.Errorf("at the next start Number is %v wide, want the dragged %v", got, before+44)
	}
	if w, dragged := again.draggedWidth(colCustomer); dragged {
		t.Errorf("Customer, never dragged, is remembered at %v px", w)
	}
}
