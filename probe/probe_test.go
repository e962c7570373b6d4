package probe

import (
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// The process's age counts from its start, before this package was set
// up: never less than the time since then (the kernel counts in 10 ms
// ticks), and not wildly more.
func TestProcessAgeCountsFromTheProcessStart(t *testing.T) {
	age, since := processAge(), time.Since(started)
	if age < since-20*time.Millisecond || age > since+time.Minute {
		t.Errorf("process age %v; %v since the package was set up", age, since)
	}
}

// --screenshot writes a PNG of the window as it is drawn, at its size.
func TestCaptureWritesTheWindowAsAPNG(t *testing.T) {
	a := test.NewApp()
	defer a.Quit()
	w := a.NewWindow("capture")
	w.SetContent(canvas.NewRectangle(color.NRGBA{R: 200, A: 255}))
	w.Resize(fyne.NewSize(120, 80))
	path := filepath.Join(t.TempDir(), "window.png")
	if code := Capture(w, path); code != 0 {
		t.Fatalf("Capture = %d", code)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 120 || b.Dy() < 80 {
		t.Errorf("the PNG is %v, the window 120x80", b)
	}
	if r, _, _, _ := img.At(60, 40).RGBA(); r>>8 != 200 {
		t.Errorf("the PNG's middle is %v, the window red", img.At(60, 40))
	}
	if code := Capture(w, filepath.Join(t.TempDir(), "no", "such", "dir", "w.png")); code != 1 {
		t.Errorf("Capture into a missing folder = %d, want 1", code)
	}
}
