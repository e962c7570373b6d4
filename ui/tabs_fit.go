package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// tabsFit lays the detail's tabs out so that every tab stays in sight down
// the side of the pane. With their icons the nine tabs need about 510
// pixels; a short pane (1024x700 with a refused action in the header) would
// otherwise push the last ones behind Fyne's "⋮" overflow. There the tabs
// drop their icons, which halves their height, and get them back when the
// pane is tall enough again. On a narrow window (960 pixels) the split asks
// them to drop their names instead (compact), which halves the bar's width.
type tabsFit struct {
	tabs    *container.AppTabs
	icons   []fyne.Resource
	titles  []string
	plain   bool // icons dropped
	compact bool // names dropped
	// shown is what the buttons show now (plain, compact); pending: apply
	// is scheduled.
	shown   [2]bool
	pending bool
}

func newTabsFit(tabs *container.AppTabs) (*tabsFit, *fyne.Container) {
	l := &tabsFit{tabs: tabs}
	for _, it := range tabs.Items {
		l.icons = append(l.icons, it.Icon)
		l.titles = append(l.titles, it.Text)
	}
	return l, container.New(l, tabs)
}

// tabHeight is what one tab button of the leading bar takes, as Fyne 2.8
// sizes it (container/tabs.go: an icon 1.5 inline icons tall above the
// label, inner padding around them), plus the bar's padding between buttons.
func tabHeight(withIcon bool) float32 {
	th := theme.Current()
	pad, inner := th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInnerPadding)
	text := fyne.MeasureText("Procedures", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	h := inner + text + pad
	if withIcon {
		h += 1.5*th.Size(theme.SizeNameInlineIcon) - 2*pad + pad
	}
	return h
}

// stripWidth is the width the tab bar takes, named or compact, as Fyne
// 2.8 sizes a leading bar (container/tabs.go): each button its name in
// bold or its icon, 1.5 inline icons wide, whichever is wider, and one
// inner padding; the bar one padding more. Computed, not measured on a
// bar of its own: building one drew its icons again before the first
// frame. TestTheStripWidthIsFynes holds it to a real bar.
func (l *tabsFit) stripWidth(compact bool) float32 {
	th := theme.Current()
	inner, pad := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNamePadding)
	widest := 1.5 * th.Size(theme.SizeNameInlineIcon)
	if !compact {
		for _, t := range l.titles {
			widest = max(widest, fyne.MeasureText(t, th.Size(theme.SizeNameText), fyne.TextStyle{Bold: true}).Width)
		}
	}
	return widest + inner + pad
}

// setCompact drops the tabs' names (the icons stay) or brings them back.
func (l *tabsFit) setCompact(on bool) {
	if on != l.compact {
		l.compact = on
		l.schedule()
	}
}

// schedule rebuilds the buttons once the layouts under way are done, if
// what they should show still differs from what they show: a window is
// laid out at a default size before its own, and rebuilding the eight
// buttons (their icons drawn again) for each cost time before the first
// frame. Fyne's test driver runs it at once.
func (l *tabsFit) schedule() {
	if l.pending {
		return
	}
	l.pending = true
	fyne.Do(func() {
		l.pending = false
		if want := [2]bool{l.plain && !l.compact, l.compact}; want != l.shown {
			l.apply()
		}
	})
}

func (l *tabsFit) apply() {
	l.shown = [2]bool{l.plain && !l.compact, l.compact}
	for i, it := range l.tabs.Items {
		it.Text, it.Icon = l.titles[i], l.icons[i]
		if l.compact {
			it.Text = ""
		} else if l.plain {
			it.Icon = nil
		}
	}
	l.tabs.Refresh()
}

func (l *tabsFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Height > 0 {
		// Without names the buttons are short enough already.
		plain := !l.compact && size.Height < float32(len(l.tabs.Items))*tabHeight(true)
		if plain != l.plain {
			l.plain = plain
			defer l.schedule() // rebuilds the buttons once laid out at the new size
		}
	}
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

func (l *tabsFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }
