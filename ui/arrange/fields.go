package arrange

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Fields lays out labelled fields: each label beside its field where the
// width gives every field its minimum, else each label above its field.
// Fyne's Form keeps them side by side whatever the width, so on a narrow
// pane the fields were cut ("Wed 21 Oct 20"); Fields asks only for the
// width of its widest label or field.
//
// Like WrapRow, its height is known only once laid out: OnStackedChanged,
// when set, is asked to lay the containers above out again when it goes
// from side by side to stacked or back.
type Fields struct {
	stacked          bool
	OnStackedChanged func()
}

// NewFields lays out label, field, label, field…
func NewFields(labelsAndFields ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: &Fields{}, Objects: labelsAndFields}
}

func (l *Fields) MinSize(objs []fyne.CanvasObject) fyne.Size {
	pad := theme.Padding()
	var w, h float32
	rows := 0
	for i := 0; i+1 < len(objs); i += 2 {
		lm, fm := objs[i].MinSize(), objs[i+1].MinSize()
		w = max(w, lm.Width, fm.Width)
		if l.stacked {
			h += lm.Height + fm.Height
			rows += 2
		} else {
			h += max(lm.Height, fm.Height)
			rows++
		}
	}
	return fyne.NewSize(w, h+float32(max(rows-1, 0))*pad)
}

func (l *Fields) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	var labels, fields float32
	for i := 0; i+1 < len(objs); i += 2 {
		labels = max(labels, objs[i].MinSize().Width)
		fields = max(fields, objs[i+1].MinSize().Width)
	}
	stacked := labels+pad+fields > size.Width
	y := float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		label, field := objs[i], objs[i+1]
		lm, fm := label.MinSize(), field.MinSize()
		if stacked {
			label.Move(fyne.NewPos(0, y))
			label.Resize(fyne.NewSize(size.Width, lm.Height))
			y += lm.Height
			field.Move(fyne.NewPos(0, y))
			field.Resize(fyne.NewSize(size.Width, fm.Height))
			y += fm.Height + pad
			continue
		}
		h := max(lm.Height, fm.Height)
		label.Move(fyne.NewPos(0, y+(h-lm.Height)/2))
		label.Resize(fyne.NewSize(labels, lm.Height))
		field.Move(fyne.NewPos(labels+pad, y+(h-fm.Height)/2))
		field.Resize(fyne.NewSize(size.Width-labels-pad, fm.Height))
		y += h + pad
	}
	if stacked != l.stacked {
		l.stacked = stacked
		if l.OnStackedChanged != nil {
			fyne.Do(l.OnStackedChanged) // after this layout, not inside it
		}
	}
}
