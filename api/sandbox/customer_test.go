package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

func TestControlAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctl := NewControl(e.info.BaseURL)
	id := e.setup("Northwind Retail", api.StatusAccepted, func(o *order) {
		o.wo.Nte = api.Nte{Amount: api.MustMoney("400", "USD")}
	})
	if err := e.client.SubmitQuote(e.ctx, &api.QuoteRequest{WorkOrderId: id, Amount: api.MustMoney("900", "USD"), Comment: "Replace fan motor"}); err != nil {
		t.Fatal(err)
	}
	if err := ctl.ApproveQuote(id); err != nil {
		t.Fatal(err)
	}
	if w := e.read(id); !w.Nte.Amount.Amount.Equal(dec("900")) {
		t.Fatalf("NTE after approval over HTTP: %s", w.Nte.Amount.Amount)
	}
	err := ctl.ApproveQuote(id)
	if err == nil || !contains(err.Error(), "no submitted quote") {
		t.Fatalf("second approval: %v", err)
	}
	if err := ctl.RejectQuote(id, "changed our mind"); err != nil {
		t.Fatal(err)
	}
	if err := ctl.RequestQuote(id); err != nil {
		t.Fatal(err)
	}
	if err := ctl.SetNte(id, dec("1250.50")); err != nil {
		t.Fatal(err)
	}
	if w := e.read(id); !w.Nte.Amount.Amount.Equal(dec("1250.5")) || w.Nte.Quote.QuoteStatus != api.QuoteRequested {
		t.Fatalf("after control calls: %+v", w.Nte)
	}
	wo, err := ctl.DispatchWorkOrder()
	if err != nil || wo.Status != api.StatusNew || wo.WorkOrderId == 0 {
		t.Fatalf("dispatch: %+v %v", wo, err)
	}
	now, err := ctl.AdvanceClock(90 * time.Minute)
	if err != nil || !now.Equal(fixedNow.Add(90*time.Minute)) {
		t.Fatalf("clock: %v %v", now, err)
	}
	if did, err := ctl.CustomerTick(); err != nil || did == "" {
		t.Fatalf("tick: %q %v", did, err)
	}
	inv := e.setup("Harbor Point Hotels", api.StatusCheckedOut, func(o *order) {
		e.sb.st.invoiceOf(o).Status = api.InvoiceSubmitted
	})
	if err := ctl.SetInvoiceStatus(inv, api.InvoiceDisputed, "Missing sign-off sheet"); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.client.GetInvoice(e.ctx, inv); got.Status != api.InvoiceDisputed || got.Comment != "Missing sign-off sheet" {
		t.Fatalf("disputed invoice: %+v", got)
	}
	resp, err := http.Get(e.srv.URL + "/_sandbox/state?workOrderId=" + itoa(inv))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var state map[string]json.RawMessage
	if resp.StatusCode != 200 || json.Unmarshal(b, &state) != nil || state["Invoice"] == nil || state["WorkOrder"] == nil {
		t.Fatalf("state: %d %s", resp.StatusCode, b)
	}
}

func TestScriptedCustomerIsDeterministic(t *testing.T) {
	t.Parallel()
	run := func() []string {
		e := newEnv(t)
		var out []string
		for i := 0; i < 40; i++ {
			did, err := e.sb.CustomerTick()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, did)
		}
		return out
	}
	a, b := run(), run()
	kinds := map[string]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("tick %d differs: %q vs %q", i, a[i], b[i])
		}
		for _, k := range []string{"approved", "rejected", "authorized", "paid", "disputed", "requested", "raised", "dispatched"} {
			if len(a[i]) >= len(k) && a[i][:len(k)] == k {
				kinds[k] = true
			}
		}
	}
	if len(kinds) < 4 {
		t.Fatalf("the scripted customer does too little: %v", kinds)
	}
}

