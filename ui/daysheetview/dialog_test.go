package daysheetview

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	ics "github.com/arran4/golang-ical"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/daysheet"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

var (
	kenji = api.Associate{Id: 41, Name: "Kenji Sato", Type: api.AssociateCruMember}
	ana   = api.Associate{Id: 42, Name: "Ana Ruiz", Type: api.AssociateCruMember}
	tue   = time.Date(2026, 12, 1, 0, 0, 0, 0, time.Local)
)

// fake is a Source of two technicians: Kenji has two visits on Tuesday
// (one checked out) and one on Thursday.
type fake struct{ asked []int64 }

func (f *fake) Technicians(context.Context) ([]api.Associate, error) {
	return []api.Associate{ana, kenji}, nil
}

func (f *fake) Visits(_ context.Context, tech int64, from, to time.Time) ([]daysheet.Visit, error) {
	f.asked = append(f.asked, tech)
	if tech != kenji.Id {
		return nil, nil
	}
	mk := func(id int64, number string, status api.WorkOrderStatus, at time.Time) daysheet.Visit {
		wo := &api.WorkOrder{WorkOrderId: id, WorkOrderNumber: number, Status: status, Customer: api.Customer{Name: "Northwind Retail"},
			ServiceLocation: &api.ServiceLocation{SpaceName: "Store 12", Address: &api.Address{Street1: "1 Main St", City: "Springfield"}},
			Schedule:        &api.Schedule{ScheduledStart: &at, Pte: "CallFirst"}, AccompanyingMessage: "Freezer at 18°F."}
		return daysheet.Visit{WorkOrder: wo, Note: "Gate code 4471"}
	}
	var out []daysheet.Visit
	for _, v := range []daysheet.Visit{
		mk(1, "NWR1", api.StatusAccepted, tue.Add(9*time.Hour)),
		mk(2, "NWR2", api.StatusCheckedOut, tue.Add(13*time.Hour)),
		mk(3, "NWR3", api.StatusAccepted, tue.AddDate(0, 0, 2).Add(8*time.Hour)),
	} {
		if s := v.Start(); !s.Before(from) && s.Before(to) {
			out = append(out, v)
		}
	}
	return out, nil
}

// show opens the dialog on a test window, everything inline.
func show(t *testing.T, f *fake, tech int64, days int, opened *[]string) (*View, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	w.Resize(fyne.NewSize(1024, 700))
	inline := func(fn func()) { fn() }
	v := Show(f, Options{Window: w, Now: func() time.Time { return tue.Add(-6 * time.Hour) }, Background: inline, Do: inline, Domain: "demo",
		OpenURL: func(u *url.URL) error {
			*opened = append(*opened, u.Path)
			t.Cleanup(func() { os.Remove(u.Path) })
			return nil
		}}, tech, tue.Add(10*time.Hour), days)
	if !v.Ready() {
		t.Fatal("the dialog was not built")
	}
	return v, w
}

