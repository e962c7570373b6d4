package ui

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
)

// TestEveryCharacterTheAppWritesIsInABundledFont: every character in a
// string the app's code holds (window texts, messages, the demo's world)
// is in the fonts Fyne bundles and draws it with: the regular and bold
// text fonts, or the emoji and symbol fonts after them. Fyne falls back to
// a system font for any other, and where the system has none that covers
// it (Windows under Wine lacks "▲"), the person sees a box.
func TestEveryCharacterTheAppWritesIsInABundledFont(t *testing.T) {
	faces := func(rs ...fyne.Resource) []*font.Face {
		var out []*font.Face
		for _, r := range rs {
			f, err := font.ParseTTF(bytes.NewReader(r.Content()))
			if err != nil {
				t.Fatalf("%s: %v", r.Name(), err)
			}
			out = append(out, f)
		}
		return out
	}
	regular := faces(theme.DefaultTextFont())[0]
	bold := faces(theme.DefaultTextBoldFont())[0]
	fallbacks := faces(theme.DefaultEmojiFont(), theme.DefaultSymbolFont())
	has := func(f *font.Face, r rune) bool { _, ok := f.NominalGlyph(r); return ok }
	drawn := func(r rune) bool {
		if has(regular, r) && has(bold, r) {
			return true
		}
		for _, f := range fallbacks {
			if has(f, r) {
				return true
			}
		}
		return false
	}

	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// tools/ is a module of its own, for building packages.
			// pdftext/ writes PDFs with fonts it embeds itself: its
			// letters are probes of those fonts, never drawn by Fyne.
			if n := d.Name(); path != root && (n == "tools" || n == "dist" || n == "pdftext" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
				return true
			}
			s := lit.Value
			if lit.Kind == token.STRING {
				if u, err := strconv.Unquote(s); err == nil {
					s = u
				}
			}
			for _, r := range s {
				if r > 0x7f && !drawn(r) {
					t.Errorf("%s: %q (U+%04X) is in no font Fyne bundles", fset.Position(lit.Pos()), r, r)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("read only %d source files under %s", checked, root)
	}
}
