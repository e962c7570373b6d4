package printing

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/pdftext"
)

func TestDefaultPaperIsTheRegions(t *testing.T) {
	for locale, want := range map[string]pdftext.Paper{
		"en-US": pdftext.Letter, "en_CA": pdftext.Letter, "es-MX": pdftext.Letter, "en-GB": pdftext.A4,
		"de-DE": pdftext.A4, "ja-JP": pdftext.A4, "en": pdftext.A4, "": pdftext.A4, "zh-Hans-CN": pdftext.A4,
		"en-Latn-US": pdftext.Letter, "not a locale": pdftext.A4,
	} {
		if got := DefaultPaper(locale); got != want {
			t.Errorf("%q: %s, want %s", locale, got, want)
		}
	}
}

// TestPaperChoiceIsKept: the paper a person picks is the one every sheet
// offers next, in any dialog.
func TestPaperChoiceIsKept(t *testing.T) {
	prefs := test.NewTempApp(t).Preferences()
	choice, chosen := PaperChoice(prefs)
	choice.SetSelected(wordLetter)
	if chosen() != pdftext.Letter || Paper(prefs) != pdftext.Letter {
		t.Fatalf("Letter chosen: %s, kept %s", chosen(), Paper(prefs))
	}
	again, chosenAgain := PaperChoice(prefs)
	if again.Selected != wordLetter || chosenAgain() != pdftext.Letter {
		t.Errorf("the next dialog offers %q", again.Selected)
	}
	again.SetSelected(wordA4)
	if Paper(prefs) != pdftext.A4 {
		t.Errorf("A4 chosen, kept %s", Paper(prefs))
	}
}

func TestFontsAreMadeOnce(t *testing.T) {
	a, err := Fonts()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fonts()
	if a != b {
		t.Error("a second set of fonts was made")
	}
}
