package realwindow

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
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
	fb      string // the screen's memory as Xvfb keeps it in a file (XWD)
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
	// -fbdir: Xvfb keeps the screen's memory in a file there, which the
	// pictures are read from (capture). -nocursor: the pointer is drawn
	// into that memory, and was never in the pictures (import left it out).
	fbdir := t.TempDir()
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", size+"x24", "-nolisten", "tcp", "-nocursor", "-fbdir", fbdir)
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
		s := &screen{t: t, display: ":" + n, fb: filepath.Join(fbdir, "Xvfb_screen0"), shots: shots, name: strings.TrimPrefix(t.Name(), "TestRealWindow")}
		t.Cleanup(s.saving.Wait)
		return s
	case <-time.After(patience):
		t.Fatalf("Xvfb gave no display in %v: %s", patience, xerr.String())
	}
	return nil
}

// shoot keeps a picture of the screen once it shows what the last step
// changed: the screen is read every 100 ms until it has stayed the same
// for 200 ms (a blinking cursor never lets it, so after three seconds the
// last one is kept). The pictures are compared raw; the one kept is
// compressed to PNG, as the test's name, a number and name, while the test
// goes on.
func (s *screen) shoot(name string) {
	s.t.Helper()
	s.taken++
	path := filepath.Join(s.shots, fmt.Sprintf("%s-%03d-%s.png", s.name, s.taken, name))
	var last []byte
	var since time.Time
	for deadline := time.Now().Add(3 * time.Second); ; {
		time.Sleep(100 * time.Millisecond)
		raw, err := s.read()
		if err != nil {
			s.t.Fatalf("screenshot %s: %v", name, err)
		}
		if !bytes.Equal(raw, last) {
			last, since = raw, time.Now()
		}
		if time.Since(since) >= 200*time.Millisecond || time.Now().After(deadline) {
			s.saving.Add(1)
			go func() {
				defer s.saving.Done()
				img, err := readXWD(raw)
				if err == nil {
					err = writePNG(path, img)
				}
				if err != nil {
					s.t.Errorf("screenshot %s: %v", name, err)
				}
			}()
			return
		}
	}
}

// capture is the screen as a picture (read).
func (s *screen) capture() (*image.NRGBA, error) {
	raw, err := s.read()
	if err != nil {
		return nil, err
	}
	return readXWD(raw)
}

// read takes the screen from the file Xvfb keeps its memory in (-fbdir;
// an XWD image, see XWDFile.h), as the pixels a person would see. It once
// ran ImageMagick's import for each picture, which asked the X server for
// the screen: some 50 ms of CPU each, for 821 pictures a run. A read is not
// atomic with the server's drawing, as import's request was: the file is
// read until two reads in a row agree, so that no picture is half of one
// frame and half of the next.
func (s *screen) read() ([]byte, error) {
	var last []byte
	for range 20 {
		raw, err := os.ReadFile(s.fb)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(raw, last) {
			return raw, nil
		}
		last = raw
	}
	return nil, fmt.Errorf("the screen changed under each of 20 reads in a row")
}

// readXWD decodes the XWD image Xvfb keeps: a header of big-endian 32-bit
// fields, the window's name, the colour map, then the pixels, 32 bits
// each with the masks the header gives (depth 24, as newScreen asks).
func readXWD(raw []byte) (*image.NRGBA, error) {
	field := func(i int) uint32 {
		if len(raw) < 4*(i+1) {
			return 0
		}
		return binary.BigEndian.Uint32(raw[4*i:])
	}
	const version, zPixmap, headerFields = 7, 2, 25
	headerSize, depth, w, h := field(0), field(3), int(field(4)), int(field(5))
	order, bpp, stride := field(7), field(11), int(field(12))
	masks := [3]uint32{field(14), field(15), field(16)}
	colours := field(19)
	if field(1) != version || field(2) != zPixmap || depth != 24 || bpp != 32 || headerSize < 4*headerFields ||
		w <= 0 || h <= 0 || w > 1<<14 || h > 1<<14 || stride < 4*w {
		return nil, fmt.Errorf("not a 24-bit XWD screen (version %d, format %d, depth %d, %d bits a pixel, %dx%d)", field(1), field(2), depth, bpp, w, h)
	}
	start := int(headerSize) + 12*int(colours)
	if len(raw) < start+stride*h {
		return nil, fmt.Errorf("a %dx%d XWD screen of %d bytes", w, h, len(raw))
	}
	var shifts [3]uint
	for c, m := range masks {
		for m != 0 && m&1 == 0 {
			m >>= 1
			shifts[c]++
		}
		if m != 0xff {
			return nil, fmt.Errorf("an XWD screen whose colour %d is not 8 bits (mask %#x)", c, masks[c])
		}
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := raw[start+y*stride:]
		out := img.Pix[y*img.Stride:]
		for x := range w {
			var p uint32
			if order == 0 { // LSBFirst
				p = binary.LittleEndian.Uint32(row[4*x:])
			} else {
				p = binary.BigEndian.Uint32(row[4*x:])
			}
			for c := range 3 {
				out[4*x+c] = uint8((p & masks[c]) >> shifts[c])
			}
			out[4*x+3] = 0xff
		}
	}
	return img, nil
}

// writePNG writes img to path as a PNG.
func writePNG(path string, img image.Image) error {
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

// TestRealWindowPicturesAreWhatXShows: the pictures read from Xvfb's memory
// are, pixel for pixel, what the X server gives a client that asks for the
// screen (ImageMagick's import), with the window showing: the colours in
// their places, nothing cut or shifted.
func TestRealWindowPicturesAreWhatXShows(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("import"); err != nil {
		t.Fatal("ImageMagick's import is needed for this test: make deps installs it")
	}
	a := start(t)
	a.do("ready")
	for try := 0; ; try++ {
		before, err := a.screen.capture()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("import", "-window", "root", "-depth", "8", "ppm:-")
		cmd.Env = append(os.Environ(), "DISPLAY="+a.screen.display)
		ppm, err := cmd.Output()
		if err != nil {
			t.Fatalf("import: %v", err)
		}
		after, err := a.screen.capture()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before.Pix, after.Pix) {
			if try == 20 {
				t.Fatal("the screen never stood still for a picture")
			}
			continue // the window drew meanwhile: which one import saw is unknown
		}
		w, h := before.Rect.Dx(), before.Rect.Dy()
		header := fmt.Sprintf("P6\n%d %d\n255\n", w, h)
		if !bytes.HasPrefix(ppm, []byte(header)) || len(ppm) != len(header)+3*w*h {
			t.Fatalf("import's picture is not a %dx%d PPM: %q", w, h, ppm[:min(len(ppm), 20)])
		}
		pix, differ := ppm[len(header):], 0
		for i := range w * h {
			if !bytes.Equal(pix[3*i:3*i+3], before.Pix[4*i:4*i+3]) {
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%d of %d pixels differ from the screen import took", differ, w*h)
		}
		// Red and blue read the wrong way round would agree on a grey
		// screen: the window shows coloured pixels (its badges).
		coloured := 0
		for i := range w * h {
			if r, b := before.Pix[4*i], before.Pix[4*i+2]; r > b+64 || b > r+64 {
				coloured++
			}
		}
		if coloured < 100 {
			t.Errorf("only %d coloured pixels on the screen: the comparison proves little", coloured)
		}
		return
	}
}
