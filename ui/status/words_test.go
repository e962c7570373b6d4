package status

import (
	"strings"
	"testing"
)

// The status bar says an office connection is unencrypted, and only then.
func TestStatusBarSaysTheHubConnectionIsUnencrypted(t *testing.T) {
	t.Parallel()
	for service, want := range map[string]bool{
		"http://10.0.0.5:8095/":        true,
		"https://hub.office.example/":  false,
		"http://127.0.0.1:8095/":       false,
		"http://hub.office.example/x/": true,
	} {
		if got := strings.Contains(OfficeMode(service, "Ana Ruiz"), "unencrypted"); got != want {
			t.Errorf("office mode on %s reads %q", service, OfficeMode(service, "Ana Ruiz"))
		}
	}
}
