// Package daysheetview is the window's day sheet: a dialog that hands one
// technician their day or week as a PDF to print and a calendar file to
// import, opened from the dispatch board (a technician's row, a day) and
// from File › Day sheet…. It depends on Source alone (StoreSource reads
// the replica), so it is tested with a fake.
package daysheetview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	fynestorage "fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/daysheet"
	"github.com/workorderdesk/workdesk/export"
	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/printing"
)

// Options are what the dialog needs from whoever opens it.
type Options struct {
	Window fyne.Window
	Prefs  fyne.Preferences
	Now    func() time.Time // nil: time.Now
	// Background runs a read or a render off the main goroutine (nil: a
	// goroutine); Do hands its result back (nil: fyne.Do).
	Background func(func())
	Do         func(func())
	// OpenURL opens the PDF in the system's viewer (nil: the app's).
	OpenURL func(*url.URL) error
	// ShowFilePicker shows a save picker (nil: as Fyne sizes it).
	ShowFilePicker func(*dialog.FileDialog)
	// Domain ends the calendar's UIDs: "demo" in the demo (daysheet.UID).
	Domain string
}

func (o *Options) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Background == nil {
		o.Background = func(f func()) { go f() }
	}
	if o.Do == nil {
		o.Do = fyne.Do
	}
	if o.OpenURL == nil {
		o.OpenURL = fyne.CurrentApp().OpenURL
	}
	if o.ShowFilePicker == nil {
		o.ShowFilePicker = func(fd *dialog.FileDialog) { fd.Show() }
	}
	if o.Prefs == nil {
		o.Prefs = fyne.CurrentApp().Preferences()
	}
}

// Show opens the day sheet of tech (0: the first technician) for days
// days (1 or 7) from the day of from.
func Show(src Source, opts Options, tech int64, from time.Time, days int) *View {
	opts.defaults()
	v := &View{src: src, opts: opts}
	opts.Background(func() {
		techs, err := src.Technicians(context.Background())
		opts.Do(func() {
			if err != nil {
				dialogs.Error(err, opts.Window)
				return
			}
			if len(techs) == 0 {
				dialogs.Info(wordTitle, wordNoTechnicians, opts.Window)
				return
			}
			v.build(techs, tech, from, days)
		})
	})
	return v
}

// View is the dialog, once built.
type View struct {
	src  Source
	opts Options

	mu  sync.Mutex // guards ready, which tests wait on
	dlg dialog.Dialog

	techs    []api.Associate
	tech     *widget.Select
	from     *dialogs.Entry
	days     *widget.RadioGroup
	paperOf  func() pdftext.Paper
	note     *dialogs.Check
	count    *widget.Label
	status   *widget.Label
	buttons  []*widget.Button
	counting int // the count last asked for; older answers are dropped
}