func TestStartServesAndWritesConfig(t *testing.T) {
	t.Parallel()
	sb, err := New(Options{Key: testKey(), CustomerEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	info, err := sb.Start(":0")
	if err != nil {
		t.Fatal(err)
	}
	if info.BaseURL == "" || info.TokenURL != info.BaseURL+"oauth/token" || len(info.ClientID) != 32 || info.ClientSecret == "" || len(info.CertPEM) == 0 {
		t.Fatalf("info %+v", info)
	}
	creds := api.NewClientCredentials(api.CredentialsConfig{TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret})
	c, _ := api.NewClient(info.BaseURL, nil, creds)
	wos, err := c.SearchWorkOrders(t.Context(), api.SearchParameters{})
	if err != nil || len(wos) != 72 {
		t.Fatalf("search against the started sandbox: %d %v", len(wos), err)
	}
	dir := t.TempDir()
	wrote, err := sb.WriteConfig(filepath.Join(dir, "sandbox.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sandbox.json"))
	var cfg FileConfig
	if err := json.Unmarshal(b, &cfg); err != nil || cfg.BaseURL != info.BaseURL || cfg.ClientSecret != info.ClientSecret || cfg != wrote {
		t.Fatalf("config %s, returned %+v", b, wrote)
	}
	if v, err := api.LoadVerifier(cfg.CertPath); err != nil || v == nil {
		t.Fatalf("certificate at cert_path: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "sandbox.json")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("config mode %v", fi.Mode())
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SearchWorkOrders(t.Context(), api.SearchParameters{}); err == nil {
		t.Fatal("still serving after Close")
	}
}

// TestControlMarkProcedureOverHTTP: POST /_sandbox/procedure marks a
// procedure as the customer would, and the contractor then sees it locked.
func TestControlMarkProcedureOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rcv := newReceiver(t, 0)
	e.sb.SetNotifyURL(rcv.srv.URL)
	ctl := NewControl(e.info.BaseURL)
	id, ref := e.editableStep("Northwind Retail", 0)
	if err := ctl.MarkProcedure(id, ref.ProcedureId, true, false); err != nil {
		t.Fatal(err)
	}
	if p := firstProcedure(e, id); !p.IsMarkedNa || p.IsReadOnly {
		t.Fatalf("after marking N/A over HTTP: %+v", p)
	}
	d := rcv.wait(t, api.ActionProcedureMarked, id)
	if b := d.event.Body.(*api.ProcedureMarkedEvent); b.ProcedureId != ref.ProcedureId || !b.IsMarkedNa {
		t.Fatalf("ProcedureMarked %s", d.body)
	}
	_, err := e.client.UploadStepAttachment(e.ctx, ref, textUpload("late.txt", "x"))
	wantCode(t, err, 3000)

	if err := ctl.MarkProcedure(id, ref.ProcedureId, false, true); err != nil {
		t.Fatal(err)
	}
	if p := firstProcedure(e, id); p.IsMarkedNa || !p.IsReadOnly {
		t.Fatalf("after marking read-only over HTTP: %+v", p)
	}
	// An unknown procedure is refused with the reason.
	if err := ctl.MarkProcedure(id, 1, true, false); err == nil || !contains(err.Error(), "not on work order") {
		t.Fatalf("unknown procedure: %v", err)
	}
}

// TestControlAPIAnswersLoopbackOnly: the control API needs no token, so a
// caller from another machine is refused (403) and changes nothing.
func TestControlAPIAnswersLoopbackOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, ref := e.editableStep("Northwind Retail", 0)
	body := `{"WorkOrderId": ` + itoa(id) + `, "ProcedureId": ` + itoa(ref.ProcedureId) + `, "IsMarkedNa": true}`
	for _, c := range []struct {
		remote string
		status int
	}{
		{"203.0.113.7:4711", http.StatusForbidden},
		{"[2001:db8::1]:4711", http.StatusForbidden},
		{"10.0.0.5:50000", http.StatusForbidden},
		{"[::1]:4711", http.StatusOK},
	} {
		req := httptest.NewRequest(http.MethodPost, "/_sandbox/procedure", strings.NewReader(body))
		req.RemoteAddr = c.remote
		rec := httptest.NewRecorder()
		e.sb.Handler().ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Fatalf("from %s: %d %s, want %d", c.remote, rec.Code, rec.Body, c.status)
		}
		if c.status == http.StatusForbidden {
			if !contains(rec.Body.String(), "loopback") {
				t.Errorf("from %s the refusal says %s", c.remote, rec.Body)
			}
			if firstProcedure(e, id).IsMarkedNa {
				t.Fatalf("a call from %s marked the procedure", c.remote)
			}
		}
	}
	if !firstProcedure(e, id).IsMarkedNa {
		t.Fatal("the loopback call did not mark the procedure")
	}
	// The state view is guarded too.
	req := httptest.NewRequest(http.MethodGet, "/_sandbox/state", nil)
	req.RemoteAddr = "203.0.113.7:4711"
	rec := httptest.NewRecorder()
	e.sb.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("state from a remote caller: %d", rec.Code)
	}
}

func firstProcedure(e *env, id int64) api.Procedure {
	e.t.Helper()
	w := e.read(id)
	return w.Procedures()[0]
}

// StopCustomer stops the scripted customer for good (a window under test
// that must hold still), and Close after it still ends the sandbox.
func TestStopCustomerHoldsTheWorldStill(t *testing.T) {
	t.Parallel()
	sb, err := New(Options{Key: testKey(), CustomerEvery: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	world := func() string {
		sb.mu.RLock()
		defer sb.mu.RUnlock()
		b, err := json.Marshal(sb.snapshot().Orders) // Steps comes from a map: in any order
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, err := sb.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	first := world()
	for deadline := time.Now().Add(10 * time.Second); world() == first; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scripted customer did nothing in 10 s at one tick a millisecond")
		}
	}
	sb.StopCustomer()
	stopped := world()
	time.Sleep(100 * time.Millisecond) // a hundred ticks' time
	if world() != stopped {
		t.Error("the world changed after StopCustomer")
	}
	sb.StopCustomer() // twice is harmless
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
}