func button(t *testing.T, w fyne.Window, text string) *widget.Button {
	t.Helper()
	found := viewtest.Button(w.Canvas().Overlays().Top(), text)
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

// TestDaySheetDialogOpensTheTechniciansDay: opened for Kenji's Tuesday
// (a technician's row on the board), the dialog says what the sheet holds
// and Open PDF hands the viewer his day: the visit planned, not the one
// checked out, nor Thursday's.
func TestDaySheetDialogOpensTheTechniciansDay(t *testing.T) {
	var opened []string
	f := &fake{}
	v, w := show(t, f, kenji.Id, 1, &opened)
	if v.tech.Selected != "Kenji Sato" || v.from.Text != "Tue 1 Dec 2026" || v.days.Selected != wordOneDay {
		t.Fatalf("opened on %q, %q, %q", v.tech.Selected, v.from.Text, v.days.Selected)
	}
	if got, want := v.count.Text, "Kenji Sato, Tue 1 Dec 2026: 1 visit (1 done or closed: cancelled in the calendar)."; got != want {
		t.Errorf("the dialog says %q; want %q", got, want)
	}
	test.Tap(button(t, w, wordOpen))
	if len(opened) != 1 || !strings.HasSuffix(opened[0], "Kenji Sato day sheet 2026-12-01.pdf") {
		t.Fatalf("the viewer was handed %v", opened)
	}
	if !strings.Contains(v.status.Text, "Opened Kenji Sato day sheet 2026-12-01.pdf") {
		t.Errorf("the dialog says %q", v.status.Text)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	out, err := exec.Command("pdftotext", opened[0], "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if !strings.Contains(text, "NWR1") || strings.Contains(text, "NWR2") || strings.Contains(text, "NWR3") || strings.Contains(text, "Gate code") {
		t.Errorf("the sheet reads:\n%s", text)
	}
}

// TestDaySheetDialogSavesTheWeeksCalendar: for a week (the board's
// week, nobody in particular: the first technician), the person picks
// Kenji, ticks the note, and saves the calendar: every visit of his week
// is an event, the one checked out cancelled, the note in the
// descriptions.
func TestDaySheetDialogSavesTheWeeksCalendar(t *testing.T) {
	var opened []string
	f := &fake{}
	v, _ := show(t, f, 0, 7, &opened)
	if v.tech.Selected != "Ana Ruiz" || v.days.Selected != wordWeek {
		t.Fatalf("opened on %q, %q", v.tech.Selected, v.days.Selected)
	}
	if got := v.count.Text; got != "Ana Ruiz, Tue 1 Dec 2026 – Mon 7 Dec 2026: no visits planned." {
		t.Errorf("the dialog says %q", got)
	}
	v.tech.SetSelected("Kenji Sato")
	v.note.SetChecked(true)
	path := filepath.Join(t.TempDir(), "kenji.ics")
	w, err := fynestorage.Writer(fynestorage.NewFileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	v.SaveTo(w, ".ics")
	if !strings.Contains(v.status.Text, "Saved as "+path) {
		t.Errorf("the dialog says %q", v.status.Text)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, e := range cal.Events() {
		status[e.Id()] = e.GetProperty(ics.ComponentPropertyStatus).Value
		if d := e.GetProperty(ics.ComponentPropertyDescription).Value; !strings.Contains(d, "Gate code 4471") {
			t.Errorf("%s: the ticked note is not in %q", e.Id(), d)
		}
	}
	want := map[string]string{daysheet.UID(1, "demo"): "CONFIRMED", daysheet.UID(2, "demo"): "CANCELLED", daysheet.UID(3, "demo"): "CONFIRMED"}
	if len(status) != len(want) {
		t.Errorf("events %v; want %v", status, want)
	}
	for uid, s := range want {
		if status[uid] != s {
			t.Errorf("%s: %q, want %q", uid, status[uid], s)
		}
	}
}

// TestDaySheetDialogSaysWhatIsWrong: a day typed wrong is said, and
// nothing is made; a sheet that cannot be written leaves no file.
func TestDaySheetDialogSaysWhatIsWrong(t *testing.T) {
	var opened []string
	v, w := show(t, &fake{}, kenji.Id, 1, &opened)
	v.from.SetText("next Tuesday")
	if !strings.Contains(v.count.Text, "type the day as the window writes it") {
		t.Errorf("a bad day: the dialog says %q", v.count.Text)
	}
	test.Tap(button(t, w, wordOpen))
	if len(opened) != 0 || !strings.Contains(v.status.Text, "type the day as the window writes it") {
		t.Errorf("a bad day opened %v; the dialog says %q", opened, v.status.Text)
	}
	v.from.SetText("2026-12-01")
	path := filepath.Join(t.TempDir(), "broken.pdf")
	fw, err := fynestorage.Writer(fynestorage.NewFileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	v.SaveTo(failing{fw}, ".pdf")
	if !strings.Contains(v.status.Text, "could not be saved, and nothing was") {
		t.Errorf("the dialog says %q", v.status.Text)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed save left %s (%v)", path, err)
	}
}

// failing is a writer whose disk is full.
type failing struct{ fyne.URIWriteCloser }

func (failing) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestFindTechnician(t *testing.T) {
	techs := []api.Associate{kenji, ana, {Id: 43, Name: "Kenji Tanaka"}}
	for _, c := range []struct {
		name string
		want int64 // 0: an error
	}{
		{"Kenji Sato", 41}, {"  kenji   SATO ", 41}, {"ruiz", 42}, {"Kenji", 0}, {"Nobody", 0}, {"", 0},
	} {
		got, err := FindTechnician(techs, c.name)
		if c.want == 0 {
			if err == nil || !errors.Is(err, ErrNoSuchTechnician) {
				t.Errorf("%q: %v, %v; want an error", c.name, got, err)
			}
			continue
		}
		if err != nil || got.Id != c.want {
			t.Errorf("%q: %v, %v; want %d", c.name, got, err, c.want)
		}
	}
	_, err := FindTechnician(techs, "Nobody")
	if err == nil || !strings.Contains(err.Error(), "Kenji Sato, Ana Ruiz, Kenji Tanaka") {
		t.Errorf("an unknown name says %v; it should list who there is", err)
	}
}
