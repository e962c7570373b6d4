// Package tools pins the programs `make dist` runs (fyne, nfpm) in a
// module of their own, so that their dependencies never move the app's.
// Its test keeps the packaging inputs valid between releases.
package tools

import (
	"bytes"
	"os"
	"os/exec"
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
// suggests the hub's package (whose /usr/bin/workdesk-hub `workdesk hub`
// runs, beside /usr/bin/workdesk), and installs the binary, the menu entry
// and the icon under the names `fyne package` gives them (from
// FyneApp.toml's ID).
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
	if !slices.Contains(info.Suggests, "workdesk-hub") {
		t.Errorf("the .deb suggests %v, want workdesk-hub: `workdesk hub` runs its program", info.Suggests)
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

// The office hub's .deb, as packaging/hub/dist.sh builds it: FyneApp.toml's
// version, the binary, the unit where systemd looks for it, the example
// settings kept across upgrades and readable by root alone (nothing in the
// package is a secret; the admin's own files are never in it), and the
// ssl-cert group the unit reads TLS keys with.
func TestHubNfpmConfigBuildsTheServerPackage(t *testing.T) {
	var app fyneApp
	if _, err := toml.DecodeFile("../FyneApp.toml", &app); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "workdesk-hub")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hubDir, err := filepath.Abs("../packaging/hub")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"WORKDESK_VERSION": app.Details.Version, "WORKDESK_HUB_BIN": bin, "WORKDESK_HUB_DIR": hubDir}
	cfg, err := nfpm.ParseFileWithEnvMapping("../packaging/hub/nfpm.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("packaging/hub/nfpm.yaml: %v", err)
	}
	info, err := cfg.Get("deb")
	if err != nil {
		t.Fatal(err)
	}
	info = nfpm.WithDefaults(info)
	// The maintainer scripts' paths are relative to the checkout's root,
	// where dist.sh runs nfpm.
	t.Chdir("..")
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		t.Fatalf("packaging/hub/nfpm.yaml: %v", err)
	}
	if info.Version != app.Details.Version {
		t.Errorf("the .deb is version %q, FyneApp.toml says %q", info.Version, app.Details.Version)
	}
	if !slices.Contains(info.Depends, "ssl-cert") {
		t.Errorf("the .deb depends on %v: the unit's SupplementaryGroups=ssl-cert needs the group", info.Depends)
	}
	type file struct {
		typ  string
		mode os.FileMode
	}
	installed := map[string]file{}
	for _, c := range info.Contents {
		installed[c.Destination] = file{c.Type, c.FileInfo.Mode}
	}
	for dst, want := range map[string]file{
		"/usr/bin/workdesk-hub":                        {"file", 0o755},
		"/usr/lib/systemd/system/workdesk-hub.service": {"file", 0o644},
		"/etc/workdesk-hub/hub.env":                    {"config|noreplace", 0o640},
	} {
		got, ok := installed[dst]
		if !ok {
			t.Errorf("the .deb does not install %s (it installs %v)", dst, installed)
			continue
		}
		if got.typ == "" {
			got.typ = "file"
		}
		if got.typ != want.typ || got.mode.Perm() != want.mode {
			t.Errorf("%s is installed as %s, mode %o; want %s, mode %o", dst, got.typ, got.mode.Perm(), want.typ, want.mode)
		}
	}
	for dst := range installed {
		if strings.Contains(dst, "secret") || strings.HasSuffix(dst, "/db") || strings.HasSuffix(dst, ".key") {
			t.Errorf("the .deb installs %s: secrets are the admin's own files, never the package's", dst)
		}
	}
	for _, script := range []string{info.Scripts.PostInstall, info.Scripts.PreRemove, info.Scripts.PostRemove} {
		if script == "" {
			t.Errorf("the .deb lacks a maintainer script: %+v", info.Scripts)
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
	if got, want := deb.ConventionalFileName(info), "workdesk-hub_"+app.Details.Version+"_amd64.deb"; got != want {
		t.Errorf("nfpm names it %s, dist.sh and the README say %s", got, want)
	}
}

// systemd accepts the hub's unit (`systemd-analyze verify`: every
// directive known and well-formed), with the hardening the README promises.
// The binary it starts is this test's own (verify only checks that it is an
// executable); the package test above puts the real one at
// /usr/bin/workdesk-hub.
func TestHubUnitVerifies(t *testing.T) {
	unit, err := os.ReadFile("../packaging/hub/workdesk-hub.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DynamicUser=yes", "ProtectSystem=strict", "NoNewPrivileges=yes", "Restart=on-failure",
		"LoadCredential=client-secret:/etc/workdesk-hub/client-secret", "LoadCredential=db:/etc/workdesk-hub/db",
		"ExecStart=/usr/bin/workdesk-hub serve"} {
		if !slices.Contains(strings.Split(string(unit), "\n"), want) {
			t.Errorf("the unit lacks the line %q", want)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze here (apt-get install systemd): the unit is not verified")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "workdesk-hub.service")
	body := strings.Replace(string(unit), "ExecStart=/usr/bin/workdesk-hub ", "ExecStart="+self+" ", 1)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", p).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
