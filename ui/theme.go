package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/ui/palette"
)

// deskTheme is the default theme with the brand blue as primary colour,
// slightly tighter padding so a dense table still breathes, text colours
// that read on every background of both variants, and the variant the
// system asks for unless the person picked one (View › Appearance).
type deskTheme struct {
	fyne.Theme
	appearance string // appearanceSystem, appearanceLight or appearanceDark
	// systemSilent: the system states no light/dark preference (Linux
	// without a session bus, such as Xvfb), where Fyne reports dark;
	// following the system then means light, as most offices run.
	systemSilent bool
}

// The choices of View › Appearance, as saved in the preferences.
const (
	appearanceSystem = ""
	appearanceLight  = "light"
	appearanceDark   = "dark"
)

func newTheme(appearance string, systemSilent bool) fyne.Theme {
	return deskTheme{Theme: theme.DefaultTheme(), appearance: appearance, systemSilent: systemSilent}
}

// loadAppearance is the person's pick, "" to follow the system. A dark
// mode switched on before the choice had three options still holds.
func loadAppearance(prefs fyne.Preferences) string {
	a := prefs.String("view.appearance")
	if a == appearanceSystem && prefs.Bool("view.dark") {
		return appearanceDark
	}
	return a
}

// Text colours chosen for contrast: the text and its muted form (hints,
// placeholders, disabled fields) read at 4.5:1 or more on every background
// of their variant (the window, dialogs, headers, fields, menus), and the
// warning, error and success words too. Fyne's own light "disabled" grey,
// which low-importance labels use, reads at 1.3:1 on white.
var (
	lightText    = color.NRGBA{R: 0x1f, G: 0x23, B: 0x28, A: 0xff}
	lightMuted   = color.NRGBA{R: 0x65, G: 0x6d, B: 0x76, A: 0xff}
	lightWarning = color.NRGBA{R: 0x8a, G: 0x5c, B: 0x00, A: 0xff}
	lightError   = color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff}
	lightSuccess = color.NRGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff}
	darkMuted    = color.NRGBA{R: 0x8b, G: 0x94, B: 0x9e, A: 0xff}
	darkWarning  = color.NRGBA{R: 0xd2, G: 0x99, B: 0x22, A: 0xff}
	darkError    = color.NRGBA{R: 0xff, G: 0x7b, B: 0x72, A: 0xff}
	darkSuccess  = color.NRGBA{R: 0x3f, G: 0xb9, B: 0x50, A: 0xff}
)

// variant is the variant shown: the person's pick, else the system's.
func (t deskTheme) variant(system fyne.ThemeVariant) fyne.ThemeVariant {
	switch {
	case t.appearance == appearanceLight:
		return theme.VariantLight
	case t.appearance == appearanceDark:
		return theme.VariantDark
	case t.systemSilent, system != theme.VariantDark: // Fyne's test driver says neither
		return theme.VariantLight
	}
	return system
}

func (t deskTheme) Color(n fyne.ThemeColorName, system fyne.ThemeVariant) color.Color {
	v := t.variant(system)
	dark := v == theme.VariantDark
	pick := func(light, dark_ color.Color) color.Color {
		if dark {
			return dark_
		}
		return light
	}
	switch n {
	case theme.ColorNamePrimary:
		return palette.Brand
	case theme.ColorNameFocus:
		// Blended over a focused button, select or check box: strong
		// enough to find at a glance where Tab went (Fyne's is a faint
		// tint), on the blue and red buttons too: it darkens them in light,
		// lightens them in dark (the window also rings it: focusRing).
		return pick(color.NRGBA{R: 0x0b, G: 0x2e, B: 0x6f, A: 0x66}, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0x4d})
	case theme.ColorNameSelection:
		return color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0x30}
	case theme.ColorNameForeground:
		if !dark {
			return lightText // Fyne's #565656 was too close to the muted grey
		}
	case theme.ColorNamePlaceHolder, theme.ColorNameDisabled:
		return pick(lightMuted, darkMuted)
	case theme.ColorNameWarning:
		return pick(lightWarning, darkWarning)
	case theme.ColorNameError:
		return pick(lightError, darkError)
	case theme.ColorNameSuccess:
		return pick(lightSuccess, darkSuccess)
	}
	return t.Theme.Color(n, v)
}

func (t deskTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNamePadding:
		return 4
	case theme.SizeNameInnerPadding:
		return 6
	}
	return t.Theme.Size(n)
}
