package list

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
)

// TestAColleaguesMarkNeverCutsTheNumber: in office mode the Number column
// has room for a colleague's initials beside every number, the widest
// ("WW") too, however narrow the list (its kept columns alone).
func TestAColleaguesMarkNeverCutsTheNumber(t *testing.T) {
	store := demoReplica(t)
	marks := fakeColleagues{marks: map[int64]storage.ColleagueChange{}}
	f := newFixtureIn(t, newApp(t), store, &fakeWindow{}, 400, func(v *View) { v.MarkColleagues(marks) })
	for _, r := range f.rows() {
		marks.marks[r.Id] = storage.ColleagueChange{Name: "Will Walsh"} // the widest initials
	}
	f.w.Resize(fyne.NewSize(f.v.LeastWidth(), 800))
	f.v.Reload() // reads the marks
	if len(f.v.cols) != len(keptColumns()) {
		t.Fatalf("at its least width the list shows %v", titles(f.v.cols))
	}
	for row := range f.v.total {
		c := f.cellAt(row, 1) // Number
		if !c.mark.Visible() || c.mark.text.Text != "WW" {
			t.Fatalf("row %d shows no mark", row)
		}
		if c.text.Truncation != fyne.TextTruncateOff {
			t.Errorf("row %d: the mark cuts %q short", row, c.text.Text)
		}
	}
}

// TestOpeningAMarkedWorkOrderClearsItsMark: the open work order's header
// says who changed it, so its row is not marked as news too; the window
// forgets the mark once the person opened it.
func TestOpeningAMarkedWorkOrderClearsItsMark(t *testing.T) {
	store := demoReplica(t)
	marks := fakeColleagues{marks: map[int64]storage.ColleagueChange{}}
	f := newFixtureIn(t, newApp(t), store, &fakeWindow{}, 900, func(v *View) { v.MarkColleagues(marks) })
	first, _ := f.v.rowAt(0)
	marks.marks[first.Id] = storage.ColleagueChange{Name: "Ana Ruiz"}
	f.v.Reload()
	if c := f.cellAt(0, 1); !c.mark.Visible() || c.mark.text.Text != "AR" {
		t.Fatalf("a work order Ana Ruiz changed is marked %q (shown %v), want AR", c.mark.text.Text, c.mark.Visible())
	}
	f.v.Open(first.Id)
	if c := f.cellAt(0, 1); c.mark.Visible() {
		t.Errorf("the open work order's row is still marked %q", c.mark.text.Text)
	}
	if got, ok := f.v.ForgetMark(first.Id); !ok || got.Name != "Ana Ruiz" {
		t.Errorf("the list forgets %+v (%v), want Ana Ruiz's change", got, ok)
	}
	if _, ok := f.v.ForgetMark(first.Id); ok {
		t.Error("a mark forgotten is forgotten again")
	}
}

// keptColumns are the columns the list shows however narrow.
func keptColumns() []int {
	var out []int
	for _, r := range columnPriority {
		if r.kept {
			out = append(out, r.id)
		}
	}
	return out
}
