package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/api/sandbox/sandboxtest"
)

// TestDoctorChecksAConfigurationStepByStep runs `workdesk doctor`'s checks
// against the sandbox: a good configuration passes every step; a wrong
// secret, an unreachable token server and a broken certificate each fail
// the step they concern, in plain words, without showing the secret.
func TestDoctorChecksAConfigurationStepByStep(t *testing.T) {
	t.Parallel()
	info, cert := doctorSandbox(t)
	broken := filepath.Join(t.TempDir(), "broken.pem")
	os.WriteFile(broken, []byte("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"), 0o600)
	good := api.Connection{BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret, CertPath: cert}

	run := func(c api.Connection) (bool, map[string]api.Check) {
		steps := map[string]api.Check{}
		ok := api.Diagnose(context.Background(), c, nil, func(ch api.Check) { steps[ch.Name] = ch })
		for _, ch := range steps {
			if c.ClientSecret != "" && strings.Contains(ch.Detail, c.ClientSecret) {
				t.Fatalf("step %q shows the client secret", ch.Name)
			}
		}
		return ok, steps
	}

	ok, steps := run(good)
	if !ok || len(steps) != 5 {
		t.Fatalf("a good configuration: ok=%v, steps %+v", ok, steps)
	}
	if d := steps["Credentials accepted"].Detail; !strings.Contains(d, "expires_in 1200") {
		t.Errorf("credentials step says %q, want the token lifetime", d)
	}

	bad := good
	bad.ClientSecret = "not-the-secret"
	ok, steps = run(bad)
	if ok || steps["Credentials accepted"].OK || !steps["Token server reachable"].OK {
		t.Fatalf("a wrong secret: ok=%v, steps %+v", ok, steps)
	}

	away := good
	away.TokenURL = "http://127.0.0.1:1/oauth/token"
	ok, steps = run(away)
	if ok || steps["Token server reachable"].OK || steps["Work orders readable"].OK {
		t.Fatalf("an unreachable token server: ok=%v, steps %+v", ok, steps)
	}

	badCert := good
	badCert.CertPath = broken
	ok, steps = run(badCert)
	if ok || steps["Certificate"].OK || !steps["Work orders readable"].OK {
		t.Fatalf("a broken certificate: ok=%v, steps %+v", ok, steps)
	}

	// No certificate at all is allowed (sync still works) but is not the
	// tick of a verified certificate: a warning that notifications will not arrive.
	noCert := good
	noCert.CertPath = ""
	ok, steps = run(noCert)
	if c := steps["Certificate"]; !ok || !c.OK || !c.Warning || !strings.Contains(c.Detail, "notifications will not be received") {
		t.Fatalf("no certificate: ok=%v, step %+v", ok, c)
	}
	if steps["Work orders readable"].Warning {
		t.Fatalf("a passed step is marked as a warning: %+v", steps)
	}
}

// TestDoctorCommand runs `workdesk doctor` as a person would, configured
// through the environment: the exit status is 0 only when every step passed,
// and the output never shows the secret.
func TestDoctorCommand(t *testing.T) {
	info, cert := doctorSandbox(t)
	t.Setenv("WORKDESK_BASE_URL", info.BaseURL)
	t.Setenv("WORKDESK_TOKEN_URL", info.TokenURL)
	t.Setenv("WORKDESK_CLIENT_ID", info.ClientID)
	t.Setenv("WORKDESK_CERT", cert)

	for _, c := range []struct {
		name, secret string
		args         []string
		want         int
		says         string
	}{
		{"good configuration", info.ClientSecret, nil, 0, "All checks passed."},
		{"wrong secret", "not-the-secret", nil, 1, "FAIL  Credentials accepted"},
		{"flag overrides the environment", info.ClientSecret, []string{"--token-url", "http://127.0.0.1:1/token"}, 1, "FAIL  Token server reachable"},
		{"unknown flag", info.ClientSecret, []string{"--colour"}, 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("WORKDESK_CLIENT_SECRET", c.secret)
			var out strings.Builder
			if got := Run(c.args, &out); got != c.want {
				t.Errorf("exit status %d, want %d; output:\n%s", got, c.want, out.String())
			}
			if !strings.Contains(out.String(), c.says) {
				t.Errorf("output does not say %q:\n%s", c.says, out.String())
			}
			if strings.Contains(out.String(), info.ClientSecret) {
				t.Error("the output shows the client secret")
			}
		})
	}
}

// doctorSandbox serves a sandbox for the test and writes its certificate.
func doctorSandbox(t *testing.T) (info sandbox.ConnectionInfo, cert string) {
	t.Helper()
	sb := sandboxtest.New(t, sandboxtest.Seed(2), sandboxtest.RealClock())
	cert = filepath.Join(t.TempDir(), "cert.pem")
	if err := sb.WriteCert(cert); err != nil {
		t.Fatal(err)
	}
	return sb.Info, cert
}
