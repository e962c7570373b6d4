package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/api"
)

// deskTheme is the default theme with the brand blue as primary colour,
// slightly tighter padding so a dense table still breathes, and a variant
// the person picks (light unless they chose dark: a light office screen is
// what most customers demo on, and Xvfb reports no preference).
type deskTheme struct {
	fyne.Theme
	dark bool
}

func newTheme(dark bool) fyne.Theme { return deskTheme{Theme: theme.DefaultTheme(), dark: dark} }

var brandBlue = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff}

func (t deskTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	v := theme.VariantLight
	if t.dark {
		v = theme.VariantDark
	}
	switch n {
	case theme.ColorNamePrimary, theme.ColorNameFocus:
		if n == theme.ColorNameFocus {
			return color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0x55}
		}
		return brandBlue
	case theme.ColorNameSelection:
		return color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0x30}
	case theme.ColorNamePlaceHolder:
		if t.dark {
			// Fyne's dark placeholder is nearly as bright as typed text, so
			// an empty field looked filled in.
			return color.NRGBA{R: 0x80, G: 0x86, B: 0x8e, A: 0xff}
		}
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

// Badge colours: one per QuoteStatus and per work order status group, chosen
// to read on both light and dark backgrounds with white text.
var (
	colRequested = color.NRGBA{R: 0xd9, G: 0x7a, B: 0x06, A: 0xff} // amber: the customer waits for us
	colSubmitted = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff} // blue: we wait for the customer
	colApproved  = color.NRGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff} // green
	colRejected  = color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff} // red
	colNeutral   = color.NRGBA{R: 0x6e, G: 0x77, B: 0x81, A: 0xff} // grey
	colActive    = color.NRGBA{R: 0x82, G: 0x50, B: 0xdf, A: 0xff} // purple: on site
)

func quoteColor(q api.QuoteStatus) color.Color {
	switch q {
	case api.QuoteRequested:
		return colRequested
	case api.QuoteSubmitted:
		return colSubmitted
	case api.QuoteApproved:
		return colApproved
	case api.QuoteRejected:
		return colRejected
	}
	return color.Transparent
}

func statusColor(s api.WorkOrderStatus) color.Color {
	switch s {
	case api.StatusNew:
		return colRequested
	case api.StatusAccepted:
		return colSubmitted
	case api.StatusCheckedIn, api.StatusPaused:
		return colActive
	case api.StatusCheckedOut, api.StatusVerified:
		return colApproved
	case api.StatusRejected, api.StatusRecalled:
		return colRejected
	}
	return colNeutral
}
