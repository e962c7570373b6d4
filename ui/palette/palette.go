// Package palette is the colours that carry meaning on screen: the brand
// blue, and one colour per status group of a work order, a quote and an
// invoice, each chosen to read on light and dark backgrounds with white
// text on it.
package palette

import (
	"image/color"

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
