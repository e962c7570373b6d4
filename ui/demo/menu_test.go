package demo

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

var nwr = &api.WorkOrder{WorkOrderId: 73101, WorkOrderNumber: "NWR73101", Currency: "USD", Nte: api.Nte{Amount: api.MustMoney("500", "USD")}}

// TestTheCustomerActsOnTheOpenWorkOrder: each of the Customer menu's
// actions asks the sandbox to act on the work order shown, says in the
// status bar what the customer did, and with no work order open says to
// open one and asks nothing.
func TestTheCustomerActsOnTheOpenWorkOrder(t *testing.T) {
	for _, c := range []struct{ item, call, flash string }{
		{"Approve the quote", "approve quote 73101", "Quote approved on NWR73101"},
		{"Reject the quote", "reject quote 73101: Please itemise the parts and get a second supplier price", "Quote rejected on NWR73101"},
		{"Request a quote", "request quote 73101", "Quote requested on NWR73101"},
		{"Verify the work", `WorkVerified on 73101 ""`, "Work verified on NWR73101"},
		{"Authorize the invoice", `invoice 73101 Authorized ""`, "Invoice authorized on NWR73101"},
		{"Pay the invoice", `invoice 73101 Paid ""`, "Invoice paid on NWR73101"},
		{"Dispute the invoice", `invoice 73101 Disputed "Total exceeds the approved NTE"`, "Invoice disputed on NWR73101"},
		{"Send a message", `MessageSent on 73101 ""`, "Customer wrote on NWR73101"},
		{"Recall", `Recalled on 73101 "Sent to us twice; the other work order stays."`, "Recalled on NWR73101"},
	} {
		t.Run(c.item, func(t *testing.T) {
			f := newFake(t)
			f.choose(c.item)
			if len(f.sb.calls) != 0 || len(f.infos) != 1 || !strings.HasPrefix(f.infos[0], "No work order open: Open a work order first") {
				t.Errorf("with none open: asked %q, said %q", f.sb.calls, f.infos)
			}
			f.wo, f.infos = nwr, nil
			f.choose(c.item)
			if !slices.Equal(f.sb.calls, []string{c.call}) {
				t.Errorf("the sandbox was asked %q, want %q", f.sb.calls, c.call)
			}
			if want := c.flash + " — watch for the notification"; !slices.Equal(f.flashed, []string{want}) || len(f.infos) != 0 {
				t.Errorf("the window said %q and %q, want %q", f.flashed, f.infos, want)
			}
		})
	}
	f := newFake(t)
	f.choose("Dispatch a new work order")
	if !slices.Equal(f.sb.calls, []string{"dispatch"}) || !slices.Equal(f.flashed, []string{"New work order dispatched — watch for the notification"}) {
		t.Errorf("dispatching asked %q and said %q", f.sb.calls, f.flashed)
	}
}

// TestARefusalIsShownInTheSandboxsWords: what the sandbox refuses is
// told under a plain title, in its own words, and nothing is flashed.
func TestARefusalIsShownInTheSandboxsWords(t *testing.T) {
	f := newFake(t)
	f.wo = nwr
	f.sb.refuse = errors.New("the quote is not waiting for the customer")
	f.choose("Approve the quote")
	if len(f.infos) != 1 || !strings.HasPrefix(f.infos[0], "The customer could not do that: The quote is not waiting for the customer") || len(f.flashed) != 0 {
		t.Errorf("said %q, flashed %q", f.infos, f.flashed)
	}
}

