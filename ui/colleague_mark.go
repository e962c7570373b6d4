package ui

import (
	"context"
	"image/color"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// colleagueMarkFor is how long a colleague's change marks a work order in
// the list. The mark is news: an hour covers a coffee break or a meeting,
// and opening the work order (whose header then says who did what) clears
// it sooner; a mark on everything anyone touched today would be noise.
const colleagueMarkFor = time.Hour

// colleagueFill is a colleague's mark: apart from the status badges' and
// the row fills' colours.
var colleagueFill = color.NRGBA{R: 0x0e, G: 0x74, B: 0x90, A: 0xff}

// initials are what a colleague's mark shows: "Ana Ruiz" → "AR".
func initials(name string) string {
	f := strings.Fields(name)
	if len(f) == 0 {
		return ""
	}
	first := func(s string) string { return string(unicode.ToUpper([]rune(s)[0])) }
	if len(f) == 1 {
		return first(f[0])
	}
	return first(f[0]) + first(f[len(f)-1])
}

// personMark is a colleague's initials in a small round pill.
type personMark struct {
	widget.BaseWidget
	bg   *canvas.Rectangle
	text *canvas.Text
}

func newPersonMark() *personMark {
	m := &personMark{bg: canvas.NewRectangle(colleagueFill), text: canvas.NewText("", color.White)}
	m.text.TextStyle = fyne.TextStyle{Bold: true}
	m.text.TextSize = theme.CaptionTextSize()
	m.text.Alignment = fyne.TextAlignCenter
	m.ExtendBaseWidget(m)
	return m
}

// widestMark is the size of the widest mark: "WW" (an empty mark is a
// circle, narrower than most initials, and the number was cut for them).
func widestMark() fyne.Size {
	m := newPersonMark()
	m.text.Text = "WW"
	return m.MinSize()
}

func (m *personMark) set(text string) {
	if m.text.Text != text {
		m.text.Text = text
		m.Refresh()
	}
}

func (m *personMark) MinSize() fyne.Size {
	ts := m.text.MinSize()
	h := ts.Height + 4
	return fyne.NewSize(max(h, ts.Width+8), h)
}

func (m *personMark) CreateRenderer() fyne.WidgetRenderer { return &personMarkRenderer{m} }

type personMarkRenderer struct{ m *personMark }

// Layout centres the pill vertically in whatever height the cell gives.
func (r *personMarkRenderer) Layout(size fyne.Size) {
	ms := r.m.MinSize()
	pos := fyne.NewPos(0, (size.Height-ms.Height)/2)
	r.m.bg.CornerRadius = ms.Height / 2
	r.m.bg.Move(pos)
	r.m.bg.Resize(ms)
	r.m.text.Move(pos)
	r.m.text.Resize(ms)
}

func (r *personMarkRenderer) MinSize() fyne.Size { return r.m.MinSize() }
func (r *personMarkRenderer) Refresh() {
	r.m.bg.Refresh()
	r.m.text.Refresh()
	r.Layout(r.m.Size())
}
func (r *personMarkRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.m.bg, r.m.text}
}
func (r *personMarkRenderer) Destroy() {}

// colleagueMarks reads the work orders a colleague changed within the
// last colleagueMarkFor, for the list (office mode only; nil otherwise).
// It is called on the main goroutine and returns the read, which runs on
// any; unseenMarks then keeps, on the main goroutine, those the person has
// not opened since. One query per list reload: the cells only look their
// row up.
func (d *Desk) colleagueMarks() func(context.Context) map[int64]storage.ColleagueChange {
	if !d.deps.Office {
		return nil
	}
	store, since, person := d.store, format.Now().Add(-colleagueMarkFor), d.officePerson()
	return func(ctx context.Context) map[int64]storage.ColleagueChange {
		changes, err := store.ColleagueChanges(ctx, since, person)
		if err != nil {
			return nil // the list without marks; the header and Activity still say
		}
		return changes
	}
}

// unseenMarks drops from changes the work orders the person opened after
// their colleague's change.
func (d *Desk) unseenMarks(changes map[int64]storage.ColleagueChange) map[int64]storage.ColleagueChange {
	for id, c := range changes {
		if seen, ok := d.seen[id]; ok && !c.At.After(seen) {
			delete(changes, id)
		}
	}
	return changes
}

// sawColleagues clears the list's mark of a work order the person opens:
// its header now says who changed it.
func (d *Desk) sawColleagues(id int64) {
	c, ok := d.list.marks[id]
	if !ok {
		return
	}
	if d.seen == nil {
		d.seen = map[int64]time.Time{}
	}
	d.seen[id] = c.At
	delete(d.list.marks, id)
	d.list.table.Refresh()
}
