package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheReadmeNamesTheDemoWorldAsItIs: the README tells where the demo
// keeps its world by the names the app really gives it, in the data folder
// and under --data-dir.
func TestTheReadmeNamesTheDemoWorldAsItIs(t *testing.T) {
	readme, err := os.ReadFile("README.md")
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
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("the README does not name the demo's world %s", name)
		}
	}
}
