package doctor

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// TestDoctorContract: `workdesk doctor --contract` against the sandbox
// speaking our guesses exits 0; against the renamed dialect it names every
// renamed field and exits 1; --save writes the answers with every id,
// name, text and link replaced; and nothing is written to the service.
func TestDoctorContract(t *testing.T) {
	for _, tc := range []struct {
		dialect sandbox.Dialect
		exit    int
	}{{sandbox.DialectPlain, 0}, {sandbox.DialectRenamed, 1}} {
		t.Run("dialect "+string(tc.dialect), func(t *testing.T) {
			sb, err := sandbox.New(sandbox.Options{Seed: 1, Dialect: tc.dialect})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { sb.Close() })
			var writes atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				p := strings.ToLower(r.URL.Path)
				if r.Method != http.MethodGet && p != "/oauth/token" && p != "/api/workorder/search" {
					writes.Add(1)
				}
				sb.Handler().ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			info := sb.InfoFor(srv.URL)
			t.Setenv("WORKDESK_BASE_URL", info.BaseURL)
			t.Setenv("WORKDESK_TOKEN_URL", info.TokenURL)
			t.Setenv("WORKDESK_CLIENT_ID", info.ClientID)
			t.Setenv("WORKDESK_CLIENT_SECRET", info.ClientSecret)
			t.Setenv("WORKDESK_CERT", "")
			dir := filepath.Join(t.TempDir(), "saved")
			var out bytes.Buffer
			code := Run([]string{"--contract", "--save", dir}, &out)
			report := out.String()
			if code != tc.exit {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.exit, report)
			}
			// The reads, then the writes' shapes (none of them sent).
			reads, shapes, ok := strings.Cut(report, "The writes the app sends")
			if !ok {
				t.Fatalf("the report shows no write's shape:\n%s", report)
			}
			// Every read the app relies on, the newest calls included, was
			// made (ok, note or FAIL: never skipped against the sandbox).
			for _, call := range []string{"POST /api/workOrder/search", "GET /api/workOrder?", "GET /api/customerSettings?", "GET /api/invoice?",
				"GET /api/invoice/pricelist?", "GET /api/messages?", "GET /api/workOrder/noteHistory?", "GET /api/invoice/attachments?",
				"GET /api/invoice/attachments/GetDownloadUrl?", "GET /api/associates?", "GET /api/attachments?", "GET /api/attachments/downloadUrl?",
				"GET /api/procedure?", "GET /api/procedure/step?", "GET /api/procedure/step/attachments?", "GET /api/procedure/step/attachments/GetDownloadUrl/?"} {
				if !regexp.MustCompile(`(?m)^(ok  |note|FAIL)  ` + regexp.QuoteMeta(call)).MatchString(reads) {
					t.Errorf("the check did not read %s:\n%s", call, reads)
				}
			}
			// Every write the app sends, with the names of its body.
			for _, w := range []string{"PUT    /api/procedure/markAsNA", "MarkAsNa: true/false", "PUT    /api/workOrder/note", "InternalNote: text",
				"PUT    /api/bulk/assign", "AssociateIds: [number, …]", "PUT    /api/invoice ", "InvoiceNumber: text", "POST   /api/procedure/step/attachments",
				"DELETE /api/procedure/step/attachments/", "PUT    /api/workOrder/checkOut", "Comment?: text"} {
				if !strings.Contains(shapes, w) {
					t.Errorf("the writes' shapes do not show %q:\n%s", w, shapes)
				}
			}
			if tc.dialect == sandbox.DialectRenamed {
				for _, r := range sandbox.RenamedFields() {
					old, renamedTo, isRename := strings.Cut(r, " → ")
					if !isRename {
						old = strings.TrimSuffix(r, " dropped")
					}
					// Each by its own name, as a field of the answer: not
					// inside another name, nor in the writes' shapes.
					name := func(n string) *regexp.Regexp {
						return regexp.MustCompile(`(^|[ .:\]])` + regexp.QuoteMeta(n) + `(,|$|\n| )`)
					}
					if !name(old).MatchString(reads) || isRename && !name(renamedTo).MatchString(reads) {
						t.Errorf("the report does not name %s:\n%s", r, reads)
					}
				}
			} else if strings.Contains(report, "FAIL") {
				t.Errorf("the sandbox speaking our guesses failed the check:\n%s", report)
			}
			if n := writes.Load(); n != 0 {
				t.Errorf("the check wrote to the service %d times", n)
			}

			files, err := os.ReadDir(dir)
			if err != nil || len(files) < 10 {
				t.Fatalf("saved %d files, %v", len(files), err)
			}
			secrets := []string{info.ClientID, info.ClientSecret, "Harbor Point", "Northwind", "/files/"}
			// The world's work order ids (seed 1) are 27796xxx: as a whole
			// number, not inside a longer one, nor in the fraction of a
			// time's seconds, which is kept (".127796..." once failed this).
			workOrderID := regexp.MustCompile(`(^|[^0-9.])27796[0-9]{3}([^0-9]|$)`)
			for _, f := range files {
				b, err := os.ReadFile(filepath.Join(dir, f.Name()))
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range secrets {
					if strings.Contains(string(b), s) {
						t.Errorf("%s keeps %q", f.Name(), s)
					}
				}
				if id := workOrderID.Find(b); id != nil {
					t.Errorf("%s keeps a work order id: %q", f.Name(), id)
				}
			}
		})
	}
}
