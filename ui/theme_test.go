package ui

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/palette"
)

// appearanceChoice is an item of View › Appearance.
func appearanceChoice(h *harness, label string) *fyne.MenuItem {
	h.t.Helper()
	appearance := h.menuItem("Appearance")
	if appearance.ChildMenu == nil {
		h.t.Fatal("View › Appearance has no choices")
	}
	for _, it := range appearance.ChildMenu.Items {
		if it.Label == label {
			return it
		}
	}
	h.t.Fatalf("View › Appearance has no %q", label)
	return nil
}

func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r+g+b < 3*0x8000
}

// TestTheThemeFollowsTheSystemUnlessPicked: by default the window is light
// or dark as the system says (light where the system says nothing, as under
// Xvfb); View › Appearance pins Light or Dark, is remembered, and shows
// which is chosen. A dark mode switched on before the choice had three
// options is kept.
func TestTheThemeFollowsTheSystemUnlessPicked(t *testing.T) {
	bg := func(th fyne.Theme, system fyne.ThemeVariant) bool {
		return isDark(th.Color(theme.ColorNameBackground, system))
	}
	for _, c := range []struct {
		appearance string
		silent     bool
		system     fyne.ThemeVariant
		dark       bool
	}{
		{appearanceSystem, false, theme.VariantDark, true},
		{appearanceSystem, false, theme.VariantLight, false},
		{appearanceSystem, true, theme.VariantDark, false}, // Fyne reports dark when the system says nothing
		{appearanceLight, false, theme.VariantDark, false},
		{appearanceDark, false, theme.VariantLight, true},
	} {
		if got := bg(newTheme(c.appearance, c.silent), c.system); got != c.dark {
			t.Errorf("appearance %q (system silent %v) on a system variant %d is dark: %v, want %v", c.appearance, c.silent, c.system, got, c.dark)
		}
	}

	h := newHarness(t)
	prefs := h.desk.app.Preferences()
	if !appearanceChoice(h, "Follow the system").Checked {
		t.Error("a new window does not follow the system")
	}
	appearanceChoice(h, "Dark").Action()
	if !bg(h.desk.app.Settings().Theme(), theme.VariantLight) || !appearanceChoice(h, "Dark").Checked || appearanceChoice(h, "Follow the system").Checked {
		t.Error("picking Dark does not make a light system's window dark, or the menu does not show it")
	}
	if got := loadAppearance(prefs); got != appearanceDark {
		t.Errorf("the pick is remembered as %q", got)
	}
	appearanceChoice(h, "Follow the system").Action()
	if bg(h.desk.app.Settings().Theme(), theme.VariantLight) || !bg(h.desk.app.Settings().Theme(), theme.VariantDark) {
		t.Error("back on Follow the system, the window does not follow the system")
	}

	old := test.NewTempApp(t).Preferences()
	old.SetBool("view.dark", true)
	if got := loadAppearance(old); got != appearanceDark {
		t.Errorf("a dark mode switched on earlier loads as %q", got)
	}
}

// contrast is the WCAG contrast ratio of two opaque colours (a colour with
// alpha is first laid over bg).
func contrast(fg, bg color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		ch := func(v uint32) float64 {
			s := float64(v) / 0xffff
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
	}
	a, b := lum(over(fg, bg)), lum(bg)
	if a < b {
		a, b = b, a
	}
	return (a + 0.05) / (b + 0.05)
}

// over lays c over an opaque bg.
func over(c, bg color.Color) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	b := color.NRGBAModel.Convert(bg).(color.NRGBA)
	mix := func(x, y uint8) uint8 { return uint8((int(x)*int(n.A) + int(y)*(255-int(n.A))) / 255) }
	return color.NRGBA{R: mix(n.R, b.R), G: mix(n.G, b.G), B: mix(n.B, b.B), A: 0xff}
}

// TestHintTextReadsInLightAndDark: hints, placeholders and low-importance
// notes (Fyne draws them in the placeholder and disabled colours), and the
// warning, error and success words, read at 4.5:1 or more on every
// background they sit on, in both variants; muted text stays apart from
// the ordinary text.
func TestHintTextReadsInLightAndDark(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		th := newTheme(appearanceSystem, false)
		for _, fg := range []fyne.ThemeColorName{theme.ColorNamePlaceHolder, theme.ColorNameDisabled, theme.ColorNameWarning, theme.ColorNameError, theme.ColorNameSuccess, theme.ColorNameForeground} {
			for _, bg := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameOverlayBackground, theme.ColorNameHeaderBackground, theme.ColorNameInputBackground, theme.ColorNameMenuBackground, theme.ColorNameButton} {
				if r := contrast(th.Color(fg, v), th.Color(bg, v)); r < 4.5 {
					t.Errorf("variant %d: %s text on %s reads at %.2f:1, want 4.5:1", v, fg, bg, r)
				}
			}
		}
		if r := contrast(th.Color(theme.ColorNameForeground, v), th.Color(theme.ColorNamePlaceHolder, v)); r < 2 {
			t.Errorf("variant %d: a hint is hard to tell from typed text (%.2f:1)", v, r)
		}
	}
}

// TestAmberIsNeverGoodNews: amber (the badge amber, Fyne's warning colour)
// marks what waits on the office or is close to going wrong, never what
// went well: a checked-out or verified work order, an approved quote, an
// authorized or paid invoice, and the Quote
// tab's words about an approved quote are in other colours.
func TestAmberIsNeverGoodNews(t *testing.T) {
	good := map[string]color.Color{
		"checked out":        palette.Status(api.StatusCheckedOut),
		"verified":           palette.Status(api.StatusVerified),
		"approved quote":     palette.Quote(api.QuoteApproved),
		"authorized invoice": palette.Invoice(api.InvoiceAuthorized),
		"paid invoice":       palette.Invoice(api.InvoicePaid),
	}
	for what, c := range good {
		if c == palette.Requested {
			t.Errorf("a %s is drawn amber", what)
		}
	}
	// An invoice within its NTE: ui/invoice (TestNteGauge).

	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool { return r.QuoteStatus == api.QuoteApproved })
	h.open(r.Id)
	if l := quoteExplanation(h); l.Importance == widget.WarningImportance {
		t.Errorf("%s's approved quote is explained in amber: %q", r.Number, l.Text)
	}
	if r, ok := h.desk.list.Row(0); ok && r.QuoteStatus == "" {
		h.open(r.Id)
		if l := quoteExplanation(h); l.Importance == widget.WarningImportance {
			t.Errorf("%s, with no quote, has its NTE explained in amber: %q", r.Number, l.Text)
		}
	}
}
