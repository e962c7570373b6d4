// Package palette is the colours that carry meaning on screen: the brand
// blue, the focus ring, and one colour per status group of a work order, a
// quote and an invoice, each chosen to read on light and dark backgrounds with white
// text on it.
package palette

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2/theme"

	"github.com/workorderdesk/workdesk/api"
)

// Brand is the app's blue, its theme's primary colour.
var Brand = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff}

// Row fills of the work order list: the open work order's, and one that
// needs attention soon's (a late one takes the theme's error colour).
var (
	OpenRow      = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0x38}
	AttentionRow = color.NRGBA{R: 0xd9, G: 0x7a, B: 0x06, A: 0x1c}
)

// Badge colours: one per QuoteStatus and per work order status group.
var (
	Requested = color.NRGBA{R: 0xd9, G: 0x7a, B: 0x06, A: 0xff} // amber: the customer waits for us
	Submitted = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xeb, A: 0xff} // blue: we wait for the customer
	Approved  = color.NRGBA{R: 0x1a, G: 0x7f, B: 0x37, A: 0xff} // green
	Rejected  = color.NRGBA{R: 0xcf, G: 0x22, B: 0x2e, A: 0xff} // red
	Neutral   = color.NRGBA{R: 0x6e, G: 0x77, B: 0x81, A: 0xff} // grey
	Active    = color.NRGBA{R: 0x82, G: 0x50, B: 0xdf, A: 0xff} // purple: on site
)

// Quote is a quote status's colour; transparent for none.
func Quote(q api.QuoteStatus) color.Color {
	switch q {
	case api.QuoteRequested:
		return Requested
	case api.QuoteSubmitted:
		return Submitted
	case api.QuoteApproved:
		return Approved
	case api.QuoteRejected:
		return Rejected
	}
	return color.Transparent
}

// Status is a work order status's colour.
func Status(s api.WorkOrderStatus) color.Color {
	if s.Closed() {
		return Rejected
	}
	switch s {
	case api.StatusNew:
		return Requested
	case api.StatusAccepted:
		return Submitted
	case api.StatusCheckedIn, api.StatusPaused:
		return Active
	case api.StatusCheckedOut, api.StatusVerified:
		return Approved
	}
	return Neutral
}

// Invoice is an invoice status's colour.
func Invoice(s api.InvoiceStatus) color.Color {
	switch s {
	case api.InvoiceSubmitted:
		return Submitted
	case api.InvoiceAuthorized, api.InvoicePaid:
		return Approved
	case api.InvoiceDisputed:
		return Rejected
	}
	return Neutral
}

// FocusRing is the ring around what has the keyboard (the window's ring,
// a dialog's focused button): it reads at 3:1 or more against the
// window's and the header's backgrounds of the variant shown, and apart
// from the brand blue of a default button it surrounds.
func FocusRing() color.Color {
	if dark(theme.Color(theme.ColorNameBackground)) {
		return color.NRGBA{R: 0xff, G: 0xd3, B: 0x3d, A: 0xff} // amber on dark grey
	}
	return color.NRGBA{R: 0x0b, G: 0x2e, B: 0x6f, A: 0xff} // navy on white
}

// dark reports whether c is a dark colour (relative luminance below 0.2).
func dark(c color.Color) bool { return luminance(c) < 0.2 }

// luminance is c's relative luminance (WCAG), 0 for black to 1 for white.
func luminance(c color.Color) float64 {
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
