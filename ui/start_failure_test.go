package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestAStartThatFailsSaysWhyInAWindow: started from a shortcut there is no
// terminal, so a start that fails opens a window saying why, with Quit.
func TestAStartThatFailsSaysWhyInAWindow(t *testing.T) {
	a := test.NewTempApp(t)
	w := ShowStartFailure(a, errors.New("opening the local replica: disk full"))
	t.Cleanup(w.Close)
	said := strings.Join(texts(w.Content()), " | ")
	if !strings.Contains(said, "Work Order Desk could not start: Opening the local replica: disk full.") || !strings.Contains(said, "Quit") {
		t.Fatalf("the window says %q", said)
	}
}
