package dialogs

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A form's Plan waits for a valid time; once Tab has moved past the field
// to a button, Esc there cancels and Enter on Plan plans, as Enter in the
// field does.
func TestAFormsButtonsAnswerEnterAndEscOnceTabbedTo(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	for _, tc := range []struct {
		name string
		time string
		tabs int // from the field: 1 Cancel, 2 Plan; 0 stays in the field
		key  fyne.KeyName
		want []bool
	}{
		{"Enter in the field", "09:30", 0, fyne.KeyReturn, []bool{true}},
		{"Enter in the field, not a time", "9h", 0, fyne.KeyReturn, nil},
		{"Esc on Cancel", "09:30", 1, fyne.KeyEscape, []bool{false}},
		{"Enter on Cancel", "09:30", 1, fyne.KeyReturn, []bool{false}},
		{"Esc on Plan", "09:30", 2, fyne.KeyEscape, []bool{false}},
		{"Enter on Plan", "09:30", 2, fyne.KeyReturn, []bool{true}},
	} {
		at := NewEntry()
		at.Validator = func(s string) error {
			if len(s) != 5 || s[2] != ':' {
				return errors.New("type the time as HH:MM")
			}
			return nil
		}
		at.SetText(tc.time)
		var got []bool
		f := NewForm("Plan visit: NWR73204", "Plan", "Cancel", []*widget.FormItem{widget.NewFormItem("Time", at)}, func(ok bool) { got = append(got, ok) }, w)
		f.Show()
		c.Focus(at)
		for range tc.tabs {
			c.FocusNext()
		}
		c.Focused().TypedKey(&fyne.KeyEvent{Name: tc.key})
		open := c.Overlays().Top() != nil
		if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) || open != (tc.want == nil) {
			t.Errorf("%s: answers %v, open %v; want %v", tc.name, got, open, tc.want)
		}
		if tc.want == nil {
			if b := buttonLabelled(c.Overlays().Top(), "Plan"); b == nil || !b.Disabled() {
				t.Errorf("%s: Plan is not waiting for a valid time", tc.name)
			}
			f.Submit()
			if len(got) != 0 {
				t.Errorf("%s: Submit answered %v before the time was valid", tc.name, got)
			}
			f.Hide()
		}
	}
}
