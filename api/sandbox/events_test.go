package sandbox

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// preconditions puts a work order in the state each action needs.
var actPreconditions = map[string]func(e *env) int64{
	api.ActionAccepted:               func(e *env) int64 { return e.setup("Northwind Retail", api.StatusNew, nil) },
	api.ActionRejected:               func(e *env) int64 { return e.setup("Northwind Retail", api.StatusNew, nil) },
	api.ActionCheckedIn:              func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionPaused:                 func(e *env) int64 { return e.setup("Northwind Retail", api.StatusCheckedIn, nil) },
	api.ActionCheckedOut:             func(e *env) int64 { return e.setup("Harbor Point Hotels", api.StatusCheckedIn, nil) },
	api.ActionNeedsCompletionDetails: func(e *env) int64 { return e.setup("Northwind Retail", api.StatusCheckedIn, nil) },
	api.ActionPutOnHold:              func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionReopened:               func(e *env) int64 { return e.setup("Northwind Retail", api.StatusOnHold, nil) },
	api.ActionRecalled:               func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionWorkVerified:           func(e *env) int64 { return e.setup("Northwind Retail", api.StatusCheckedOut, nil) },
	api.ActionNteChanged:             func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionQuoteChanged: func(e *env) int64 {
		return e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { o.wo.Nte.Quote = nil })
	},
	api.ActionSlaChanged:             func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionAppointmentInfoChanged: func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionMessageSent:            func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionAttachmentAdded:        func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionAttachmentRemoved: func(e *env) int64 {
		return e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { e.sb.st.gen.addAttachment(o, fixedNow) })
	},
	api.ActionCheckListUpdated:  func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionCheckListMigrated: func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionProcedureMarked: func(e *env) int64 {
		return e.setup("Northwind Retail", api.StatusAccepted, func(o *order) {
			e.sb.st.gen.addProcedures(o, 2, fixedNow) // the safety checklist allows N/A
			o.wo.WorkDetails.Procedures[0].AllowMarkNotApplicable = new(true)
		})
	},
	api.ActionProcedureUpdated:      func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionCompletionInfoChanged: func(e *env) int64 { return e.setup("Northwind Retail", api.StatusCheckedOut, nil) },
	api.ActionInvoiceStatusChanged: func(e *env) int64 {
		return e.setup("Northwind Retail", api.StatusCheckedOut, func(o *order) { e.sb.st.invoiceOf(o).Status = api.InvoiceSubmitted })
	},
	api.ActionInternalNoteChanged:    func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionFieldDescriptorUpdated: func(e *env) int64 { return e.setup("Harbor Point Hotels", api.StatusAccepted, nil) },
	api.ActionIsmStatusChanged:       func(e *env) int64 { return e.setup("Northwind Retail", api.StatusAccepted, nil) },
	api.ActionNewWorkOrder:           func(e *env) int64 { return 0 },
}

// TestActSendsEveryDocumentedNotification: the sandbox does each action of
// service-facts §9.3 and sends its notification with the documented body,
// signed, over the control API too.
func TestActSendsEveryDocumentedNotification(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.WorkOrders = 400 })
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	ctl := NewControl(e.info.BaseURL)
	ctl.HTTPClient = e.srv.Client()
	for i, action := range ActActions {
		t.Run(action, func(t *testing.T) {
			pre, ok := actPreconditions[action]
			if !ok {
				t.Fatalf("no precondition for %s", action)
			}
			id := pre(e)
			act := func() error { return e.sb.Act(id, action, ActOptions{}) }
			if i%2 == 1 {
				act = func() error { return ctl.Do(id, action, "") } // the control API
			}
			if err := act(); err != nil {
				t.Fatalf("Act: %v", err)
			}
			about := id
			if action == api.ActionNewWorkOrder || action == api.ActionFieldDescriptorUpdated {
				about = 0
			}
			d := rcv.wait(t, action, about)
			if got := d.header.Get("Event-Type"); got != action {
				t.Errorf("Event-Type %q", got)
			}
			want := reflect.TypeOf(api.NewEventBody(action))
			if got := reflect.TypeOf(d.event.Body); got != want {
				t.Fatalf("body %v, want %v", got, want)
			}
			var top map[string]json.RawMessage
			json.Unmarshal(d.body, &top)
			if len(top) < 2 {
				t.Errorf("the notification carries no body besides its header: %s", d.body)
			}
		})
	}
	// An action the world does not allow is refused and sends nothing.
	id := e.setup("Northwind Retail", api.StatusRejected, nil)
	before := len(rcv.deliveries())
	if err := e.sb.Act(id, api.ActionCheckedIn, ActOptions{}); err == nil {
		t.Fatal("checking in a rejected work order was acted")
	}
	if err := e.sb.Act(id, "SomethingNewer", ActOptions{}); err == nil || !strings.Contains(err.Error(), "does not act") {
		t.Fatalf("an unknown action: %v", err)
	}
	if len(rcv.deliveries()) != before {
		t.Fatal("a refused action sent a notification")
	}
}

