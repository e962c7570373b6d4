package board

import (
	"time"

	"fyne.io/fyne/v2"
)

// The board hands a technician their plan: a tap on a technician's row
// (its name) opens their day sheet for the days shown; a tap on a day's
// heading that day's and Day sheet… the days shown, both for the selected
// visit's technician.
// What a day sheet is, is not the board's business: Options.DaySheet.

const wordDaySheet = "Day sheet…"

// DaySheet opens the day sheet of tech (0: nobody in particular) for days
// days from the day of from, when the board was given a way to.
func (b *Board) DaySheet(tech int64, from time.Time, days int) {
	if b.opts.DaySheet != nil {
		b.opts.DaySheet(tech, dayOf(from), days)
	}
}

// daySheetOfSelected is Day sheet…: the days shown, for the technician of
// the selected visit (else nobody in particular).
func (b *Board) daySheetOfSelected() { b.DaySheet(b.selectedTech(), b.day, b.days()) }

// selectedTech is the technician of the selected visit who has a row, 0
// when none is selected or nobody known goes.
func (b *Board) selectedTech() int64 {
	if v := b.visit(b.selected); v != nil {
		for _, a := range v.Assigned {
			if b.rowOf(a.Id) >= 0 {
				return a.Id
			}
		}
	}
	return 0
}

// rowOf is the index of tech's row, -1 when there is none.
func (b *Board) rowOf(tech int64) int {
	for i, r := range b.rows {
		if r.tech == tech {
			return i
		}
	}
	return -1
}

// Tapped is a tap on the grid: on a technician's name, their day sheet of
// the days shown; on a day's heading, that day's, for the selected
// visit's technician.
func (a *area) Tapped(e *fyne.PointEvent) {
	b := a.b
	g := b.grid
	switch {
	case e.Position.X < g.LabelWidth:
		if row, ok := g.RowAt(e.Position.Y); ok && b.rows[row].tech != 0 {
			b.DaySheet(b.rows[row].tech, b.day, b.days())
		}
	case e.Position.Y < g.HeaderHeight():
		if at, ok := g.TimeAt(e.Position.X); ok {
			b.DaySheet(b.selectedTech(), at, 1)
		}
	}
}
