// Package docs holds no code: its tests hold README.md and docs/*.md to
// the tree they describe (every relative link and anchor resolves; the
// architecture's package list is the one `go list` gives). They live here,
// in the main module, so that `make test`'s `go test ./...` runs them and
// `go list ./...` answers for the very module the documents describe.
package docs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// doc is one parsed Markdown file.
type doc struct {
	path string // as the tests name it: "README.md", "docs/user-guide.md"
	src  []byte
	root ast.Node
}

// repoRoot is the repository's top folder, one up from docs/.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

// GitHub's flavour: its tables, as GitHub renders the files.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

func parseDoc(t *testing.T, root, rel string) doc {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return doc{path: filepath.ToSlash(rel), src: src, root: markdown.Parser().Parse(text.NewReader(src))}
}

// documents are README.md and every docs/*.md.
func documents(t *testing.T) []doc {
	t.Helper()
	root := repoRoot(t)
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []doc{parseDoc(t, root, "README.md")}
	for _, n := range names {
		rel, err := filepath.Rel(root, n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parseDoc(t, root, rel))
	}
	return out
}

// plainText is what a node reads as once rendered: its text and code
// spans, without the marks around them.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// anchors are the ids GitHub gives the document's headings: the text in
// lower case, without punctuation but hyphens and underscores, spaces as
// hyphens; a repeated one gets -1, -2, ...
func (d doc) anchors() map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		slug := slugOf(plainText(h, d.src))
		id := slug
		if k := seen[slug]; k > 0 {
			id = slug + "-" + strconv.Itoa(k)
		}
		seen[slug]++
		out[id] = true
		return ast.WalkSkipChildren, nil
	})
	return out
}

func slugOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
