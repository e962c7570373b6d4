package jobsheet_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/jobsheet"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/pdftext/pdfcheck"
)

// everyScript is a demo work order whose every field a person reads is
// written in one script or another.
func everyScript(t *testing.T) (api.WorkOrder, []string) {
	wo := demoWorkOrder(t, "JPY")
	sc := map[string]string{}
	for _, s := range pdfcheck.Scripts {
		sc[s.Name] = s.Text
	}
	wo.Customer.Name = "さくらマート"
	wo.ServiceLocation = &api.ServiceLocation{SpaceName: sc["Japanese"],
		Address: &api.Address{Street1: sc["Chinese"], City: "서울특별시", PostalCode: "06236", Country: "KR"}}
	wo.Contact = &api.Contact{FullName: "Дмитрий Волков", ContactAt: sc["Greek"], Phones: []string{"+82 2 555 0100"}}
	wo.AccompanyingMessage = sc["accented Latin"] + "\n" + sc["Korean"] + "\n" + sc["Cyrillic"]
	wo.WorkDetails.Procedures[0].Name = sc["Korean"]
	wo.WorkDetails.Procedures[0].Steps[0].Label = sc["Greek"]
	var texts []string
	for _, s := range pdfcheck.Scripts {
		texts = append(texts, s.Text)
	}
	return wo, texts
}

// TestJobSheetPrintsEveryScript: every rune of Japanese, Chinese, Korean,
// Cyrillic, Greek and accented Latin text on the sheet (site, address,
// contact, work, procedures, technicians, the access note) is drawn with
// a real glyph of an embedded font, where the sheet used to print
// Japanese as boxes (A09); and pdftotext reads it back.
func TestJobSheetPrintsEveryScript(t *testing.T) {
	wo, texts := everyScript(t)
	note := "게이트 코드 4471 — 門の暗証番号 4471 — Κωδικός πύλης 4471"
	var buf bytes.Buffer
	err := jobsheet.Write(&buf, &wo, jobsheet.Options{Fonts: fonts(t), Printed: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		Assigned: []api.Associate{{Id: 1, Name: "佐藤 健二"}, {Id: 2, Name: "Γιώργος Π."}}, AssignedKnown: true, AccessNote: note})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := pdfcheck.Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(texts, note, "佐藤 健二", "Γιώργος Π.") {
		for _, bad := range doc.Check(text) {
			t.Errorf("%s", bad)
		}
	}
	if buf.Len() > 400<<10 {
		t.Errorf("the sheet is %d bytes: its fonts are not embedded as subsets", buf.Len())
	}
	text := pdfText(t, buf.Bytes())
	// (The Japanese site wraps in its column: its glyphs are checked above.)
	for _, want := range append(texts[1:], note, "Technician: 佐藤 健二, Γιώργος Π.", "ACCESS DETAILS (INTERNAL NOTE)") {
		if !strings.Contains(text, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("pdftotext does not read %q in:\n%s", want, text)
		}
	}
	if dir := os.Getenv("JOBSHEET_PNG"); dir != "" {
		renderPNG(t, buf.Bytes(), filepath.Join(dir, "job-sheet-every-script"))
	}
}

// TestJobSheetTechniciansAndNote: the assigned technicians are named
// (beside the appointment and in the Technician box); nobody assigned
// says so; the internal note prints only when given (ticked).
func TestJobSheetTechniciansAndNote(t *testing.T) {
	wo := demoWorkOrder(t, "USD")
	const note = "Gate code 4471; park behind the loading dock."
	for _, c := range []struct {
		name       string
		opts       jobsheet.Options
		want, lack []string
	}{
		{"assigned, note ticked", jobsheet.Options{Assigned: []api.Associate{{Id: 7, Name: "Kenji Sato"}}, AssignedKnown: true, AccessNote: note},
			[]string{"Technician: Kenji Sato", "Technician Kenji Sato", "ACCESS DETAILS", note}, nil},
		{"nobody assigned, note not ticked", jobsheet.Options{AssignedKnown: true},
			[]string{"Technician: not assigned yet"}, []string{"ACCESS DETAILS", "Gate code"}},
		{"not known", jobsheet.Options{},
			nil, []string{"Technician:", "ACCESS DETAILS"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Fonts = fonts(t)
			var buf bytes.Buffer
			if err := jobsheet.Write(&buf, &wo, c.opts); err != nil {
				t.Fatal(err)
			}
			text := pdfText(t, buf.Bytes())
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the sheet lacks %q:\n%s", w, text)
				}
			}
			for _, l := range c.lack {
				if strings.Contains(text, l) {
					t.Errorf("the sheet has %q:\n%s", l, text)
				}
			}
		})
	}
}

// TestJobSheetPaper: A4 and Letter pages are the paper's size.
func TestJobSheetPaper(t *testing.T) {
	if _, err := exec.LookPath("pdfinfo"); err != nil {
		t.Skip("pdfinfo (poppler-utils) is not installed")
	}
	wo := demoWorkOrder(t, "USD")
	for paper, want := range map[pdftext.Paper]string{pdftext.A4: "595.28 x 841.89 pts (A4)", pdftext.Letter: "612 x 792 pts (letter)", "": "(A4)"} {
		var buf bytes.Buffer
		if err := jobsheet.Write(&buf, &wo, jobsheet.Options{Fonts: fonts(t), Paper: paper}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "s.pdf")
		os.WriteFile(path, buf.Bytes(), 0o600)
		out, err := exec.Command("pdfinfo", path).Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("paper %q: pdfinfo says\n%s", paper, out)
		}
	}
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
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// renderPNG writes pdf's pages as PNGs with pdftoppm, to be looked at.
func renderPNG(t *testing.T, pdf []byte, prefix string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "80", path, prefix).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
}
