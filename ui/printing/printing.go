// Package printing is what the window's printed sheets share: the fonts
// they are set in (the window's own Noto Sans first, then a font for each
// script the text holds) and the paper a person chose. It takes no view's
// part: the job sheet and day sheet dialogs, and `workdesk daysheet`,
// each ask it.
package printing

import (
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"golang.org/x/text/language"

	"github.com/workorderdesk/workdesk/pdftext"
)

// Fonts is the set every sheet is set in, made once per process: the
// computer's fonts are looked for once, on the first sheet.
var Fonts = sync.OnceValues(func() (*pdftext.Set, error) {
	return pdftext.New(pdftext.Options{Regular: theme.DefaultTextFont().Content(), Bold: theme.DefaultTextBoldFont().Content()})
})

const prefPaper = "print.paper"

// letterRegions print on US Letter; the rest of the world on A4.
var letterRegions = []string{"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "CR", "PR", "DO", "SV", "PA"}

// DefaultPaper is the paper of the region locale names ("en-US",
// "en-Latn-US": Letter); A4 where it names none ("en": a guess of the
// region is no reason to leave A4, which most of the world uses).
func DefaultPaper(locale string) pdftext.Paper {
	tag, err := language.Parse(strings.ReplaceAll(locale, "_", "-"))
	if err != nil {
		return pdftext.A4
	}
	region, conf := tag.Region()
	if conf == language.Exact && slices.Contains(letterRegions, region.String()) {
		return pdftext.Letter
	}
	return pdftext.A4
}

// Paper is the paper the person last chose, else their region's.
func Paper(p fyne.Preferences) pdftext.Paper {
	if s := p.String(prefPaper); s != "" {
		return pdftext.Paper(s).OrA4()
	}
	return DefaultPaper(string(lang.SystemLocale()))
}

// SetPaper keeps the person's choice of paper for every sheet.
func SetPaper(p fyne.Preferences, paper pdftext.Paper) { p.SetString(prefPaper, string(paper.OrA4())) }

// Words a person reads here, in one place.
const (
	wordA4     = "A4"
	wordLetter = "Letter"
)

// PaperChoice is a choice of A4 or Letter, set to the person's last, that
// keeps what they choose; chosen reads it.
func PaperChoice(p fyne.Preferences) (choice *widget.RadioGroup, chosen func() pdftext.Paper) {
	papers := map[string]pdftext.Paper{wordA4: pdftext.A4, wordLetter: pdftext.Letter}
	choice = widget.NewRadioGroup([]string{wordA4, wordLetter}, func(s string) {
		if paper, ok := papers[s]; ok {
			SetPaper(p, paper)
		}
	})
	choice.Horizontal = true
	choice.Required = true
	if Paper(p) == pdftext.Letter {
		choice.Selected = wordLetter
	} else {
		choice.Selected = wordA4
	}
	return choice, func() pdftext.Paper { return papers[choice.Selected].OrA4() }
}
