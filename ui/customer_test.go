package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
)

func TestCustomerApprovalArrivesAsANotification(t *testing.T) {
	h := newHarness(t)
	r := h.rowWhere(func(r storage.Row) bool {
		// Sakura Mart Japan does not take quotes (3004).
		return r.Status == api.StatusAccepted && r.QuoteStatus == "" && !r.Nte.IsZero() && r.Customer != "Sakura Mart Japan"
	})
	h.open(r.Id)
	h.selectTab("Quote")
	q := h.desk.detail.tabs[1].(*quoteTab)
	raised := r.Nte.Amount.Mul(decimal.NewFromInt(2))
	q.amount.SetText(raised.StringFixed(int32(api.MinorUnits(r.Nte.Currency))))
	q.reason.SetText("Second compressor failed on inspection")
	test.Tap(q.submit)
	h.send()
	h.desk.changed([]int64{r.Id})

	want := api.Money{Amount: raised, Currency: r.Nte.Currency}
	test.AssertNotificationSent(t, fyne.NewNotification("Quote approved: "+r.Number, "The NTE is now "+want.Format()+"."), func() {
		h.menuItem("Approve the quote").Action()
		h.waitFor("the approval notification", func() bool { return h.desk.detail.quote.text.Text == "Quote Approved" })
	})
	if got := h.desk.detail.nte.Text; !strings.HasPrefix(got, want.Format()) {
		t.Errorf("after approval the header NTE reads %q, want %s", got, want.Format())
	}
	if !strings.Contains(h.desk.detail.tabs[1].(*quoteTab).explain.Text, "the customer must first reject") {
		t.Errorf("the quote tab does not explain that a new quote needs the customer's rejection: %q", q.explain.Text)
	}
}

func TestDispatchedWorkOrderAppearsInTheList(t *testing.T) {
	h := newHarness(t)
	before := h.desk.list.total
	h.menuItem("Dispatch a new work order").Action()
	h.waitFor("the new work order in the list", func() bool { return h.desk.list.total == before+1 })
}

func TestSavingSettingsPutsTheSecretOnlyInTheKeyring(t *testing.T) {
	keyring.MockInit()
	h := newHarness(t)
	h.desk.deps.Secrets = storage.NewSecrets()
	s := LiveSettings{BaseURL: "https://am-api.example.test/Direct/", TokenURL: "https://oauth.example.test/OAuth/Token",
		ClientID: "0123456789ABCDEF0123456789ABCDEF", SyncEvery: DefaultSyncEvery}
	const secret = "s3cr3t-Value-That-Must-Not-Leak"
	if err := h.desk.saveSettings(s, secret); err != nil {
		t.Fatal(err)
	}
	if got, err := keyring.Get(storage.AppID, s.ClientID); err != nil || got != secret {
		t.Fatalf("the keyring holds %q (%v), want the secret", got, err)
	}
	if got := LoadLiveSettings(h.desk.app.Preferences()); got != s {
		t.Errorf("settings read back as %+v, want %+v", got, s)
	}
	for _, key := range []string{prefBaseURL, prefTokenURL, prefClientID, prefCertPath} {
		if strings.Contains(h.desk.app.Preferences().String(key), secret) {
			t.Errorf("preference %s holds the secret", key)
		}
	}
	if v, ok, _ := h.store.Setting(context.Background(), "client_secret"); ok || strings.Contains(v, secret) {
		t.Error("the replica's settings hold the secret")
	}

	h.desk.showSettings()
	dlg := h.win.Canvas().Overlays().Top()
	if strings.Contains(strings.Join(texts(dlg), "\n"), secret) {
		t.Fatal("the settings dialog shows the saved secret")
	}
	var secretEntry *widget.Entry
	walk(dlg, func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.Password {
			secretEntry = e
		}
	})
	if secretEntry == nil || secretEntry.Text != "" || !strings.Contains(secretEntry.PlaceHolder, "saved in the system keyring") {
		t.Errorf("the secret field should be empty and say the secret is saved; got %+v", secretEntry)
	}
}

func TestSettingsRefuseBadInput(t *testing.T) {
	for _, c := range []struct {
		s    LiveSettings
		want string
	}{
		{LiveSettings{BaseURL: "am-api.corrigopro.com", TokenURL: "https://o/t", ClientID: "x", SyncEvery: DefaultSyncEvery}, "full address"},
		{LiveSettings{BaseURL: "https://a/", TokenURL: "https://o/t", SyncEvery: DefaultSyncEvery}, "client id is required"},
		{LiveSettings{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", SyncEvery: 5}, "30 seconds"},
		{LiveSettings{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", CertPath: "/no/such.pem", SyncEvery: DefaultSyncEvery}, "cannot be read"},
	} {
		err := c.s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want a message containing %q", c.s, err, c.want)
		}
	}
}