// TestMessagesListsOnlyVisibilityAll: GET /api/messages returns the
// messages everyone sees, as documented; the others were posted all the
// same.
func TestMessagesListsOnlyVisibilityAll(t *testing.T) {
	e := newEnv(t)
	id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) { o.messages = nil })
	for _, v := range []api.MessageVisibility{api.VisibilityAll, api.VisibilityCruOnly, api.VisibilityCruLeads, api.VisibilityCruSubs, api.VisibilityNone, ""} {
		if err := e.client.SendMessage(e.ctx, &api.MessageRequest{WorkOrderId: id, Text: "to " + string(v), MessageVisibility: v}); err != nil {
			t.Fatal(err)
		}
	}
	msgs, err := e.client.ListMessages(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Text != "to All" || msgs[1].Text != "to " {
		t.Fatalf("listed %+v; want the two messages of visibility All", msgs)
	}
	e.sb.mu.RLock()
	held := len(e.sb.st.orders[id].messages)
	e.sb.mu.RUnlock()
	if held != 6 {
		t.Fatalf("the sandbox holds %d messages; want all 6 posted", held)
	}
}

// TestRenamedDialect: in the renamed dialect the reads without a
// published schema answer with other names, and the client fails open:
// flags unknown, lists refused with the keys named, links still found.
func TestRenamedDialect(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.Dialect = DialectRenamed })
	id := e.setup("Harbor Point Hotels", api.StatusCheckedIn, func(o *order) { e.sb.st.gen.addAttachment(o, fixedNow) })
	cs, err := e.client.GetCustomerSettings(e.ctx, 4102)
	if err != nil || cs.AllowBackdating.Known() || cs.RepairInfoRequired.Known() || len(cs.CustomFields) == 0 || cs.CustomFields[0].IsRequired.Known() {
		t.Fatalf("settings read through the renamed dialect: %+v, %v", cs, err)
	}
	pl, err := e.client.GetPriceList(e.ctx, id)
	if err != nil || pl.AllowProviderItems.Known() || pl.AllowPriceListItems.Known() || len(pl.Items) == 0 {
		t.Fatalf("price list: %+v, %v", pl, err)
	}
	if _, err := e.client.ListMessages(e.ctx, id); err == nil || !strings.Contains(err.Error(), "TextMessages") {
		t.Fatalf("messages under another key: %v", err)
	}
	_, err = e.client.ListAttachments(e.ctx, id)
	if err == nil || !strings.Contains(err.Error(), "keys Files, MessageId") {
		t.Fatalf("attachments under another key: %v", err)
	}
	e.sb.mu.RLock()
	file := e.sb.st.orders[id].files[0].meta.AttachmentId
	e.sb.mu.RUnlock()
	if link, err := e.client.AttachmentDownloadURL(e.ctx, id, file); err != nil || !strings.Contains(link.URL, "/files/") {
		t.Fatalf("a link under another name: %v, %v", link, err)
	}
	// Writes and the documented reads are the plain dialect's.
	if wos, err := e.client.GetWorkOrders(e.ctx, []int64{id}); err != nil || len(wos) != 1 {
		t.Fatalf("work orders: %v, %v", wos, err)
	}
}

// TestRenamedDialectSpeaksOnlyDeclaredReads: every answer the renamed
// dialect rewrites is a read some area's file declares (endpoints), so a
// route moved or renamed there cannot silently fall out of the dialect.
func TestRenamedDialectSpeaksOnlyDeclaredReads(t *testing.T) {
	t.Parallel()
	for p := range renamed {
		rt, ok := routeTable[p][http.MethodGet]
		if !ok || (rt.kind != kindRead && rt.kind != kindReadBody) {
			t.Errorf("the renamed dialect rewrites GET %s, which no area declares as a read", p)
		}
	}
}
