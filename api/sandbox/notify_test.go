package sandbox

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func certKey(t *testing.T, certPEM []byte) *rsa.PublicKey {
	t.Helper()
	blk, _ := pem.Decode(certPEM)
	if blk == nil || blk.Type != "CERTIFICATE" {
		t.Fatal("CertPEM is not a PEM certificate")
	}
	cert, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return cert.PublicKey.(*rsa.PublicKey)
}

func TestNotificationsAreSigned(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	wo, err := e.sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	d := rcv.wait(t, api.ActionNewWorkOrder, wo.WorkOrderId)
	if got := d.header.Get("Event-Type"); got != api.ActionNewWorkOrder {
		t.Fatalf("Event-Type %q", got)
	}
	if got := d.header.Get("Content-Type"); got != "application/json; charset=utf-8" {
		t.Fatalf("Content-Type %q", got)
	}
	tok, ok := strings.CutPrefix(d.header.Get("Authorization"), "Bearer ")
	if !ok {
		t.Fatal("no bearer token")
	}
	claims, err := api.VerifyToken(certKey(t, e.info.CertPEM), api.SHA1, tok, e.sb.Clock().Now())
	if err != nil {
		t.Fatalf("notification token does not verify with the certificate: %v", err)
	}
	if aud, _ := claims.Claim("Aud"); aud != api.Audience {
		t.Fatal("audience")
	}
	// The package's own verifier (what the receiver uses) agrees.
	v, err := api.NewVerifier(e.info.CertPEM, api.WithClock(e.sb.Clock().Now))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(d.header.Get("Authorization")); err != nil {
		t.Fatalf("api.Verifier: %v", err)
	}
	h := d.event.Header
	if h.ApiVersion != "1.1" || h.MessageId == "" || h.BranchId == 0 || h.Sender == nil || h.Sender.Type != "Customer" || !h.ActionDate.Equal(fixedNow) {
		t.Fatalf("header %+v", h)
	}
	details := d.event.Body.(*api.NewWorkOrderEvent).Details
	if details.Status != api.StatusNew || details.Sla == nil || details.ServiceLocation == nil || details.WorkOrderNumber != wo.WorkOrderNumber {
		t.Fatalf("details %+v", details)
	}
	// The new order is also found by the sync loop's search.
	got, _ := e.client.SearchWorkOrders(e.ctx, api.SearchParameters{WorkOrderNumber: wo.WorkOrderNumber})
	if len(got) != 1 {
		t.Fatal("dispatched order not searchable")
	}
}

func TestNotificationRetriesInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 3) // down for the first three calls
	e.sb.SetNotifyURL(rcv.srv.URL)
	a := e.setup("Harbor Point Hotels", api.StatusAccepted, nil)
	if err := e.sb.SetNte(a, dec("750")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.DispatchWorkOrder(); err != nil {
		t.Fatal(err)
	}
	rcv.wait(t, api.ActionNteChanged, a)
	rcv.wait(t, api.ActionNewWorkOrder, 0)
	if got := rcv.actions(); len(got) != 2 || got[0] != api.ActionNteChanged || got[1] != api.ActionNewWorkOrder {
		t.Fatalf("delivery order %v", got)
	}
	// The receiver has both; the sender books the second success a moment later.
	deadline := time.Now().Add(5 * time.Second)
	for e.sb.NotifyStats().Queued > 0 && time.Now().Before(deadline) {
		sleepBriefly()
	}
	if st := e.sb.NotifyStats(); st.Attempts != 5 || st.Delivered != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestNotificationGivesUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.NotifyAttempts = 3 })
	rcv := newReceiver(t, 1000)
	e.sb.SetNotifyURL(rcv.srv.URL)
	id := e.setup("Harbor Point Hotels", api.StatusAccepted, nil)
	if err := e.sb.SetNte(id, dec("900")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for st := e.sb.NotifyStats(); st.Dead == 0 || st.Queued > 0; st = e.sb.NotifyStats() {
		if time.Now().After(deadline) {
			t.Fatalf("never gave up: %+v", e.sb.NotifyStats())
		}
		sleepBriefly()
	}
	if st := e.sb.NotifyStats(); st.Attempts != 3 || st.Queued != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestMarkProcedureNotifiesAndLocks: the customer marking a procedure N/A
// sends ProcedureMarked and the procedure's attachments stop being editable.
func TestMarkProcedureNotifiesAndLocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	var procID int64
	id := e.setup("Rheinland Offices", api.StatusAccepted, func(o *order) {
		e.sb.st.gen.addProcedures(o, 1, fixedNow)
		procID = o.wo.WorkDetails.Procedures[0].Id
	})
	if err := e.sb.MarkProcedure(id, procID, true, false); err != nil {
		t.Fatal(err)
	}
	d := rcv.wait(t, api.ActionProcedureMarked, id)
	if b := d.event.Body.(*api.ProcedureMarkedEvent); b.ProcedureId != procID || !b.IsMarkedNa {
		t.Fatalf("ProcedureMarked %s", d.body)
	}
	if w := e.read(id); !w.Procedures()[0].IsMarkedNa {
		t.Fatalf("procedure %+v", w.Procedures()[0])
	}
}

