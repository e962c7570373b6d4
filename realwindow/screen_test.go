package realwindow

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain empties the screenshot folder (WORKDESK_SHOTS) before the tests,
// which run side by side and each write their own pictures into it.
func TestMain(m *testing.M) {
	if dir := os.Getenv("WORKDESK_SHOTS"); dir != "" {
		old, _ := filepath.Glob(filepath.Join(dir, "*.png"))
		for _, f := range old {
			os.Remove(f)
		}
	}
	os.Exit(m.Run())
}

// screen is an X server of one test's own (Xvfb), so that the tests run
// side by side: the apps a test starts show on it, and its pictures are
// taken of it alone.
type screen struct {
	t       *testing.T
	display string // ":N"
	shots   string // the folder the pictures go to
	name    string // the test's, before each picture's name
	taken   int    // pictures taken so far
	saving  sync.WaitGroup
}

// newScreen starts an X server with one screen of size ("1920x1200") for
// t, or skips t where the app built for this test (WORKDESK_BIN, make
// realwindow) or Xvfb is missing. It stops when t ends.
func newScreen(t *testing.T, size string) *screen {
	t.Helper()
	if os.Getenv("WORKDESK_BIN") == "" {
		t.Skip("needs WORKDESK_BIN, the app built with -tags realwindow: run make realwindow")
	}
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Skip("needs Xvfb: make deps installs it")
	}
	if _, err := exec.LookPath("import"); err != nil {
		t.Fatal("ImageMagick's import is needed for the screenshots: make deps installs it")
	}
	shots := os.Getenv("WORKDESK_SHOTS")
	if shots == "" {
		var err error
		if shots, err = os.MkdirTemp("", "workdesk-realwindow-"); err != nil {
			t.Fatal(err)
		}
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots of each step: %s", shots)

	// Xvfb picks a free display and writes its number on fd 3 once it
	// takes connections.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", size+"x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	var xerr syncBuffer
	x.Stderr = &xerr
	if err := x.Start(); err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() {
		x.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		x.Process.Kill()
		<-exited
	})
	number := make(chan string, 1)
	go func() {
		defer r.Close()
		line, _ := bufio.NewReader(r).ReadString('\n')
		number <- strings.TrimSpace(line)
	}()
	select {
	case n := <-number:
		if n == "" {
			t.Fatalf("Xvfb did not start: %s", xerr.String())
		}
		s := &screen{t: t, display: ":" + n, shots: shots, name: strings.TrimPrefix(t.Name(), "TestRealWindow")}
		t.Cleanup(s.saving.Wait)
		return s
	case <-time.After(patience):
		t.Fatalf("Xvfb gave no display in %v: %s", patience, xerr.String())
	}
	return nil
}

// capture takes the screen as a binary PPM.
func (s *screen) capture() ([]byte, error) {
	cmd := exec.Command("import", "-window", "root", "-depth", "8", "ppm:-")
	cmd.Env = append(os.Environ(), "DISPLAY="+s.display)
	return cmd.Output()
}

// shoot keeps a picture of the screen once it shows what the last step
// changed: the screen is taken every 100 ms until two pictures in a row
// agree (a blinking cursor never lets them, so after three seconds the last
// one is kept). The pictures are compared raw; the one kept is compressed
// to PNG, as the test's name, a number and name, while the test goes on.
func (s *screen) shoot(name string) {
	s.t.Helper()
	s.taken++
	path := filepath.Join(s.shots, fmt.Sprintf("%s-%03d-%s.png", s.name, s.taken, name))
	var last []byte
	for deadline := time.Now().Add(3 * time.Second); ; {
		time.Sleep(100 * time.Millisecond)
		img, err := s.capture()
		if err != nil {
			s.t.Fatalf("screenshot %s: %v", name, err)
		}
		if bytes.Equal(img, last) || time.Now().After(deadline) {
			s.saving.Add(1)
			go func() {
				defer s.saving.Done()
				if err := writePNG(path, img); err != nil {
					s.t.Errorf("screenshot %s: %v", name, err)
				}
			}()
			return
		}
		last = img
	}
}

// writePNG writes a binary PPM (P6, 8 bits a channel, what import writes
// with -depth 8 ppm:-) to path as a PNG.
func writePNG(path string, ppm []byte) error {
	r := bufio.NewReader(bytes.NewReader(ppm))
	var magic string
	var w, h, maxval int
	if _, err := fmt.Fscan(r, &magic, &w, &h, &maxval); err != nil || magic != "P6" || maxval != 255 {
		return fmt.Errorf("not an 8-bit PPM (%q %dx%d max %d): %v", magic, w, h, maxval, err)
	}
	if _, err := r.ReadByte(); err != nil { // the one white space after the header
		return err
	}
	pix, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(pix) != 3*w*h {
		return fmt.Errorf("a %dx%d PPM with %d bytes of pixels", w, h, len(pix))
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, j := 0, 0; i < len(pix); i, j = i+3, j+4 {
		copy(img.Pix[j:j+3], pix[i:i+3])
		img.Pix[j+3] = 0xff
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	// The fastest compression: a run keeps some 300 pictures of
	// 1920x1200, each 65 ms of CPU at the default level and 44 ms at this
	// one, for a file 3% larger.
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
