package main

import (
	"os/exec"
	"strings"
	"testing"
)

// Each binary links only what it runs (`go list -deps`, what the linker
// is given): the window none of the hub's server code, the sandbox no
// GUI toolkit, the hub's server binary none of the desktop's storage,
// keyring, session bus or GUI.
func TestEachBinaryLinksOnlyWhatItRuns(t *testing.T) {
	for _, c := range []struct {
		pkg, what string
		never     []string // import path prefixes
	}{
		{".", "the desktop's workdesk", []string{"github.com/jackc/pgx", "github.com/prometheus/", "google.golang.org/protobuf",
			"github.com/golang/protobuf", "github.com/workorderdesk/workdesk/hub"}},
		{"./api/sandbox", "the sandbox", []string{"fyne.io/"}},
		{"./cmd/workdesk-hub", "the hub's workdesk-hub", []string{"fyne.io/", "modernc.org/sqlite", "github.com/zalando/go-keyring",
			"github.com/godbus/dbus", "github.com/workorderdesk/workdesk/storage"}},
	} {
		t.Run(c.what, func(t *testing.T) {
			out, err := exec.Command(goTool(), "list", "-tags", "migrated_fynedo", "-deps", c.pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps %s: %v\n%s", c.pkg, err, out)
			}
			deps := strings.Fields(string(out))
			if len(deps) < 10 {
				t.Fatalf("go list -deps %s listed %d packages: not the list this test reads", c.pkg, len(deps))
			}
			for _, dep := range deps {
				for _, never := range c.never {
					if strings.HasPrefix(dep, never) {
						t.Errorf("%s links %s", c.what, dep)
					}
				}
			}
		})
	}
}
