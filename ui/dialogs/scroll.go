package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Scroll is a dialog's text taller than the window can show (the keyboard
// shortcuts at 1024x700). With the keyboard on it, Up, Down, Page Up,
// Page Down, Home and End scroll it, and Esc and Enter answer the dialog as
// its buttons do: a Fyne scroll takes no keys, and a keyboard user could
// not read below the fold (issue 38's second tryout).
type Scroll struct {
	container.Scroll
}

// NewVScroll scrolls content up and down, by the wheel and by the keys.
func NewVScroll(content fyne.CanvasObject) *Scroll {
	s := &Scroll{}
	s.Content = content
	s.Direction = container.ScrollVerticalOnly
	s.ExtendBaseWidget(s)
	return s
}

func (s *Scroll) FocusGained()   {}
func (s *Scroll) FocusLost()     {}
func (s *Scroll) TypedRune(rune) {}

func (s *Scroll) TypedKey(k *fyne.KeyEvent) {
	line := 2 * theme.TextSize()
	page := max(line, s.Size().Height-line)
	switch k.Name {
	case fyne.KeyUp:
		s.scrollTo(s.Offset.Y - line)
	case fyne.KeyDown:
		s.scrollTo(s.Offset.Y + line)
	case fyne.KeyPageUp:
		s.scrollTo(s.Offset.Y - page)
	case fyne.KeyPageDown:
		s.scrollTo(s.Offset.Y + page)
	case fyne.KeyHome:
		s.scrollTo(0)
	case fyne.KeyEnd:
		s.scrollTo(s.Content.MinSize().Height)
	case fyne.KeyEscape:
		if c := fyne.CurrentApp().Driver().CanvasForObject(s); c != nil {
			DismissTop(c)
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if c := fyne.CurrentApp().Driver().CanvasForObject(s); c != nil {
			ConfirmTop(c)
		}
	}
}

// scrollTo shows the content from y down, within its bounds.
func (s *Scroll) scrollTo(y float32) {
	bottom := max(0, s.Content.MinSize().Height-s.Size().Height)
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, min(max(0, y), bottom)))
}
