package freedesktop

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningALinkSaysWhetherABrowserTookIt: the window says "Opened in
// your browser" only when xdg-open ended well; with no xdg-open, or one
// that found no browser, it hears why.
func TestOpeningALinkSaysWhetherABrowserTookIt(t *testing.T) {
	link, _ := url.Parse("https://files.example.test/receipt.pdf?sig=x")
	for _, c := range []struct {
		name, script, want string
	}{
		{"no xdg-open", "", "is not installed"},
		{"no browser", "#!/bin/sh\nexit 3\n", "found no browser"},
		{"a browser", "#!/bin/sh\nexit 0\n", ""},
	} {
		dir := t.TempDir()
		if c.script != "" {
			if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(c.script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("PATH", dir)
		err := Open(link)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
}
