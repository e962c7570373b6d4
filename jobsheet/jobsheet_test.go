package jobsheet_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/jobsheet"
	"github.com/workorderdesk/workdesk/pdftext"
)

func fonts(t testing.TB) *pdftext.Set {
	t.Helper()
	set, err := pdftext.New(pdftext.Options{Regular: theme.DefaultTextFont().Content(), Bold: theme.DefaultTextBoldFont().Content()})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// demoWorkOrder is a work order of the demo world with a procedure, at a
// customer billing in currency.
func demoWorkOrder(t *testing.T, currency string) api.WorkOrder {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Seed: 7, WorkOrders: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	wo, err := sb.CreateWorkOrder(sandbox.WorkOrderSpec{Status: api.StatusAccepted, Currency: currency, Procedure: sandbox.ProcedureEditable})
	if err != nil {
		t.Fatal(err)
	}
	return wo
}

// TestJobSheetHoldsTheWork: the sheet's text (as pdftotext reads it) has
// the number, the customer, the site, the NTE in its currency, and every
// step of every procedure, names such as "Köln" and "¥" included.
func TestJobSheetHoldsTheWork(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	for _, cur := range []string{"JPY", "EUR", "USD"} {
		t.Run(cur, func(t *testing.T) {
			wo := demoWorkOrder(t, cur)
			if cur == "EUR" {
				// A name PDF's built-in fonts could not print.
				wo.Contact = &api.Contact{FullName: "Jürgen Groß-Ødegård", Phones: []string{"+49 221 5555 0500"}}
			}
			var buf bytes.Buffer
			if err := jobsheet.Write(&buf, &wo, jobsheet.Options{Fonts: fonts(t), Printed: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "sheet.pdf")
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(string(out)), " ")
			want := []string{wo.WorkOrderNumber, wo.Customer.Name, wo.SiteName(), wo.Nte.Amount.In(cur).Format()}
			if wo.Contact != nil {
				want = append(want, wo.Contact.FullName)
			}
			if len(wo.Procedures()) == 0 {
				t.Fatal("the demo work order has no procedure: the test would test nothing")
			}
			for _, p := range wo.Procedures() {
				want = append(want, p.Name)
				for _, s := range p.Steps {
					want = append(want, s.Label)
				}
			}
			for _, w := range want {
				if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("the sheet lacks %q; it reads:\n%s", w, out)
				}
			}
			pages, _ := exec.Command("pdfinfo", path).Output()
			if f := strings.Fields(string(pages)); !slices.Contains([]string{"Pages: 1", "Pages: 2"}, pagesLine(f)) {
				t.Errorf("not one or two pages:\n%s", pages)
			}
		})
	}
}

// TestJobSheetPicture renders a demo work order's sheet to PNG with
// pdftoppm into docs/notes, to be looked at (JOBSHEET_PNG=1).
func TestJobSheetPicture(t *testing.T) {
	if os.Getenv("JOBSHEET_PNG") == "" {
		t.Skip("set JOBSHEET_PNG=1 to render docs/notes/job-sheet-*.png")
	}
	wo := demoWorkOrder(t, "JPY")
	// A store of the Japanese customer as the window shows it (A09).
	wo.ServiceLocation = &api.ServiceLocation{SpaceName: "さくらマート 梅田店",
		Address: &api.Address{Street1: "北区梅田1-9-20", City: "大阪市", PostalCode: "530-0001", Country: "JP"}}
	long := demoWorkOrder(t, "EUR")
	// A work order with four procedures runs onto a second page.
	for range 3 {
		long.WorkDetails.Procedures = append(long.WorkDetails.Procedures, long.WorkDetails.Procedures[0])
	}
	for name, w := range map[string]*api.WorkOrder{"job-sheet": &wo, "job-sheet-long": &long} {
		var buf bytes.Buffer
		opts := jobsheet.Options{Fonts: fonts(t), Printed: time.Now(), AssignedKnown: true,
			Assigned: []api.Associate{{Id: 7101, Name: "Haruto Kimura"}}, AccessNote: "Gate code 4471; the key safe is left of the loading dock."}
		if err := jobsheet.Write(&buf, w, opts); err != nil {
			t.Fatal(err)
		}
		pdf := filepath.Join(t.TempDir(), name+".pdf")
		if err := os.WriteFile(pdf, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("pdftoppm", "-png", "-r", "80", pdf, "../docs/notes/"+name).CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		t.Logf("%s: %d bytes of PDF", name, buf.Len())
	}
}

// pagesLine is pdfinfo's "Pages: N", its spaces squeezed.
func pagesLine(fields []string) string {
	for i, f := range fields {
		if f == "Pages:" && i+1 < len(fields) {
			return f + " " + fields[i+1]
		}
	}
	return ""
}

func TestJobSheetWithoutFontsSaysSo(t *testing.T) {
	wo := api.WorkOrder{WorkOrderNumber: "X1"}
	if err := jobsheet.Write(&bytes.Buffer{}, &wo, jobsheet.Options{}); err == nil {
		t.Error("a sheet without fonts was written")
	}
}
