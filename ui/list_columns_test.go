package ui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestListColumnsNarrowWithoutCuttingWhatMatters: at 1024x700, 1280x800 and
// 1920x1080, with a work order open on its widest tab, the list shows the
// number, status, next deadline and NTE of every row whole (no text cut
// mid-word, no sideways scrolling); columns give way in order as the list
// narrows, and the deadline says what is due wherever it has the room.
func TestListColumnsNarrowWithoutCuttingWhatMatters(t *testing.T) {
	for _, size := range []struct {
		w, h     float32
		columns  []int // shown at least
		labelled bool
	}{
		{1024, 700, []int{colSelect, colNumber, colStatus, colDeadline, colNte}, false},
		{1280, 800, []int{colSelect, colNumber, colCustomer, colStatus, colDeadline, colNte, colCurrency}, true},
		{1920, 1080, []int{colSelect, colNumber, colCustomer, colStatus, colDeadline, colNte, colCurrency, colQuote, colScheduled}, true},
	} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.w, size.h), func(t *testing.T) {
			h := newHarness(t)
			h.win.Resize(fyne.NewSize(size.w, size.h))
			h.selectTab("Invoice")
			h.settle()
			v := h.desk.list
			for _, id := range size.columns {
				if !slices.Contains(v.cols, id) {
					t.Errorf("the list does not show %q; it shows %v", columns[id].title, titles(v.cols))
				}
			}
			if v.deadlineLabelled != size.labelled {
				t.Errorf("the deadline says what is due: %v, want %v (column %.0f px)", v.deadlineLabelled, size.labelled, v.widths[colDeadline])
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
			if pane := h.desk.detail.content().Size().Width; h.desk.detail.needs() > pane {
				t.Errorf("the detail needs %.0f px of %.0f", h.desk.detail.needs(), pane)
			}

			// Every row's number, status, deadline and NTE fit their cells.
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
					case c.badge.Visible() && c.badge.text.Text != "":
						if w := c.badge.MinSize().Width + 2*theme.Padding(); w > v.widths[id] {
							t.Errorf("row %d: the %q badge needs %.0f px of %.0f", row, c.badge.text.Text, w, v.widths[id])
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
		label    string
		in       time.Duration
		labelled bool
		want     string
	}{
		{"On site by", 8*time.Hour + 20*time.Minute, true, "On site · in 8 h"},
		{"On site by", -(8*time.Hour + 20*time.Minute), true, "On site · 8 h late"},
		{"Acknowledge by", 40 * time.Hour, true, "Acknowledge · in 40 h"},
		{"Acknowledge by", 40 * time.Hour, false, "in 40 h"},
		{"Due", 25 * time.Minute, true, "Due · in 25 min"},
		{"Due", -3*24*time.Hour - time.Hour, false, "3 days late"},
		{"Due", 20 * time.Second, true, "Due · now"},
	} {
		if got := shortDeadline(c.label, fixedNow.Add(c.in), c.labelled); got != c.want {
			t.Errorf("%s %v (labelled %v) reads %q, want %q", c.label, c.in, c.labelled, got, c.want)
		}
	}
}

// TestTheWindowOpensOnTheFirstWorkOrder: the window never starts with half
// of it empty: the first work order of the list (by default the one whose
// next deadline comes first) is open, and its row shows it.
func TestTheWindowOpensOnTheFirstWorkOrder(t *testing.T) {
	h := newHarness(t)
	first := h.rows()[0]
	if h.desk.detail.wo == nil || h.desk.detail.wo.WorkOrderId != first.Id {
		t.Fatalf("the window opens with %v in the detail, want the list's first, %s", h.desk.detail.wo, first.Number)
	}
	if h.desk.list.openID != first.Id {
		t.Errorf("the list marks %d as open, want %d", h.desk.list.openID, first.Id)
	}
	for _, r := range h.rows()[1:] {
		if !r.NextDeadline.IsZero() && r.NextDeadline.Before(first.NextDeadline) {
			t.Fatalf("%s is due before the first row %s", r.Number, first.Number)
		}
	}
}

// TestEveryHeaderFitsItsColumn: a column's title, with the sort arrow it
// shows when the list is sorted by it, fits the column at every size.
func TestEveryHeaderFitsItsColumn(t *testing.T) {
	h := newHarness(t)
	for _, w := range []float32{1024, 1280, 1920} {
		h.win.Resize(fyne.NewSize(w, 800))
		h.settle()
		v := h.desk.list
		for _, id := range v.cols {
			title := columns[id].title
			if title == "" {
				continue
			}
			// The header button's text, with its padding on both sides.
			need := fyne.MeasureText(title+" ▼", theme.TextSize(), fyne.TextStyle{Bold: true}).Width + 2*theme.InnerPadding()
			if need > v.widths[id] {
				t.Errorf("at %.0f px the %q header needs %.0f px of its %.0f px column", w, title, need, v.widths[id])
			}
		}
	}
}
