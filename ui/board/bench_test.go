package board

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

// manyVisits is a big office's week: techs technicians, visits visits
// spread over them and the seven days, and 200 work orders waiting.
func manyVisits(techs, visits int) *fake {
	f := &fake{}
	for i := range techs {
		f.crew = append(f.crew, person(int64(8000+i), fmt.Sprintf("Technician %02d", i+1), api.AssociateCruMember, branchUS))
	}
	statuses := []api.WorkOrderStatus{api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused, api.StatusNew}
	for i := range visits {
		tech := f.crew[i%techs]
		day := 7 + (i/techs)%7
		f.visits = append(f.visits, storage.Visit{WorkOrderId: int64(1 + i), Number: fmt.Sprintf("NWR%05d", 70000+i),
			Customer: "Northwind Retail", Site: "Store", Status: statuses[i%len(statuses)], BranchId: branchUS,
			Start: at(day, 7+(i*3)%11, 30*(i%2)), Assigned: []api.Associate{tech.Associate}, AssignedKnown: true})
	}
	for i := range 200 {
		f.visits = append(f.visits, storage.Visit{WorkOrderId: int64(10000 + i), Number: fmt.Sprintf("HPH%05d", 80000+i),
			Customer: "Harbor Point Hotels", Status: api.StatusAccepted, BranchId: branchUS, OnSiteBy: at(9, 8, 0).Add(time.Duration(i) * time.Hour), AssignedKnown: true})
	}
	return f
}

// BenchmarkDragStep is one step of a drag across a board of 50
// technicians, 7 days and 500 visits: the pointer moves, the board finds
// the row and moment under it, checks the technician's visits and moves
// the ghost. A frame at 60 Hz is 16.7 ms.
//
//	go test -tags migrated_fynedo -run X -bench DragStep -benchtime 2000x ./ui/board/
func BenchmarkDragStep(b *testing.B) {
	f := manyVisits(50, 500)
	bd, _ := open(b, f, big)
	blk := waitingBlock(b, bd, 10000)
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(bd.area)
	size := bd.area.Size()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		// Across the days and down the rows in view, a different cell each step.
		x := bd.grid.LabelWidth + float32(i*37%int(size.Width-bd.grid.LabelWidth))
		y := bd.grid.HeaderHeight() + float32(i*23%int(size.Height-bd.grid.HeaderHeight()))
		blk.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: origin.Add(fyne.NewPos(x, y))}})
		i++
	}
	b.StopTimer()
	bd.drag = nil
}

// BenchmarkScrollStep is one wheel step down the same board: the rows in
// view change and the blocks are placed again.
//
//	go test -tags migrated_fynedo -run X -bench ScrollStep -benchtime 2000x ./ui/board/
func BenchmarkScrollStep(b *testing.B) {
	f := manyVisits(50, 500)
	bd, _ := open(b, f, big)
	down := &fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -40)}
	up := &fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, 40)}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if (i/40)%2 == 0 {
			bd.grid.Scrolled(down)
		} else {
			bd.grid.Scrolled(up)
		}
		i++
	}
}
