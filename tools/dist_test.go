// Package tools pins the programs `make dist` runs (fyne, nfpm) in a
// module of their own, so that their dependencies never move the app's.
// Its test keeps the packaging inputs valid between releases.
package tools

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb"
)

type fyneApp struct {
	Details struct{ ID, Version string }
}

// The nfpm configuration `make dist` uses builds a .deb of FyneApp.toml's
// version that depends on what dist.sh derives, recommends the keyring,
// and installs the binary, the menu entry and the icon under the names
// `fyne package` gives them (from FyneApp.toml's ID).
func TestNfpmConfigBuildsTheDebOfFyneAppsVersion(t *testing.T) {
	var app fyneApp
	if _, err := toml.DecodeFile("../FyneApp.toml", &app); err != nil {
		t.Fatal(err)
	}
	// The tarball's tree as dist.sh unpacks it.
	tree := t.TempDir()
	files := map[string]string{
		"bin/workdesk": "#!/bin/sh\n",
		"share/applications/" + app.Details.ID + ".desktop": "[Desktop Entry]\n",
		"share/pixmaps/" + app.Details.ID + ".png":          "png",
	}
	for name, body := range files {
		p := filepath.Join(tree, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"WORKDESK_VERSION": app.Details.Version,
		"WORKDESK_DEPENDS": "libc6 (>= 2.34), libgl1, libx11-6",
		"WORKDESK_TREE":    tree,
	}
	cfg, err := nfpm.ParseFileWithEnvMapping("../packaging/nfpm.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("packaging/nfpm.yaml: %v", err)
	}
	info, err := cfg.Get("deb")
	if err != nil {
		t.Fatal(err)
	}
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		t.Fatalf("packaging/nfpm.yaml: %v", err)
	}
	if info.Version != app.Details.Version {
		t.Errorf("the .deb is version %q, FyneApp.toml says %q", info.Version, app.Details.Version)
	}
	if got := strings.Join(info.Depends, ", "); got != env["WORKDESK_DEPENDS"] {
		t.Errorf("the .deb depends on %q, want what dist.sh derived: %q", got, env["WORKDESK_DEPENDS"])
	}
	if !slices.Contains(info.Recommends, "gnome-keyring") {
		t.Errorf("the .deb recommends %v, want gnome-keyring", info.Recommends)
	}
	var installed []string
	for _, c := range info.Contents {
		if c.Type == "" || c.Type == "file" {
			installed = append(installed, c.Destination)
		}
	}
	for _, want := range []string{"/usr/bin/workdesk",
		"/usr/share/applications/" + app.Details.ID + ".desktop",
		"/usr/share/pixmaps/" + app.Details.ID + ".png"} {
		if !slices.Contains(installed, want) {
			t.Errorf("the .deb installs %v, missing %s", installed, want)
		}
	}

	deb, err := nfpm.Get("deb")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := deb.Package(info, &out); err != nil {
		t.Fatalf("building the .deb: %v", err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("!<arch>\ndebian-binary")) {
		t.Errorf("the package built is not a Debian archive (starts %q)", out.Bytes()[:min(out.Len(), 20)])
	}
	if got, want := deb.ConventionalFileName(info), "workdesk_"+app.Details.Version+"_amd64.deb"; got != want {
		t.Errorf("nfpm names it %s, dist.sh and the README say %s", got, want)
	}
}
