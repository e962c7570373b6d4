package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// A server installs the hub without a desktop's libraries: nothing of
// Fyne, OpenGL, GLFW or X11 is linked in.
func TestLinksNoFyneGLOrX11(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(goTool(), "list", "-tags", "migrated_fynedo", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	desktop := regexp.MustCompile(`fyne|go-gl|glfw|x11|xgb|wayland`)
	var found []string
	for _, pkg := range strings.Fields(string(out)) {
		if desktop.MatchString(strings.ToLower(pkg)) {
			found = append(found, pkg)
		}
	}
	if len(found) > 0 {
		t.Errorf("workdesk-hub links desktop code: %s", strings.Join(found, ", "))
	}
}

// `workdesk-hub --version` says FyneApp.toml's version, as `workdesk
// --version` does; the binary builds with CGO_ENABLED=0 and is static (no
// ELF interpreter: it runs on a server with no C library it links).
func TestStaticBinarySaysFyneAppTomlsVersion(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Version\s*=\s*"([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version line")
	}
	want := string(m[1])
	if version != want {
		t.Errorf("version.go says %q, FyneApp.toml says %q: run go generate ./cmd/workdesk-hub", version, want)
	}

	bin := filepath.Join(t.TempDir(), "workdesk-hub")
	build := exec.Command(goTool(), "build", "-tags", "migrated_fynedo", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("workdesk-hub --version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "workdesk-hub "+want {
		t.Errorf("workdesk-hub --version says %q, want %q", got, "workdesk-hub "+want)
	}
	if runtime.GOOS != "linux" {
		return
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("workdesk-hub is dynamically linked (%v): a server would need the C libraries it names", p.Type)
		}
	}
}