func (v *View) build(techs []api.Associate, tech int64, from time.Time, days int) {
	v.techs = techs
	var names []string
	pick := 0
	for i, a := range techs {
		names = append(names, a.Name)
		if a.Id == tech {
			pick = i
		}
	}
	v.tech = widget.NewSelect(names, func(string) { v.recount() })
	v.tech.SetSelectedIndex(pick)
	v.from = dialogs.NewEntry() // Esc closes and Enter opens the sheet while it has the keyboard
	v.from.SetPlaceHolder(format.DayExample())
	v.from.SetText(format.Day(midnight(from))) // as every date of the window reads

	v.from.Validator = func(s string) error { _, err := v.day(s); return err }
	v.from.OnChanged = func(string) { v.recount() }
	v.days = widget.NewRadioGroup([]string{wordOneDay, wordWeek}, func(string) { v.recount() })
	v.days.Horizontal, v.days.Required = true, true
	v.days.Selected = wordOneDay
	if days > 1 {
		v.days.Selected = wordWeek
	}
	paperChoice, paper := printing.PaperChoice(v.opts.Prefs)
	v.paperOf = paper
	v.note = dialogs.NewCheck(wordNoteTick, nil)
	v.count = widget.NewLabel("")
	v.count.Wrapping = fyne.TextWrapWord
	v.status = widget.NewLabel("")
	v.status.Wrapping = fyne.TextWrapWord
	v.status.Hide()

	open := widget.NewButtonWithIcon(wordOpen, theme.DocumentPrintIcon(), v.openPDF)
	open.Importance = widget.HighImportance
	savePDF := widget.NewButtonWithIcon(wordSavePDF, theme.DocumentSaveIcon(), func() { v.pick(".pdf") })
	saveICS := widget.NewButtonWithIcon(wordSaveICS, theme.CalendarIcon(), func() { v.pick(".ics") })
	v.buttons = []*widget.Button{open, savePDF, saveICS}

	about := widget.NewLabel(wordAbout)
	about.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem(wordTechnician, v.tech),
		widget.NewFormItem(wordFrom, v.from),
		widget.NewFormItem(wordDays, v.days),
		widget.NewFormItem(wordPaper, paperChoice),
	)
	content := container.NewVBox(about, form, v.note, v.count, container.NewHBox(open, savePDF, saveICS), v.status)
	v.mu.Lock()
	v.dlg = dialogs.NewCustom(wordTitle, wordClose, content, v.opts.Window)
	v.mu.Unlock()
	v.dlg.Resize(fyne.NewSize(600, content.MinSize().Height+80))
	v.dlg.Show()
	v.recount()
}

// Ready reports whether the dialog is built (its technicians read).
func (v *View) Ready() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.dlg != nil
}

// day reads the From field.
func (v *View) day(s string) (time.Time, error) {
	t, err := format.ParseDay(s)
	if err != nil {
		return time.Time{}, fmt.Errorf(wordBadDate, format.Day(format.Now()))
	}
	return t, nil
}

// choice is what the dialog asks for now: whose sheet, which days.
type choice struct {
	tech api.Associate
	from time.Time
	days int
}

func (v *View) choice() (choice, error) {
	from, err := v.day(v.from.Text)
	if err != nil {
		return choice{}, err
	}
	i := v.tech.SelectedIndex()
	if i < 0 || i >= len(v.techs) {
		return choice{}, errors.New(wordNoTechnicians)
	}
	days := 1
	if v.days.Selected == wordWeek {
		days = 7
	}
	return choice{tech: v.techs[i], from: from, days: days}, nil
}

// recount says how many visits the sheet holds, read off the main
// goroutine.
func (v *View) recount() {
	if v.count == nil || v.days == nil || v.from == nil {
		return // still being built
	}
	c, err := v.choice()
	if err != nil {
		v.count.SetText(err.Error())
		return
	}
	v.counting++
	n := v.counting
	v.opts.Background(func() {
		sheet, err := Sheet(context.Background(), v.src, c.tech, c.from, c.days)
		v.opts.Do(func() {
			if n != v.counting {
				return
			}
			if err != nil {
				v.count.SetText(err.Error())
				return
			}
			v.count.SetText(Describe(sheet))
		})
	})
}

// Describe is the sheet in a line: "Kenji Sato, Tue 1 Dec 2026: 3 visits."
func Describe(s daysheet.Sheet) string {
	on, off := 0, 0
	for _, visit := range s.Visits {
		if visit.Off() {
			off++
		} else {
			on++
		}
	}
	days := s.From.Format(wordDayFormat)
	if s.Days > 1 {
		days += " – " + s.From.AddDate(0, 0, s.Days-1).Format(wordDayFormat)
	}
	n := wordNone
	switch {
	case on == 1:
		n = wordOne
	case on > 1:
		n = fmt.Sprintf(wordMany, on)
	}
	if off > 0 {
		n += fmt.Sprintf(wordOff, off)
	}
	return fmt.Sprintf(wordCount, s.Technician.Name, days, n)
}

func (v *View) say(text string, problem bool) {
	v.status.Importance = widget.MediumImportance
	if problem {
		v.status.Importance = widget.WarningImportance
	}
	v.status.SetText(text)
	v.status.Show()
}

