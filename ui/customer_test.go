package ui

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/shopspring/decimal"
	"github.com/zalando/go-keyring"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

func TestCustomerApprovalArrivesAsANotification(t *testing.T) {
	h := newHarness(t)
	r := h.create(sandbox.WorkOrderSpec{Customer: "Northwind Retail", Status: api.StatusAccepted}) // takes quotes
	h.open(r.Id)
	h.selectTab("Quote")
	q := quoteOf(h)
	raised := r.Nte.Amount.Mul(decimal.NewFromInt(2))
	q.amount().SetText(raised.StringFixed(int32(api.MinorUnits(r.Nte.Currency))))
	q.reason().SetText("Second compressor failed on inspection")
	test.Tap(q.submit())
	h.send()
	h.desk.changed([]int64{r.Id})

	want := api.Money{Amount: raised, Currency: r.Nte.Currency}
	test.AssertNotificationSent(t, fyne.NewNotification("Quote approved: "+r.Number, "The NTE is now "+format.Money(want)+"."), func() {
		h.menuItem("Approve the quote").Action()
		h.waitFor("the approval notification", func() bool { return h.desk.detail.quote.Text() == "Quote approved" })
	})
	if got := h.desk.detail.nte.Text; !strings.HasPrefix(got, format.Money(want)) {
		t.Errorf("after approval the header NTE reads %q, want %s", got, format.Money(want))
	}
	if says := q.says(); !strings.Contains(says, "the customer must first reject") {
		t.Errorf("the quote tab does not explain that a new quote needs the customer's rejection: %q", says)
	}
}

func TestDispatchedWorkOrderAppearsInTheList(t *testing.T) {
	h := newHarness(t)
	before := h.desk.list.Len()
	h.menuItem("Dispatch a new work order").Action()
	h.waitFor("the new work order in the list", func() bool { return h.desk.list.Len() == before+1 })
}

// TestSavingSettingsPutsTheSecretOnlyInTheKeyring fills File › Live
// connection… as a person does, presses Save, and looks for the secret
// everywhere the app writes: the keyring must hold it; the preferences,
// the replica's database and WAL files, the log and the reopened dialog
// must not.
func TestSavingSettingsPutsTheSecretOnlyInTheKeyring(t *testing.T) {
	keyring.MockInit()
	// The log is written on the window's background goroutines (the search
	// index it warms, the sender) while the test reads it.
	logs := &lockedBuffer{}
	prevLog := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prevLog) })
	h := newHarness(t)
	h.desk.deps.Secrets = storage.NewSecrets()
	const (
		baseURL  = "https://am-api.example.test/Direct/"
		tokenURL = "https://oauth.example.test/OAuth/Token"
		clientID = "0123456789ABCDEF0123456789ABCDEF"
		secret   = "s3cr3t-Value-That-Must-Not-Leak"
	)

	h.menuItem("Live connection…").Action()
	dlg := h.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("File › Live connection… opens no dialog")
	}
	test.Type(formEntry(t, dlg, "Base URL"), baseURL)
	test.Type(formEntry(t, dlg, "Token URL"), tokenURL)
	test.Type(formEntry(t, dlg, "Client id"), clientID)
	secretField := formEntry(t, dlg, "Client secret")
	if !secretField.Password {
		t.Fatal("the client secret field shows what is typed")
	}
	test.Type(secretField, secret)
	test.Tap(buttonIn(t, dlg, "Save"))
	h.flush() // the keyring is written off the main goroutine
	if top := h.win.Canvas().Overlays().Top(); top != nil {
		t.Fatalf("after Save a dialog is still open: %q", h.overlayText())
	}

	if got, err := keyring.Get(storage.AppID, clientID); err != nil || got != secret {
		t.Fatalf("the keyring holds %q (%v), want the secret", got, err)
	}
	prefs, ok := h.desk.app.Preferences().(interface{ ReadValues(func(map[string]any)) })
	if !ok {
		t.Fatal("cannot list the test app's preferences")
	}
	saved := false
	prefs.ReadValues(func(all map[string]any) {
		for k, v := range all {
			if strings.Contains(fmt.Sprint(v), secret) {
				t.Errorf("preference %s holds the secret", k)
			}
			saved = saved || fmt.Sprint(v) == clientID
		}
	})
	if !saved {
		t.Fatal("Save stored no settings: the client id is not in the preferences")
	}
	// Every file this test wrote: the replica, its -wal and -shm.
	var files []string
	root := filepath.Dir(t.TempDir())
	filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, filepath.Base(path))
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the secret", filepath.Base(path))
		}
		return nil
	})
	if !slices.Contains(files, "replica.db") || !slices.Contains(files, "replica.db-wal") {
		t.Fatalf("the replica's files were not found to search; found %v", files)
	}
	if strings.Contains(logs.String(), secret) {
		t.Error("the log holds the secret")
	}

	h.menuItem("Live connection…").Action()
	h.flush()
	dlg = h.win.Canvas().Overlays().Top()
	var shown []string
	walk(dlg, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Entry:
			shown = append(shown, w.Text, w.PlaceHolder)
		case *widget.Label:
			shown = append(shown, w.Text)
		case *widget.Button:
			shown = append(shown, w.Text)
		}
	})
	if strings.Contains(strings.Join(shown, "\n"), secret) {
		t.Fatal("the reopened settings dialog shows the saved secret")
	}
	if got := formEntry(t, dlg, "Client id").Text; got != clientID {
		t.Errorf("the reopened dialog shows client id %q, want the saved %q", got, clientID)
	}
	if f := formEntry(t, dlg, "Client secret"); f.Text != "" || !strings.Contains(f.PlaceHolder, "saved in the system keyring") {
		t.Errorf("the secret field should be empty and say the secret is saved; it holds %d characters and says %q", len(f.Text), f.PlaceHolder)
	}
}

// TestResetDemoAsksFirst: File › Reset demo forgets a demo that otherwise
// survives restarts, so it asks before it does.
func TestResetDemoAsksFirst(t *testing.T) {
	h := newHarness(t)
	resets := 0
	h.desk.deps.ResetDemo = func() { resets++ }
	h.win.SetMainMenu(h.desk.mainMenu())
	h.menuItem("Reset demo…").Action()
	if resets != 0 || !strings.Contains(h.overlayText(), "reset the demo?") {
		t.Fatalf("Reset demo did not ask first (resets %d, window says %q)", resets, h.overlayText())
	}
	test.Tap(buttonIn(t, h.win.Canvas().Overlays().Top(), "Reset demo"))
	if resets != 1 {
		t.Fatalf("confirming reset the demo %d times", resets)
	}
}

// lockedBuffer is a bytes.Buffer that goroutines write while another reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
