package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// badge is a small coloured pill with white text (quote and work order
// status). A queued badge shows the status the outbox's waiting actions
// will give, with a clock before its text: not yet the service's.
type badge struct {
	widget.BaseWidget
	bg     *canvas.Rectangle
	text   *canvas.Text
	clock  *canvas.Image
	queued bool
}

func newBadge() *badge {
	b := &badge{
		bg:    canvas.NewRectangle(color.Transparent),
		text:  canvas.NewText("", color.White),
		clock: canvas.NewImageFromResource(queuedClock()),
	}
	b.bg.CornerRadius = 9
	b.text.TextStyle = fyne.TextStyle{Bold: true}
	b.text.TextSize = theme.CaptionTextSize() + 1
	b.text.Alignment = fyne.TextAlignCenter
	b.clock.FillMode = canvas.ImageFillContain
	b.clock.Hide()
	b.ExtendBaseWidget(b)
	return b
}

// queuedClock marks a status still waiting in the outbox: a clock, white
// like the badge's text.
func queuedClock() fyne.Resource {
	return theme.NewColoredResource(theme.HistoryIcon(), theme.ColorNameForegroundOnPrimary)
}

// Set shows text on fill; an empty text hides the pill.
func (b *badge) Set(text string, fill color.Color) {
	if b.text.Text == text && b.bg.FillColor == fill {
		return
	}
	b.text.Text = text
	if text == "" {
		fill = color.Transparent
	}
	b.bg.FillColor = fill
	b.Refresh()
}

// SetQueued marks the status as one the waiting actions will give.
func (b *badge) SetQueued(on bool) {
	if b.queued == on {
		return
	}
	b.queued = on
	showIf(on, b.clock)
	b.Refresh()
}

func (b *badge) CreateRenderer() fyne.WidgetRenderer {
	return &badgeRenderer{b: b}
}

type badgeRenderer struct{ b *badge }

// clockWidth is the room the queued clock takes before the text, 0 without.
func (r *badgeRenderer) clockWidth(ts fyne.Size) float32 {
	if !r.b.queued {
		return 0
	}
	return ts.Height - 2
}

func (r *badgeRenderer) Layout(size fyne.Size) {
	ts := r.b.text.MinSize()
	cw := r.clockWidth(ts)
	w := ts.Width + 16 + cw
	h := ts.Height + 2
	pos := fyne.NewPos(0, (size.Height-h)/2)
	r.b.bg.Move(pos)
	r.b.bg.Resize(fyne.NewSize(w, h))
	r.b.clock.Move(pos.AddXY(6, 2))
	r.b.clock.Resize(fyne.NewSize(cw, h-4))
	r.b.text.Move(pos.AddXY(cw, 0))
	r.b.text.Resize(fyne.NewSize(w-cw, h))
}

func (r *badgeRenderer) MinSize() fyne.Size {
	ts := r.b.text.MinSize()
	return fyne.NewSize(ts.Width+16+r.clockWidth(ts), ts.Height+2)
}

func (r *badgeRenderer) Refresh() {
	r.b.bg.Refresh()
	r.b.text.Refresh()
	r.b.clock.Refresh()
	r.Layout(r.b.Size())
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.b.bg, r.b.clock, r.b.text}
}
func (r *badgeRenderer) Destroy() {}

// invoiceBadge is the header pill for where the work order's invoice stands
// once it has left the draft: the work order itself stays Checked out at the
// service while the customer verifies, authorizes, pays or disputes the
// invoice, so without it the header would not move on. "" (no pill) while
// the invoice is a draft or was never fetched.
func invoiceBadge(inv *api.Invoice) (string, color.Color) {
	if inv == nil || inv.Status == "" || inv.Status == api.InvoiceDraft {
		return "", nil
	}
	return "Invoice " + strings.ToLower(statusText(inv.Status)), invoiceStatusColor(inv.Status) // "Invoice disputed", as "Checked out"
}

// invoiceNextStep says, for a person, what the invoice's status means for
// them next; "" while it is a draft (or unknown), when the work order's own
// status says what to do. Its wording comes from invoiceWaits, as the
// Invoice tab's does.
func invoiceNextStep(inv *api.Invoice) string {
	if inv == nil {
		return ""
	}
	if inv.Status == api.InvoiceDisputed {
		s := "Invoice disputed: fix and resubmit"
		if r := strings.TrimSpace(inv.Comment); r != "" {
			s += ". The customer says: " + r
		}
		return s
	}
	waits := invoiceWaits(inv.Status)
	if waits == "" {
		return ""
	}
	s := "Invoice " + strings.ToLower(statusText(inv.Status))
	if inv.Status == api.InvoicePaid && inv.PaidDate != nil && !inv.PaidDate.IsZero() {
		s += " on " + localTime(*inv.PaidDate)
	}
	s += " — " + waits
	if inv.Status == api.InvoiceAuthorized && inv.AuthNumber != "" {
		s += " (authorization " + inv.AuthNumber + ")"
	}
	return s
}

// invoiceWaits says what an invoice that has left the contractor's hands
// waits for; "" for a status the contractor acts on (draft, disputed) or
// one it does not know.
func invoiceWaits(s api.InvoiceStatus) string {
	switch s {
	case api.InvoiceSubmitted:
		return "waiting for the customer to authorize it"
	case api.InvoicePendingVerification:
		return "waiting for the customer to verify the work"
	case api.InvoiceAuthorized:
		return "nothing more to do; payment follows"
	case api.InvoicePaid:
		return "nothing more to do"
	}
	return ""
}
