package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// TabWidth is the width every tab of the detail is laid out to fit
// (TestEveryTabFitsItsWidth): long texts wrap, button rows wrap or stack.
// With the tab bar beside it, it is what the detail pane needs.
const TabWidth = 300

// PaneFit lays out the list/detail split. The list gets at least the width
// of its kept columns (listView.leastWidth: number, customer, status,
// deadline, NTE); the detail gets the width its tabs are laid out for
// whenever the window has it, its tab bar dropping the tabs' names (icons
// only) when that is what makes both fit (a 960-pixel window); the
// person's own divider position is kept whenever both fit. The split moves
// only when the window is resized or the person drags the divider: never
// because another work order was opened.
type PaneFit struct {
	split *container.Split
	// listLeast is the width the list's kept columns need.
	listLeast func() float32
	// detailWants is the width the detail needs with its tabs named or,
	// compact, as icons.
	detailWants func(compact bool) float32
	// compact drops (true) or restores the tabs' names.
	compact func(bool)
	// preferred is the offset the person chose (or the saved one); the
	// split shows min(preferred, what leaves the detail its width).
	preferred float64
	set       float64 // the offset this layout last gave the split
	width     float32 // the width it was given for
	compacted bool    // the tabs show icons only
}

func NewPaneFit(split *container.Split, listLeast func() float32, detailWants func(bool) float32, compact func(bool)) *PaneFit {
	return &PaneFit{split: split, listLeast: listLeast, detailWants: detailWants, compact: compact,
		preferred: split.Offset, set: split.Offset}
}

func (p *PaneFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (p *PaneFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Width > 0 && (size.Width != p.width || p.split.Offset != p.set) {
		if p.split.Offset != p.set {
			p.preferred = p.split.Offset // the person dragged the divider
		}
		p.width = size.Width
		// The divider takes about two paddings.
		gap := 2 * theme.Padding()
		least := min(p.listLeast(), size.Width)
		compact := p.compacted
		// A width where not even the icons fit beside the list is no real
		// window's (one laid out at a default size before its first frame):
		// the bar is not rebuilt for it.
		if least+p.detailWants(true)+gap <= size.Width {
			compact = least+p.detailWants(false)+gap > size.Width
		}
		p.compacted = compact
		p.compact(compact)
		offset := p.preferred
		if fit := float64((size.Width - p.detailWants(compact) - gap) / size.Width); offset > fit {
			offset = max(fit, float64(least/size.Width))
		}
		p.split.Offset = offset
		p.set = offset
	}
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

// Again lays the panes out afresh at the next layout: what the list needs
// changed (a column's header gained the sort arrow).
func (p *PaneFit) Again(panes *fyne.Container) {
	p.width = 0
	panes.Refresh()
}

// Preferred is the divider position to remember: the person's, not the
// one a small window forced.
func (p *PaneFit) Preferred() float64 {
	if p.split.Offset != p.set {
		return p.split.Offset
	}
	return p.preferred
}
