package pdftext_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/theme"
	"github.com/go-pdf/fpdf"

	"github.com/workorderdesk/workdesk/pdftext"
	"github.com/workorderdesk/workdesk/pdftext/pdfcheck"
)

func primary() pdftext.Options {
	return pdftext.Options{Regular: theme.DefaultTextFont().Content(), Bold: theme.DefaultTextBoldFont().Content()}
}

// page sets every script's text, regular and bold, in a Cell and in a
// MultiCell narrow enough to wrap, and returns the PDF.
func page(t *testing.T, opts pdftext.Options) []byte {
	t.Helper()
	set, err := pdftext.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(14, 14, 14)
	pdf.AddPage()
	w := set.Writer(pdf)
	for _, s := range pdfcheck.Scripts {
		w.SetFont("B", 11)
		w.Cell(0, 6, s.Name, "L", 1)
		w.SetFont("", 10)
		w.Cell(0, 5, s.Text, "L", 1)
		w.SetFont("B", 10)
		w.Cell(0, 5, s.Text, "R", 1)
		w.SetFont("", 10)
		w.MultiCell(60, 5, s.Text, "L")
		pdf.Ln(2)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEveryScriptPrintsARealGlyph: every rune of each script's text is
// drawn, each time in an embedded font whose glyph for it has an outline
// (not the empty box fpdf draws for a letter its font lacks), with the
// computer's fonts and with the bundled one alone.
func TestEveryScriptPrintsARealGlyph(t *testing.T) {
	for _, c := range []struct {
		name string
		opts pdftext.Options
	}{{"system fonts", primary()}, {"bundled only", func() pdftext.Options { o := primary(); o.NoSystemFonts = true; return o }()}} {
		t.Run(c.name, func(t *testing.T) {
			pdf := page(t, c.opts)
			doc, err := pdfcheck.Read(pdf)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range pdfcheck.Scripts {
				for _, bad := range doc.Check(s.Text) {
					t.Errorf("%s: %s", s.Name, bad)
				}
			}
			// Subsets: no embedded font is more than a sliver of the 4 MB one.
			for name, prog := range doc.Fonts {
				if len(prog) > 400<<10 {
					t.Errorf("%s is embedded whole (%d bytes), not as a subset", name, len(prog))
				}
			}
			if len(pdf) > 600<<10 {
				t.Errorf("the page is %d bytes", len(pdf))
			}
			if dir := os.Getenv("PDFTEXT_PNG"); dir != "" {
				render(t, pdf, filepath.Join(dir, "pdftext-"+strings.ReplaceAll(c.name, " ", "-")))
			}
		})
	}
}

// render writes the PDF's first page as a PNG with pdftoppm, to be looked at.
func render(t *testing.T, pdf []byte, prefix string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "90", "-f", "1", "-l", "1", path, prefix).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
}

// TestTextReadsBack: what pdftotext reads of the page is the text set,
// in every script (the fonts' ToUnicode maps are right).
func TestTextReadsBack(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := os.WriteFile(path, page(t, primary()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-raw", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(string(out)), " ")
	for _, s := range pdfcheck.Scripts {
		if !strings.Contains(got, s.Text) {
			t.Errorf("%s: %q not read back from:\n%s", s.Name, s.Text, out)
		}
	}
}

// TestLinesBreakBetweenCJKLetters: Japanese without spaces wraps between
// letters, English between words, and nothing is lost or added.
func TestLinesBreakBetweenCJKLetters(t *testing.T) {
	set, err := pdftext.New(primary())
	if err != nil {
		t.Fatal(err)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	w := set.Writer(pdf)
	w.SetFont("", 10)
	for _, text := range []string{
		"大阪市北区梅田一丁目九番二十号さくらマート梅田店のバックヤード冷蔵庫",
		"The walk-in freezer at the back of the store is not holding temperature overnight",
		"Supercalifragilisticexpialidocious-and-then-some-more-without-any-space",
	} {
		lines := w.Lines(text, 40)
		if len(lines) < 2 {
			t.Errorf("%q did not wrap at 40 mm: %q", text, lines)
		}
		for _, l := range lines {
			if w.Width(l) > 40 {
				t.Errorf("%q is %.1f mm, wider than 40", l, w.Width(l))
			}
		}
		joined := strings.Join(lines, "")
		if strings.Contains(text, " ") {
			joined = strings.Join(lines, " ")
		}
		if joined != text {
			t.Errorf("wrapped and joined:\n%q\nwant\n%q", joined, text)
		}
	}
}

func TestWithoutFontsSaysSo(t *testing.T) {
	if _, err := pdftext.New(pdftext.Options{}); err == nil {
		t.Error("a Set without fonts was made")
	}
	if _, err := pdftext.New(pdftext.Options{Regular: []byte("not a font"), Bold: []byte("not a font")}); err == nil {
		t.Error("a Set of something that is not a font was made")
	}
}