// TestNotificationRetrySpacing: while the receiver fails, the sandbox waits
// the configured intervals between attempts, in order, the last one
// repeating. The waits it asks for are recorded exactly; the receiver's own
// arrival times show each wait really separated the attempts.
func TestNotificationRetrySpacing(t *testing.T) {
	t.Parallel()
	intervals := []time.Duration{10 * time.Millisecond, 40 * time.Millisecond, 20 * time.Millisecond}
	e := newEnv(t, func(o *Options) { o.RetryIntervals = intervals })
	var mu sync.Mutex
	var waits []time.Duration
	n := e.sb.notify
	n.mu.Lock()
	n.wait = func(d time.Duration) bool {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return n.sleep(d)
	}
	n.mu.Unlock()
	rcv := newReceiver(t, 4) // the fifth attempt succeeds
	e.sb.SetNotifyURL(rcv.srv.URL)
	id := e.setup("Harbor Point Hotels", api.StatusAccepted, nil)
	if err := e.sb.SetNte(id, dec("640")); err != nil {
		t.Fatal(err)
	}
	rcv.wait(t, api.ActionNteChanged, id)

	want := []time.Duration{intervals[0], intervals[1], intervals[2], intervals[2]}
	mu.Lock()
	got := slices.Clone(waits)
	mu.Unlock()
	if !slices.Equal(got, want) {
		t.Fatalf("waits between attempts %v, want %v", got, want)
	}
	rcv.mu.Lock()
	stamps := slices.Clone(rcv.stamps)
	rcv.mu.Unlock()
	if len(stamps) != 5 {
		t.Fatalf("%d attempts reached the receiver, want 5", len(stamps))
	}
	for i := range want {
		if gap := stamps[i+1].Sub(stamps[i]); gap < want[i] {
			t.Errorf("attempt %d came %v after attempt %d; the interval is %v", i+2, gap, i+1, want[i])
		}
	}
}

// TestEventTypeHeaderIsTheAction: every notification carries an Event-Type
// header equal to its Header.Action, for each action the sandbox sends.
func TestEventTypeHeaderIsTheAction(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)

	rej := e.setup("Rheinland Offices", api.StatusNew, nil)
	if err := e.client.Reject(e.ctx, &api.RejectRequest{WorkOrderId: rej, Comment: "Outside our service area"}); err != nil {
		t.Fatal(err)
	}
	quote := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) {
		o.wo.Nte = api.Nte{Amount: api.MustMoney("300", "USD")}
	})
	if err := e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: quote, Amount: api.MustMoney("800", "USD"), Comment: "New compressor"}); err != nil {
		t.Fatal(err)
	}
	if err := e.sb.SetNte(quote, dec("450")); err != nil {
		t.Fatal(err)
	}
	inv := e.setup("Harbor Point Hotels", api.StatusCheckedOut, func(o *order) {
		e.sb.st.invoiceOf(o).Status = api.InvoiceSubmitted
	})
	if err := e.sb.SetInvoiceStatus(inv, api.InvoiceAuthorized, ""); err != nil {
		t.Fatal(err)
	}
	appt := e.setup("Rheinland Offices", api.StatusAccepted, nil)
	if err := e.client.UpdateAppointment(e.ctx, &api.AppointmentRequest{WorkOrderId: appt, ScheduledStart: fixedNow.Add(24 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	wo, err := e.sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	var procID int64
	marked := e.setup("Rheinland Offices", api.StatusAccepted, func(o *order) {
		e.sb.st.gen.addProcedures(o, 1, fixedNow)
		procID = o.wo.WorkDetails.Procedures[0].Id
	})
	if err := e.sb.MarkProcedure(marked, procID, false, true); err != nil {
		t.Fatal(err)
	}

	for action, id := range map[string]int64{
		api.ActionRejected: rej, api.ActionQuoteChanged: quote, api.ActionNteChanged: quote,
		api.ActionInvoiceStatusChanged: inv, api.ActionAppointmentInfoChanged: appt,
		api.ActionNewWorkOrder: wo.WorkOrderId, api.ActionProcedureMarked: marked,
	} {
		rcv.wait(t, action, id)
	}
	for _, d := range rcv.deliveries() {
		// Read Header.Action from the raw body, not through api.ParseEvent.
		var raw struct{ Header struct{ Action string } }
		if err := json.Unmarshal(d.body, &raw); err != nil || raw.Header.Action == "" {
			t.Fatalf("body without Header.Action: %s", d.body)
		}
		if got := d.header.Get("Event-Type"); got != raw.Header.Action {
			t.Errorf("Event-Type %q on a %q notification", got, raw.Header.Action)
		}
	}
}
