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
// pane is tall enough again.
type tabsFit struct {
	tabs  *container.AppTabs
	icons []fyne.Resource
	plain bool // icons dropped
}

func newTabsFit(tabs *container.AppTabs) *fyne.Container {
	l := &tabsFit{tabs: tabs}
	for _, it := range tabs.Items {
		l.icons = append(l.icons, it.Icon)
	}
	return container.New(l, tabs)
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

func (l *tabsFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if size.Height > 0 {
		plain := size.Height < float32(len(l.tabs.Items))*tabHeight(true)
		if plain != l.plain {
			l.plain = plain
			for i, it := range l.tabs.Items {
				if plain {
					it.Icon = nil
				} else if i < len(l.icons) {
					it.Icon = l.icons[i]
				}
			}
			defer l.tabs.Refresh() // rebuilds the buttons once laid out at the new size
		}
	}
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

func (l *tabsFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }
