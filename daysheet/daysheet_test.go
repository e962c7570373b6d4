package daysheet_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/daysheet"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/pdftext/pdfcheck"
)

var tokyo = mustLoc("Asia/Tokyo")

func mustLoc(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

func fonts(t testing.TB) *pdftext.Set {
	t.Helper()
	set, err := pdftext.New(pdftext.Options{Regular: theme.DefaultTextFont().Content(), Bold: theme.DefaultTextBoldFont().Content()})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

var kenji = api.Associate{Id: 41, Name: "Kenji Sato", Type: api.AssociateCruMember}

// week is a sheet of Kenji's week from Mon 30 Nov 2026 (Tokyo): four
// visits given out of order over two days, the third checked out (off),
// every one a work order of the demo world with a procedure, the first
// with every script in it.
func week(t *testing.T) daysheet.Sheet {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	mk := func(status api.WorkOrderStatus, currency string, start time.Time) *api.WorkOrder {
		t.Helper()
		proc := sandbox.ProcedureEditable
		if status.Completed() {
			proc = sandbox.ProcedureReadOnly
		}
		wo, err := sb.CreateWorkOrder(sandbox.WorkOrderSpec{Status: status, Currency: currency, Procedure: proc})
		if err != nil {
			t.Fatal(err)
		}
		wo.Schedule = &api.Schedule{ScheduledStart: &start, Pte: "CallFirst"}
		wo.SetAssigned([]api.Associate{kenji})
		return &wo
	}
	day := func(d, h, m int) time.Time { return time.Date(2026, 11, 30+d, h, m, 0, 0, tokyo) }
	first := mk(api.StatusAccepted, "JPY", day(1, 9, 0))
	first.Customer.Name = "さくらマート"
	first.ServiceLocation = &api.ServiceLocation{SpaceName: "さくらマート 梅田店",
		Address: &api.Address{Street1: "北区梅田1-9-20", City: "大阪市", PostalCode: "530-0001", Country: "JP"}}
	first.Contact = &api.Contact{FullName: "Дмитрий Волков", ContactAt: "Γιώργος Παπαδόπουλος", Phones: []string{"+81 6-5555-0920"}}
	first.AccompanyingMessage = "서울특별시 강남구 테헤란로 152 냉동기 점검; Jürgen Groß-Ødegård, Łódź; 北京市朝阳区建国路88号 维修工单"
	return daysheet.Sheet{Technician: kenji, From: day(0, 0, 0), Days: 7, Visits: []daysheet.Visit{
		{WorkOrder: mk(api.StatusAccepted, "USD", day(1, 14, 30)), Note: "Key safe 0815 by the back door."},
		{WorkOrder: first, Note: "門の暗証番号 4471"},
		{WorkOrder: mk(api.StatusCheckedOut, "EUR", day(1, 11, 0)), Note: "Gate code 9999"},
		{WorkOrder: mk(api.StatusNew, "GBP", day(3, 8, 15))},
	}}
}

func write(t *testing.T, s daysheet.Sheet, opts daysheet.Options) []byte {
	t.Helper()
	if opts.Fonts == nil {
		opts.Fonts = fonts(t)
	}
	opts.Location = tokyo
	opts.Printed = time.Date(2026, 11, 29, 18, 0, 0, 0, tokyo)
	var buf bytes.Buffer
	if err := daysheet.WritePDF(&buf, s, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pdfText is what pdftotext reads of pdf, its spaces squeezed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "s.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-raw", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestDaySheetListsTheVisitsInOrder: the sheet names the technician and
// the days, and lists the visits in planned order, each with its number,
// customer, site and full address, contact and phone, access and
// appointment window, the work requested and every procedure step; a
// visit already checked out is not on it, and a day without visits says
// so.
func TestDaySheetListsTheVisitsInOrder(t *testing.T) {
	s := week(t)
	text := pdfText(t, write(t, s, daysheet.Options{}))
	at := func(want string) int {
		t.Helper()
		i := strings.Index(text, strings.Join(strings.Fields(want), " "))
		if i < 0 {
			t.Errorf("the sheet lacks %q:\n%s", want, text)
		}
		return i
	}
	at("Kenji Sato")
	at("Mon 30 Nov 2026 – Sun 6 Dec 2026")
	at("Times are JST (UTC+09:00)")
	at("Monday 30 November 2026 · no visits")
	at("No visits planned.")
	at("Tuesday 1 December 2026 · 2 visits")
	at("3 VISITS")
	order := []int{}
	for _, i := range []int{1, 0, 3} { // by start: 09:00 and 14:30 on Tuesday, Thursday 08:15
		v := s.Visits[i]
		wo := v.WorkOrder
		start := v.WorkOrder.ScheduledStart().In(tokyo)
		order = append(order, at(start.Format("15:04")+"–"+start.Add(api.DefaultVisitLength).Format("15:04")+" "+wo.WorkOrderNumber))
		want := []string{wo.Customer.Name, wo.SiteName(), "Access: Call first",
			"Appointment " + start.Format("15:04") + "–" + start.Add(2*time.Hour).Format("15:04")}
		if a := wo.ServiceLocation.Address; a != nil {
			want = append(want, a.Street1, a.City)
		}
		if c := wo.Contact; c != nil {
			want = append(want, c.FullName)
			want = append(want, c.Phones...)
		}
		if d := strings.TrimSpace(wo.AccompanyingMessage); d != "" {
			want = append(want, strings.Split(d, "\n")[0])
		}
		for _, p := range wo.Procedures() {
			want = append(want, p.Name)
			for _, st := range p.Steps {
				want = append(want, st.Label)
			}
		}
		for _, w := range want {
			at(w)
		}
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Errorf("the visits are not in planned order: %v", order)
		}
	}
	if off := s.Visits[2].WorkOrder.WorkOrderNumber; strings.Contains(text, off) {
		t.Errorf("the checked-out visit %s is on the sheet", off)
	}
	for _, note := range []string{"Key safe", "4471", "ACCESS DETAILS"} {
		if strings.Contains(text, note) {
			t.Errorf("the internal note (%q) prints without being ticked", note)
		}
	}
}

// TestDaySheetPrintsNotesWhenTicked: ticked, each visit's internal note
// prints as its access details (the visit off still left out).
func TestDaySheetPrintsNotesWhenTicked(t *testing.T) {
	text := pdfText(t, write(t, week(t), daysheet.Options{AccessNotes: true}))
	for _, want := range []string{"ACCESS DETAILS (INTERNAL NOTE) Key safe 0815 by the back door.", "門の暗証番号 4471", "The internal note is empty."} {
		if !strings.Contains(text, want) {
			t.Errorf("ticked, the sheet lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Gate code 9999") {
		t.Error("the note of the visit off prints")
	}
}

// TestDaySheetPrintsEveryScript: every rune of the Japanese, Chinese,
// Korean, Cyrillic, Greek and accented Latin on the sheet is drawn with a
// real glyph of an embedded font, on A4 and on Letter; the pages are the
// paper's size.
func TestDaySheetPrintsEveryScript(t *testing.T) {
	s := week(t)
	first := s.Visits[1].WorkOrder
	texts := []string{first.Customer.Name, first.SiteName(), first.ServiceLocation.Address.Street1,
		first.Contact.FullName, first.Contact.ContactAt, first.AccompanyingMessage, "門の暗証番号 4471"}
	for paper, size := range map[pdftext.Paper]string{pdftext.A4: "(A4)", pdftext.Letter: "(letter)"} {
		pdf := write(t, s, daysheet.Options{Paper: paper, AccessNotes: true})
		doc, err := pdfcheck.Read(pdf)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			for _, bad := range doc.Check(text) {
				t.Errorf("%s: %s", paper, bad)
			}
		}
		if len(pdf) > 500<<10 {
			t.Errorf("%s: %d bytes: the fonts are not embedded as subsets", paper, len(pdf))
		}
		path := filepath.Join(t.TempDir(), "s.pdf")
		os.WriteFile(path, pdf, 0o600)
		if _, err := exec.LookPath("pdfinfo"); err == nil {
			info, _ := exec.Command("pdfinfo", path).Output()
			if !strings.Contains(string(info), size) {
				t.Errorf("%s: pdfinfo says\n%s", paper, info)
			}
		}
		if dir := os.Getenv("DAYSHEET_PNG"); dir != "" {
			if out, err := exec.Command("pdftoppm", "-png", "-r", "80", path, filepath.Join(dir, "day-sheet-"+strings.ToLower(string(paper)))).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v: %s", err, out)
			}
		}
	}
}

// TestDaySheetOfOneDay: a sheet of one day lists that day's visits only.
func TestDaySheetOfOneDay(t *testing.T) {
	s := week(t)
	s.From, s.Days = time.Date(2026, 12, 3, 0, 0, 0, 0, tokyo), 1
	text := pdfText(t, write(t, s, daysheet.Options{}))
	if !strings.Contains(text, "Thursday 3 December 2026 · 1 visit") || !strings.Contains(text, s.Visits[3].WorkOrder.WorkOrderNumber) {
		t.Errorf("the day's sheet:\n%s", text)
	}
	for _, i := range []int{0, 1} {
		if n := s.Visits[i].WorkOrder.WorkOrderNumber; strings.Contains(text, n) {
			t.Errorf("Tuesday's %s is on Thursday's sheet", n)
		}
	}
}

func TestDaySheetRefusesWithoutFontsOrTechnician(t *testing.T) {
	if err := daysheet.WritePDF(&bytes.Buffer{}, daysheet.Sheet{Technician: kenji}, daysheet.Options{}); err == nil {
		t.Error("a sheet without fonts was written")
	}
	if err := daysheet.WritePDF(&bytes.Buffer{}, daysheet.Sheet{}, daysheet.Options{Fonts: fonts(t)}); err == nil {
		t.Error("a sheet of nobody was written")
	}
}
