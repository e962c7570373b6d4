package cli

import (
	"bufio"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The server package's example settings (packaging/hub/hub.env) set only
// flags serve has, so an admin who uncomments a line gets what it says,
// and hold no secret; its unit hands the hub the credentials under the
// names serve reads.
func TestPackagedSettingsAreServesFlags(t *testing.T) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	newServeFlags(fs)
	known := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { known[envName(f.Name)] = true })

	f, err := os.Open("../../packaging/hub/hub.env")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	setting := regexp.MustCompile(`^#?(WORKDESK_[A-Z_]+)=`)
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := setting.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n++
		if !known[m[1]] {
			t.Errorf("hub.env sets %s, which is no flag of serve", m[1])
		}
		if strings.Contains(m[1], "SECRET") || m[1] == "WORKDESK_DB" {
			t.Errorf("hub.env sets %s: secrets go in the credential files", m[1])
		}
	}
	if n < 5 {
		t.Fatalf("hub.env has %d settings: not the file this test reads?", n)
	}

	unit, err := os.ReadFile("../../packaging/hub/workdesk-hub.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{credentialSecret, credentialDB} {
		if !strings.Contains(string(unit), "\nLoadCredential="+name+":") {
			t.Errorf("the unit gives no credential %q, which serve reads", name)
		}
	}
}