func (v *View) busy(on bool) {
	for _, b := range v.buttons {
		if on {
			b.Disable()
		} else {
			b.Enable()
		}
	}
}

// fileName is the sheet's file name with ext: "Kenji Sato day sheet
// 2026-12-01.pdf", without the characters a file name may not hold.
func fileName(c choice, ext string) string {
	name := fmt.Sprintf(wordFileName, c.tech.Name, c.from.Format(time.DateOnly))
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) {
			return '-'
		}
		return r
	}, name) + ext
}

// render writes the sheet chosen as a PDF (ext ".pdf") or a calendar
// (".ics") to w.
func (v *View) render(ctx context.Context, c choice, ext string, paper pdftext.Paper, note bool, w io.Writer) error {
	sheet, err := Sheet(ctx, v.src, c.tech, c.from, c.days)
	if err != nil {
		return err
	}
	if ext == ".ics" {
		return daysheet.WriteICS(w, sheet, daysheet.CalendarOptions{Now: v.opts.Now(), Domain: v.opts.Domain, AccessNotes: note})
	}
	fonts, err := printing.Fonts()
	if err != nil {
		return err
	}
	return daysheet.WritePDF(w, sheet, daysheet.Options{Fonts: fonts, Paper: paper, Printed: v.opts.Now(), AccessNotes: note})
}

// openPDF writes the sheet to a file of its own and opens it in the
// system's PDF viewer, to print from there.
func (v *View) openPDF() {
	c, err := v.choice()
	if err != nil {
		v.say(err.Error(), true)
		return
	}
	paper, note := v.paperOf(), v.note.Checked
	v.busy(true)
	v.say(wordMaking, false)
	name := fileName(c, ".pdf")
	v.opts.Background(func() {
		err := func() error {
			var buf bytes.Buffer
			if err := v.render(context.Background(), c, ".pdf", paper, note, &buf); err != nil {
				return err
			}
			dir := filepath.Join(os.TempDir(), "workdesk-day-sheets")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				return err
			}
			if err := v.opts.OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}); err != nil {
				return fmt.Errorf(wordNoProgram, strings.TrimSuffix(err.Error(), "."), path)
			}
			return nil
		}()
		v.opts.Do(func() {
			v.busy(false)
			if err != nil {
				v.say(fmt.Sprintf(wordNotOpened, err), true)
				return
			}
			v.say(fmt.Sprintf(wordOpened, name), false)
		})
	})
}

// pick asks where to save the PDF or the calendar (ext), then saves it.
func (v *View) pick(ext string) {
	c, err := v.choice()
	if err != nil {
		v.say(err.Error(), true)
		return
	}
	fd := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			v.say(fmt.Sprintf(wordNotSaved, err), true)
			return
		}
		if w != nil {
			v.SaveTo(w, ext)
		}
	}, v.opts.Window)
	fd.SetFileName(fileName(c, ext))
	fd.SetFilter(fynestorage.NewExtensionFileFilter([]string{ext}))
	v.opts.ShowFilePicker(fd)
}

// SaveTo writes the sheet as the dialog has it to w, a PDF or a calendar
// by ext, and says where it went; a file it could not finish is removed.
func (v *View) SaveTo(w fyne.URIWriteCloser, ext string) {
	c, err := v.choice()
	if err != nil {
		w.Close()
		v.say(err.Error(), true)
		return
	}
	paper, note := v.paperOf(), v.note.Checked
	v.busy(true)
	v.say(wordSaving, false)
	uri := w.URI()
	v.opts.Background(func() {
		err := v.render(context.Background(), c, ext, paper, note, w)
		err = export.Finish(w, err, func() error { return fynestorage.Delete(uri) })
		v.opts.Do(func() {
			v.busy(false)
			if err != nil {
				v.say(fmt.Sprintf(wordNotSaved, err), true)
				return
			}
			where := uri.Name()
			if dir := filepath.Dir(uri.Path()); uri.Path() != "" && dir != "." {
				where = filepath.Join(dir, uri.Name())
			}
			v.say(fmt.Sprintf(wordSavedAs, where), false)
		})
	})
}
