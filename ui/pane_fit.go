package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// paneFit lays out the list/detail split so that the detail pane gets the
// width its tabs need whenever the window has it: on a 1024-pixel laptop
// the list gives up columns (it scrolls sideways, and every column's text
// is in the detail) rather than the invoice's Submit running off the edge.
// The person's own divider position is kept whenever both fit.
type paneFit struct {
	split *container.Split
	// detailNeeds is the width the open work order's tabs need.
	detailNeeds func() float32
	// preferred is the offset the person chose (or the saved one); the
	// split shows min(preferred, what leaves the detail its width).
	preferred float64
	set       float64 // the offset this layout last gave the split
	needed    float32 // detailNeeds at the last layout
}

func newPaneFit(split *container.Split, detailNeeds func() float32) *paneFit {
	return &paneFit{split: split, detailNeeds: detailNeeds, preferred: split.Offset, set: split.Offset}
}

func (p *paneFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (p *paneFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width > 0 {
		if p.split.Offset != p.set {
			p.preferred = p.split.Offset // the person dragged the divider
		}
		offset := p.preferred
		p.needed = p.detailNeeds()
		// The divider takes about one padding; the detail's own scroll
		// bar needs nothing extra when the content fits.
		if fit := float64((size.Width - p.needed - 2*theme.Padding()) / size.Width); offset > fit {
			offset = max(fit, float64(p.split.Leading.MinSize().Width/size.Width))
		}
		p.split.Offset = offset
		p.set = offset
	}
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// Preferred is the divider position to remember: the person's, not the
// one a small window forced.
func (p *paneFit) Preferred() float64 {
	if p.split.Offset != p.set {
		return p.split.Offset
	}
	return p.preferred
}

// refit lays panes out again when the detail now needs another width (a
// work order opened, a wider invoice); otherwise it leaves the list, and
// its scroll position, alone. Only the divider moves: refreshing panes
// would also redraw every widget under them, the list's cells included,
// each time a work order opens.
func (p *paneFit) refit(panes *fyne.Container) {
	if p.detailNeeds() == p.needed {
		return
	}
	was := p.split.Offset
	p.Layout(panes.Objects, panes.Size())
	if now := p.split.Offset; now != was {
		p.split.Offset = was
		p.split.SetOffset(now) // lays the split out again at now
	}
}
