package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Doubled punctuation: an ellipsis or a mark followed by a full stop
// ("Connect to office hub….", "Plan visit…."), two full stops that are not
// an ellipsis or a path ("done.."), a full stop after a comma.
var doubledPunctuation = regexp.MustCompile(`…\.|[^.]\.\.(?:[^./\\]|$)|[?!,:;]\.(?:\s|$)|\.,|,,`)

// A capital after a colon starts a word that is not a name: "only: No
// keyring service found". A name may follow a colon (a menu, a button, a
// mode), and so may an identifier ("sandbox: WriteConfig").
var capitalAfterColon = regexp.MustCompile(`\S: ([A-Z][a-z]+)\b`)

// namesAfterColon are the words a colon may be followed by with a
// capital: the window's menus, buttons and modes, which a sentence names
// as they read.
var namesAfterColon = []string{
	"Accept", "Reject", "Assign", "View", "File", "Help", "Customer", "Work", "Plan", "Save", "Send", "Submit",
	"Cancel", "Close", "Retry", "Discard", "Edit", "Keep", "Take", "Merge", "Demo", "Live", "Office", "Sync",
	"Check", "Connect", "Switch", "Export", "Open", "Mark", "Tick", "Settings", "Esc", "Enter", "Ctrl", "Cmd",
}

// notShown are literals that match but no person reads: what a library
// writes to its log, which the app's own log filter looks for.
var notShown = []string{"http: Accept error: "}

// TestNoStringHasDoubledPunctuationOrACapitalAfterAColon reads every
// string literal of the app (and each sum of literals, as "Plan visit…" +
// ".") for doubled punctuation and for a capital after a colon.
func TestNoStringHasDoubledPunctuationOrACapitalAfterAColon(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	check := func(where, s string) {
		if slices.Contains(notShown, s) {
			return
		}
		if m := doubledPunctuation.FindString(s); m != "" {
			t.Errorf("%s: doubled punctuation %q in %q", where, m, s)
		}
		for _, m := range capitalAfterColon.FindAllStringSubmatch(s, -1) {
			if !slices.Contains(namesAfterColon, m[1]) && !isIdentifier(s, m[1]) {
				t.Errorf("%s: a capital after a colon (%q) in %q", where, m[0], s)
			}
		}
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "tools" || n == "dist" || strings.HasPrefix(n, ".")) {
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
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if s, ok := literalSum(x); ok {
					check(fset.Position(x.Pos()).String(), s)
					return false // its literals are in the sum
				}
			case *ast.BasicLit:
				if s, ok := literalSum(x); ok {
					check(fset.Position(x.Pos()).String(), s)
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

// literalSum is the string an expression of string literals and + makes.
func literalSum(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := literalSum(x.X)
		b, ok2 := literalSum(x.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return literalSum(x.X)
	}
	return "", false
}

// isIdentifier reports whether word stands in s as part of a Go-style
// name ("WriteConfig"): a capital follows within it.
func isIdentifier(s, word string) bool {
	i := strings.Index(s, word)
	rest := s[i+len(word):]
	return rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}
