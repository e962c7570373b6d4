package outbox

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoViewOrHubNamesAKind: what an action is and does lives in its entry
// of the action table (package outbox); the window and the hub read the
// table's columns and never branch on a kind, so that a new kind is one
// entry, not an edit of every switch that names its neighbours.
func TestNoViewOrHubNamesAKind(t *testing.T) {
	named := regexp.MustCompile(`\boutbox\.Kind[A-Z]\w*`)
	for _, root := range []string{"../ui", "../hub"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				if m := named.FindString(line); m != "" {
					t.Errorf("%s:%d names the kind %s: read the action table's columns instead", path, i+1, m)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
