package realwindow

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/hub"
	"github.com/workorderdesk/workdesk/hub/pgtest"
)

// TestRealWindowTwoOfficeWindows runs two copies of the app in office mode,
// side by side on the screen, against an in-process hub on a real
// PostgreSQL (the sandbox as the service): Ana accepts a new work order in
// the left window and the right one, Ben's, shows it without a sync: his
// list marks it with her initials, its header says "Ana Ruiz accepted
// this" and its Activity tab "Ana Ruiz accepted". With
// WORKDESK_OFFICE_SHOT=FILE the screen is kept there as the README's
// picture (make office-shot; a 1920x1080 screen, each window 960 wide).
func TestRealWindowTwoOfficeWindows(t *testing.T) {
	t.Parallel()
	scr := newScreen(t, "1920x1080")
	cluster, err := pgtest.Start()
	if err != nil {
		if os.Getenv("PGTEST_REQUIRED") != "" {
			t.Fatal(err)
		}
		t.Skipf("no PostgreSQL cluster: %v", err)
	}
	t.Cleanup(cluster.Stop)
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	sb, err := sandbox.New(sandbox.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	svc := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { svc.Close(); sb.Close() })
	info := sb.InfoFor(svc.URL)
	db, err := hub.OpenDB(ctx, cluster.NewDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	v, err := api.NewVerifier(info.CertPEM)
	if err != nil {
		t.Fatal(err)
	}
	h, err := hub.New(hub.Options{DB: db, Verifier: v, SyncEvery: time.Hour, Logger: quiet,
		Service: api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Handler())
	h.Start(ctx)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close(); h.Close() })
	// The customer dispatches a new work order just now.
	wo, err := sb.DispatchWorkOrder()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}

	open := func(name string) *app {
		creds, err := db.AddPerson(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return startWith(t, scr, []string{"--hub", srv.URL, "--window-size", "960x1080", "--data-dir", t.TempDir()},
			"WORKDESK_CLIENT_ID="+creds.ClientId, "WORKDESK_CLIENT_SECRET="+creds.ClientSecret)
	}
	ana, ben := open("Ana Ruiz"), open("Ben Okafor")
	ana.do("ready")
	ben.do("ready")
	ben.do("move 960 0")
	// Ben's list newest number first: the accept moves the work order
	// down a list sorted by the next deadline, out of view.
	ben.do("tap ^Number$")
	ben.do("tap ^Number$")
	number := "^" + regexp.QuoteMeta(wo.WorkOrderNumber) + "$"
	for _, a := range []*app{ana, ben} {
		a.do("tap " + number)
	}
	// A 960-pixel window shows the tabs as icons: Ctrl+9 is Activity.
	ben.do("shortcut ctrl+9")
	ana.shoot("office-before")

	ana.do("tap ^Accept$")
	var texts string
	for deadline := time.Now().Add(patience); ; time.Sleep(100 * time.Millisecond) {
		texts = ben.do("texts")
		// Ben has the work order open: its header says it, and its row
		// carries no initials (E01).
		if strings.Contains(texts, "Ana Ruiz accepted this") && strings.Contains(texts, "Ana Ruiz accepted |") {
			break
		}
		if time.Now().After(deadline) {
			ana.shoot("office-not-heard")
			t.Fatalf("Ben's window does not show Ana's accept: %s", texts)
		}
	}
	if !strings.Contains(texts, "Office · "+strings.TrimPrefix(srv.URL, "http://")+" · Ben Okafor") {
		t.Errorf("Ben's status bar does not say whose office window it is: %s", texts)
	}
	ana.shoot("office-ana-accepted")

	if out := os.Getenv("WORKDESK_OFFICE_SHOT"); out != "" {
		shot := filepath.Join(scr.shots, "office-two-windows.png")
		img, err := scr.capture()
		if err == nil {
			err = writePNG(shot, img)
		}
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if b, err := exec.Command("convert", shot, "-colors", "256", out).CombinedOutput(); err != nil {
			t.Fatalf("compressing the screenshot: %v: %s", err, b)
		}
		t.Logf("the two office windows: %s", out)
	}
}
