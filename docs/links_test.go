package docs

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// link is one link or picture of a document, as written.
type link struct {
	dest string
	line int
}

func (d doc) links() []link {
	var out []link
	ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch n := n.(type) {
		case *ast.Link:
			dest = n.Destination
		case *ast.Image:
			dest = n.Destination
		default:
			return ast.WalkContinue, nil
		}
		out = append(out, link{dest: string(dest), line: d.lineOf(n)})
		return ast.WalkContinue, nil
	})
	return out
}

// lineOf is the line a link is on, for the failure message: the first
// line of the nearest block around it.
func (d doc) lineOf(n ast.Node) int {
	for ; n != nil; n = n.Parent() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return 1 + strings.Count(string(d.src[:n.Lines().At(0).Start]), "\n")
		}
	}
	return 0
}

// brokenLinks lists each relative link of docs (in the repository at
// root) that leads nowhere: to no file or folder, out of the repository,
// or to a heading its document does not have. Links to other sites are
// not followed. checked counts the relative links.
func brokenLinks(root string, docs []doc) (broken []string, checked int) {
	anchors := map[string]map[string]bool{}
	for _, d := range docs {
		anchors[d.path] = d.anchors()
	}
	for _, d := range docs {
		for _, l := range d.links() {
			bad := func(format string, a ...any) {
				broken = append(broken, fmt.Sprintf("%s:%d: link %q: ", d.path, l.line, l.dest)+fmt.Sprintf(format, a...))
			}
			u, err := url.Parse(l.dest)
			if err != nil {
				bad("cannot be read: %v", err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue
			}
			checked++
			target := d.path
			if u.Path != "" {
				target = path.Clean(path.Join(path.Dir(d.path), u.Path))
				if target == ".." || strings.HasPrefix(target, "../") {
					bad("leaves the repository")
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
					bad("no such file or folder %s", target)
					continue
				}
			}
			if u.Fragment == "" {
				continue
			}
			ids, ok := anchors[target]
			switch {
			case !ok:
				bad("names a heading in %s, which is not one of the documents checked", target)
			case !ids[u.Fragment]:
				bad("%s has no heading #%s", target, u.Fragment)
			}
		}
	}
	return broken, checked
}

// TestEveryRelativeLinkResolves: a reader who follows a link of README.md
// or docs/*.md to a file of the repository, or to a heading, lands on it.
func TestEveryRelativeLinkResolves(t *testing.T) {
	broken, checked := brokenLinks(repoRoot(t), documents(t))
	for _, b := range broken {
		t.Error(b)
	}
	if checked == 0 {
		t.Fatal("no relative link found: the documents were not read")
	}
}

// TestBrokenLinksAreFound holds the check itself to links GitHub would
// leave dead, and to the ones it would follow, on documents of its own.
func TestBrokenLinksAreFound(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"README.md": "# Top\n\n[guide](docs/guide.md#two-words) [gone](docs/gone.md) " +
			"[out](../elsewhere.md) [site](https://example.com/x.md#y) [self](#top)\n\n![pic](docs/pic.png)\n",
		"docs/guide.md": "# Two words\n\n## `make run`, and *more*!\n\n## Two words\n\n" +
			"[ok](#make-run-and-more) [again](#two-words-1) [no](#three-words) [up](../README.md#nothing) [dir](../docs/)\n",
		"docs/pic.png": "",
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := []doc{parseDoc(t, root, "README.md"), parseDoc(t, root, "docs/guide.md")}
	broken, checked := brokenLinks(root, docs)
	want := []string{
		`README.md:3: link "docs/gone.md": no such file or folder docs/gone.md`,
		`README.md:3: link "../elsewhere.md": leaves the repository`,
		`docs/guide.md:7: link "#three-words": docs/guide.md has no heading #three-words`,
		`docs/guide.md:7: link "../README.md#nothing": README.md has no heading #nothing`,
	}
	if strings.Join(broken, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken links found:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(want, "\n"))
	}
	if checked != 10 {
		t.Errorf("checked %d relative links, want 10 (the site's is not one)", checked)
	}
}
