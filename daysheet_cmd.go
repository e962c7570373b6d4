package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/daysheet"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/daysheetview"
	"github.com/workorderdesk/workdesk/ui/printing"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// What `workdesk daysheet` says, in one place.
const (
	daySheetNeedsName   = "daysheet: --technician NAME is required"
	daySheetNeedsOutput = "daysheet: give --pdf FILE, --ics FILE or both"
	daySheetBadFrom     = "daysheet: --from wants a day as YYYY-MM-DD, e.g. 2026-12-01"
	daySheetBadDays     = "daysheet: --days wants 1 to 31"
	daySheetBadPaper    = "daysheet: --paper wants A4 or Letter"
	daySheetNoReplica   = "daysheet: there is no replica at %s yet: open Work Order Desk once with these settings so that it syncs, or give --data-dir"
	daySheetWrote       = "%s → %s\n" // what the sheet holds, the files
)

// runDaySheet is `workdesk daysheet`: a technician's day sheet (PDF) and
// calendar (.ics) from the replica the window reads, for an office to
// send on a schedule. prefs are the window's preferences (its settings).
func runDaySheet(args []string, prefs fyne.Preferences, out, errOut io.Writer) int {
	fs := flag.NewFlagSet("daysheet", flag.ContinueOnError)
	fs.SetOutput(errOut)
	name := fs.String("technician", "", "the technician's `NAME` (as the dispatch board shows it)")
	from := fs.String("from", "", "the first day, `YYYY-MM-DD` (default: today)")
	days := fs.Int("days", 1, "how many `N` days from it (7: a week)")
	pdfPath := fs.String("pdf", "", "write the day sheet to `FILE` (PDF)")
	icsPath := fs.String("ics", "", "write the calendar to `FILE` (.ics)")
	dataDir := fs.String("data-dir", "", "the replicas are in `DIR`, as the window's --data-dir")
	paper := fs.String("paper", "", "A4 or Letter (default: the one last chosen in the window, else the region's)")
	note := fs.Bool("internal-note", false, "print each visit's internal note (gate codes, key safes) on the sheet and in the calendar")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if strings.TrimSpace(*name) == "" {
		fmt.Fprintln(errOut, daySheetNeedsName)
		return 2
	}
	if *pdfPath == "" && *icsPath == "" {
		fmt.Fprintln(errOut, daySheetNeedsOutput)
		return 2
	}
	first := time.Now()
	if *from != "" {
		t, err := time.ParseInLocation(time.DateOnly, *from, time.Local)
		if err != nil {
			fmt.Fprintln(errOut, daySheetBadFrom)
			return 2
		}
		first = t
	}
	if *days < 1 || *days > 31 {
		fmt.Fprintln(errOut, daySheetBadDays)
		return 2
	}
	chosen := printing.Paper(prefs)
	if *paper != "" {
		switch strings.ToLower(*paper) {
		case "a4":
			chosen = pdftext.A4
		case "letter":
			chosen = pdftext.Letter
		default:
			fmt.Fprintln(errOut, daySheetBadPaper)
			return 2
		}
	}

	ctx := context.Background()
	store, domain, closeStore, err := windowReplica(ctx, prefs, *dataDir)
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 1
	}
	defer closeStore()
	src := daysheetview.StoreSource(store)
	techs, err := src.Technicians(ctx)
	if err != nil {
		fmt.Fprintln(errOut, "daysheet:", err)
		return 1
	}
	tech, err := daysheetview.FindTechnician(techs, *name)
	if err != nil {
		fmt.Fprintln(errOut, "daysheet:", err)
		return 1
	}
	sheet, err := daysheetview.Sheet(ctx, src, tech, first, *days)
	if err != nil {
		fmt.Fprintln(errOut, "daysheet:", err)
		return 1
	}
	now := time.Now()
	var wrote []string
	if *pdfPath != "" {
		fonts, err := printing.Fonts()
		if err == nil {
			err = daysheet.WriteFile(*pdfPath, func(w io.Writer) error {
				return daysheet.WritePDF(w, sheet, daysheet.Options{Fonts: fonts, Paper: chosen, Printed: now, AccessNotes: *note})
			})
		}
		if err != nil {
			fmt.Fprintln(errOut, "daysheet:", err)
			return 1
		}
		wrote = append(wrote, *pdfPath)
	}
	if *icsPath != "" {
		err := daysheet.WriteFile(*icsPath, func(w io.Writer) error {
			return daysheet.WriteICS(w, sheet, daysheet.CalendarOptions{Now: now, Domain: domain, AccessNotes: *note})
		})
		if err != nil {
			fmt.Fprintln(errOut, "daysheet:", err)
			return 1
		}
		wrote = append(wrote, *icsPath)
	}
	fmt.Fprintf(out, daySheetWrote, strings.TrimSuffix(daysheetview.Describe(sheet), "."), strings.Join(wrote, ", "))
	return 0
}

// windowReplica opens the replica the window would open with these
// settings (session.launch): the office hub's when office mode is in use,
// the live service's when one is configured, else the demo's, which is
// made and synced first when the demo never ran. domain is the calendar
// UIDs' ("demo" for the demo's work orders).
func windowReplica(ctx context.Context, prefs fyne.Preferences, dataDir string) (store *storage.Store, domain string, closeStore func(), err error) {
	var path string
	switch office, live := settings.LoadOffice(prefs), settings.LoadLive(prefs); {
	case office.InUse && office.HubURL != "":
		clientID := office.ClientID
		if id, secret := os.Getenv("WORKDESK_CLIENT_ID"), os.Getenv("WORKDESK_CLIENT_SECRET"); id != "" && secret != "" {
			clientID = id
		}
		_, path, err = officeReplica(dataDir, office.HubURL, clientID)
	case live.Configured():
		path, err = replicaPath(dataDir, storage.ProfileForBaseURL(live.BaseURL))
	default:
		if path, err = replicaPath(dataDir, "demo"); err != nil {
			return nil, "", nil, err
		}
		if _, statErr := os.Stat(path); errors.Is(statErr, os.ErrNotExist) {
			// The demo never ran here: run it once, as the window would.
			b, err := startDemoIn(ctx, dataDir, sandbox.DialectPlain)
			if err != nil {
				return nil, "", nil, err
			}
			if err := b.SyncNow(ctx, nil); err != nil {
				b.Close()
				return nil, "", nil, err
			}
			return b.Store, "demo", b.Close, nil
		}
		domain = "demo"
	}
	if err != nil {
		return nil, "", nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, "", nil, fmt.Errorf(daySheetNoReplica, path)
	}
	eng, err := storage.OpenExistingEngine(ctx, path)
	if err != nil {
		return nil, "", nil, err
	}
	return eng.Store, domain, eng.Close, nil
}