// TestChangeTheNTE: Change the NTE… offers the work order's NTE, takes a
// new one in its currency (thousands separators allowed), and refuses,
// in plain words and asking nothing, an amount with more decimals than
// the currency has or below zero.
func TestChangeTheNTE(t *testing.T) {
	jpy := &api.WorkOrder{WorkOrderId: 5, WorkOrderNumber: "SMJ5", Currency: "JPY", Nte: api.Nte{Amount: api.MustMoney("48000", "JPY")}}
	for _, c := range []struct {
		wo         *api.WorkOrder
		offered    string
		typed      string
		call, info string
	}{
		{nwr, "500.00", "1,250.5", "set NTE 73101 to 1250.5", ""},
		{nwr, "500.00", "0", "set NTE 73101 to 0", ""},
		{nwr, "500.00", "12.345", "", `Not a valid NTE: "12.345" is not a valid USD amount: type a number with at most 2 decimals, or 0 for no limit.`},
		{nwr, "500.00", "-5", "", `Not a valid NTE: "-5" is not a valid USD amount: type a number with at most 2 decimals, or 0 for no limit.`},
		{jpy, "48000", "10.5", "", `Not a valid NTE: "10.5" is not a valid JPY amount: type a whole number, or 0 for no limit.`},
	} {
		f := newFake(t)
		f.wo = c.wo
		f.choose("Change the NTE…")
		var form *widget.Form
		viewtest.Walk(f.dialog(), func(o fyne.CanvasObject) {
			if x, ok := o.(*widget.Form); ok {
				form = x
			}
		})
		if form == nil || len(form.Items) != 1 || form.Items[0].Text != "New NTE ("+c.wo.Currency+", 0 = no limit)" {
			t.Errorf("the form is %+v", form)
		}
		var entry *dialogs.Entry
		viewtest.Walk(f.dialog(), func(o fyne.CanvasObject) {
			if e, ok := o.(*dialogs.Entry); ok {
				entry = e
			}
		})
		if entry == nil || entry.Text != c.offered {
			t.Fatalf("the form offers %+v, want %q", entry, c.offered)
		}
		entry.SetText(c.typed)
		f.tap("Change")
		var want []string
		if c.call != "" {
			want = []string{c.call}
		}
		if !slices.Equal(f.sb.calls, want) {
			t.Errorf("%q: the sandbox was asked %q, want %q", c.typed, f.sb.calls, want)
		}
		if c.info != "" && !slices.Equal(f.infos, []string{c.info}) {
			t.Errorf("%q: said %q, want %q", c.typed, f.infos, c.info)
		}
	}
}

// TestMarkAProcedureNA: Mark a procedure N/A… offers the work order's
// procedures by name and marks the one chosen; a work order without
// procedures says so.
func TestMarkAProcedureNA(t *testing.T) {
	f := newFake(t)
	f.wo = nwr
	f.choose("Mark a procedure N/A…")
	if !slices.Equal(f.infos, []string{"No procedures: This work order has no procedures to mark N/A."}) {
		t.Errorf("without procedures: said %q", f.infos)
	}
	wo := *nwr
	wo.WorkDetails = &api.WorkDetails{Procedures: []api.Procedure{{Id: 7, Name: "Safety"}, {Id: 8, Name: "Refrigeration", IsReadOnly: true}}}
	f.wo = &wo
	f.choose("Mark a procedure N/A…")
	var sel *widget.Select
	viewtest.Walk(f.dialog(), func(o fyne.CanvasObject) {
		if s, ok := o.(*widget.Select); ok {
			sel = s
		}
	})
	if sel == nil || !slices.Equal(sel.Options, []string{"Safety", "Refrigeration"}) || sel.Selected != "Safety" {
		t.Fatalf("the form offers %+v", sel)
	}
	sel.SetSelected("Refrigeration")
	f.tap("Mark N/A")
	if !slices.Equal(f.sb.calls, []string{"procedure 8 of 73101 N/A true read-only true"}) || !slices.Equal(f.flashed, []string{"Refrigeration marked N/A — watch for the notification"}) {
		t.Errorf("asked %q, said %q", f.sb.calls, f.flashed)
	}
}

// TestResetAsksFirst: File › Reset demo… forgets the demo's work only
// when the person confirms.
func TestResetAsksFirst(t *testing.T) {
	f := newFake(t)
	resets := 0
	ConfirmReset(f.Win, func() { resets++ })
	if got := viewtest.Texts(f.dialog()); !strings.Contains(got, "Resetting forgets every change") {
		t.Errorf("the question says %q", got)
	}
	f.tap("Cancel")
	if resets != 0 {
		t.Fatal("Cancel reset the demo")
	}
	ConfirmReset(f.Win, func() { resets++ })
	f.tap("Reset demo")
	if resets != 1 {
		t.Errorf("Reset demo reset it %d times", resets)
	}
}
