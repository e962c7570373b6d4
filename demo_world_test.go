package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheUserGuideNamesTheDemoWorldAsItIs: the user guide tells where the
// demo keeps its world by the names the app really gives it, in the data
// folder and under --data-dir.
func TestTheUserGuideNamesTheDemoWorldAsItIs(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("docs", "user-guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	inDataFolder, err := replicaPath("", "demo")
	if err != nil {
		t.Fatal(err)
	}
	inDataDir, err := replicaPath(t.TempDir(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	world := demoWorldPath(inDataFolder)
	for _, name := range []string{
		filepath.Base(filepath.Dir(world)) + "/" + filepath.Base(world),
		filepath.Base(demoWorldPath(inDataDir)),
	} {
		if !strings.Contains(string(guide), "`"+name+"`") {
			t.Errorf("docs/user-guide.md does not name the demo's world %s", name)
		}
	}
}
