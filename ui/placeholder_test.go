package ui

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
	"github.com/workorderdesk/workdesk/ui/quote"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// placeholders are the placeholders of the entries under o.
func placeholders(o fyne.CanvasObject) []string {
	var out []string
	walk(o, func(c fyne.CanvasObject) {
		switch e := c.(type) {
		case *dialogs.Entry:
			out = append(out, e.PlaceHolder)
		case *widget.Entry:
			out = append(out, e.PlaceHolder)
		}
	})
	return out
}

// example is what a placeholder offers to type: after "e.g. ", up to the
// first space.
func example(placeholder string) (string, bool) {
	s, ok := strings.CutPrefix(placeholder, "e.g. ")
	if !ok {
		return "", false
	}
	return strings.Fields(s)[0], true
}

// exampleURL checks that an example address names no real service: only
// the names kept for examples (example.com, .example, .test).
func exampleURL(t *testing.T, raw string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("the example %q is not an address: %v", raw, err)
	}
	h := u.Hostname()
	if h != "example.com" && !strings.HasSuffix(h, ".example.com") && !strings.HasSuffix(h, ".example") && !strings.HasSuffix(h, ".test") {
		t.Errorf("the example %q names a real host", raw)
	}
}

// TestPlaceholdersAreExamplesTheFormTakes: every example a placeholder
// offers is one its form accepts, and no example address is a real one:
// the connection dialog's addresses, the office hub's, the quote amount
// (above the NTE of the work order open, as a quote must be), the invoice
// number, date and discount.
func TestPlaceholdersAreExamplesTheFormTakes(t *testing.T) {
	h := newHarness(t)

	h.menuItem("Live connection…").Action()
	var urls []string
	for _, p := range placeholders(h.win.Canvas().Overlays().Top()) {
		if ex, ok := example(p); ok && strings.HasPrefix(ex, "http") {
			exampleURL(t, ex)
			urls = append(urls, ex)
		}
	}
	if len(urls) != 2 {
		t.Fatalf("the connection dialog gives %d example addresses (%q), want the base and token URLs", len(urls), urls)
	}
	live := settings.Live{BaseURL: urls[0], TokenURL: urls[1], ClientID: "given", SyncEvery: 5 * time.Minute}
	if err := live.Validate(); err != nil {
		t.Errorf("the connection dialog's examples are refused: %v", err)
	}
	h.dismissOverlays()

	h.desk.settings.ShowOffice()
	hubs := 0
	for _, p := range placeholders(h.win.Canvas().Overlays().Top()) {
		if ex, ok := example(p); ok && strings.HasPrefix(ex, "http") {
			hubs++
			exampleURL(t, ex)
			if err := storage.CheckHubURL(ex, false); err != nil {
				t.Errorf("the hub example %q is refused: %v", ex, err)
			}
		}
	}
	if hubs != 1 {
		t.Errorf("the office hub dialog gives %d example addresses", hubs)
	}
	h.dismissOverlays()

	quotes := 0
	seen := map[string]bool{} // one work order per currency, and one without an NTE
	for _, r := range h.rows() {
		wo := h.woOf(r)
		kind := wo.Currency
		if wo.Nte.NoLimit() {
			kind = "no limit"
		}
		if ok, _ := quote.Allowed(wo); !ok || seen[kind] {
			continue
		}
		seen[kind] = true
		h.open(r.Id)
		placeholder := quoteOf(h).amount().PlaceHolder
		ex, ok := example(placeholder)
		if !ok {
			t.Fatalf("the quote amount's placeholder %q offers no example", placeholder)
		}
		m, err := api.NewMoney(ex, wo.Currency)
		if err == nil {
			err = wo.CheckQuote(m, "the pump needs replacing", nil, false)
		}
		if err != nil {
			t.Errorf("%s (NTE %s): the quote example %q is refused: %v", r.Number, format.Nte(wo.Nte.Amount), ex, err)
		}
		quotes++
	}
	if quotes == 0 {
		t.Fatal("no work order of the demo takes a quote")
	}
	// The invoice's own: ui/invoice.
}

// woOf reads the work order of a list row.
func (h *harness) woOf(r storage.Row) *api.WorkOrder {
	h.t.Helper()
	wo, err := h.store.WorkOrder(context.Background(), r.Id)
	if err != nil {
		h.t.Fatal(err)
	}
	return wo
}
