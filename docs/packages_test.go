package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// listedPackages reads the first column of the table under the heading
// "Packages" of docs/architecture.md: each package's path in the module,
// "." for the root.
func listedPackages(t *testing.T) []string {
	t.Helper()
	d := parseDoc(t, repoRoot(t), filepath.Join("docs", "architecture.md"))
	var out []string
	found := false
	for n := d.root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 || plainText(h, d.src) != "Packages" {
			continue
		}
		for n = n.NextSibling(); n != nil; n = n.NextSibling() {
			if _, ok := n.(*ast.Heading); ok {
				break
			}
			table, ok := n.(*extast.Table)
			if !ok {
				continue
			}
			found = true
			for row := table.FirstChild(); row != nil; row = row.NextSibling() {
				if _, ok := row.(*extast.TableRow); !ok {
					continue // the header
				}
				out = append(out, strings.TrimSpace(plainText(row.FirstChild(), d.src)))
			}
			break
		}
		break
	}
	if !found {
		t.Fatal(`docs/architecture.md has no table under "## Packages"`)
	}
	return out
}

// goPackages is what `go list ./...` gives for the module, as paths in it.
func goPackages(t *testing.T) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "list", "-tags", "migrated_fynedo", "-f", "{{.ImportPath}} {{.Module.Path}}", "./...")
	cmd.Dir = repoRoot(t)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, module, _ := strings.Cut(line, " ")
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == "" {
			rel = "."
		}
		pkgs = append(pkgs, rel)
	}
	return pkgs
}

// TestArchitectureListsEveryPackage: the architecture's package table is
// the module's packages, every one and no other, so that someone reading
// it to find where a change goes is not sent to a package that moved.
func TestArchitectureListsEveryPackage(t *testing.T) {
	listed := listedPackages(t)
	real := goPackages(t)
	for _, p := range real {
		if !slices.Contains(listed, p) {
			t.Errorf("package %s is missing from docs/architecture.md's Packages table", p)
		}
	}
	for i, p := range listed {
		if !slices.Contains(real, p) {
			t.Errorf("docs/architecture.md lists %q, which `go list ./...` does not give", p)
		}
		if slices.Contains(listed[:i], p) {
			t.Errorf("docs/architecture.md lists %s twice", p)
		}
	}
}

// uiFoundation are the packages under ui/ that every view may import: they
// hold no view. ui/xwidget imports none of the module's packages at all.
var uiFoundation = []string{"ui/actiontext", "ui/arrange", "ui/dialogs", "ui/files", "ui/format", "ui/palette", "ui/printing", "ui/xwidget"}

// TestViewsImportNoOtherView holds the arrows among ui's packages: a view
// (any other package under ui/) imports neither ui nor another view, only
// the foundation; the foundation imports no view and not ui; xwidget
// imports none of ours. A view that needs another's help declares an
// interface (ui/invoice's Elsewhere), which ui implements.
func TestViewsImportNoOtherView(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "list", "-tags", "migrated_fynedo", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./ui/...")
	cmd.Dir = repoRoot(t)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./ui/...: %v", err)
	}
	const module = "github.com/workorderdesk/workdesk/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if pkg == "ui" {
			continue
		}
		for _, imp := range fields[1:] {
			ours, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			switch {
			case pkg == "ui/xwidget":
				t.Errorf("ui/xwidget imports %s: it imports none of ours", ours)
			case ours == "ui":
				t.Errorf("%s imports ui: a view takes small interfaces it declares, never the window", pkg)
			case strings.HasPrefix(ours, "ui/") && !slices.Contains(uiFoundation, ours):
				t.Errorf("%s imports the view %s: views never import each other (declare an interface)", pkg, ours)
			}
		}
	}
}
