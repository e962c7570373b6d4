package pdftext

import (
	"bytes"
	"encoding/binary"
	"testing"

	"fyne.io/fyne/v2/theme"
	"github.com/go-pdf/fpdf"

	"github.com/workorderdesk/workdesk/assets/fonts"
	"github.com/workorderdesk/workdesk/pdftext/pdfcheck"
)

// TestCollectionFaceIsTaken: a face inside a TrueType collection (as
// Windows' CJK fonts come) is made a font of its own that fpdf embeds and
// that prints its letters with real glyphs.
func TestCollectionFaceIsTaken(t *testing.T) {
	cjk, err := fonts.CJKFallback()
	if err != nil {
		t.Fatal(err)
	}
	ttc := collection(theme.DefaultTextFont().Content(), cjk)
	for i, want := range []rune{'Ж', '梅'} {
		f, err := parseFace("pair.ttc", ttc, i)
		if err != nil {
			t.Fatal(err)
		}
		if !f.cover.has(want) {
			t.Fatalf("face %d does not print %q", i, want)
		}
		if err := tryEmbed(f); err != nil {
			t.Fatal(err)
		}
		s := &Set{primary: family{regular: f}, fallback: family{regular: f}, byLang: map[string]*family{}}
		pdf := fpdf.New("P", "mm", "A4", "")
		pdf.AddPage()
		w := s.Writer(pdf)
		w.SetFont("", 12)
		w.Cell(0, 6, string(want), "L", 1)
		var buf bytes.Buffer
		if err := pdf.Output(&buf); err != nil {
			t.Fatal(err)
		}
		doc, err := pdfcheck.Read(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if bad := doc.Check(string(want)); bad != nil {
			t.Errorf("face %d: %v", i, bad)
		}
	}
	if _, err := parseFace("pair.ttc", ttc, 2); err == nil {
		t.Error("a third face of a collection of two was read")
	}
}

// TestCFFIsRefused: a font with CFF outlines (Noto Sans CJK, most of
// macOS' CJK fonts) is passed over: fpdf cannot embed it.
func TestCFFIsRefused(t *testing.T) {
	otf := append([]byte("OTTO"), make([]byte, 64)...)
	if _, err := parseFace("cjk.otf", otf, 0); err == nil {
		t.Error("a CFF font was taken")
	}
}

// collection is a TrueType collection of fonts, as Windows ships them.
func collection(fonts ...[]byte) []byte {
	var out bytes.Buffer
	out.WriteString("ttcf")
	binary.Write(&out, binary.BigEndian, uint32(0x00010000))
	binary.Write(&out, binary.BigEndian, uint32(len(fonts)))
	at := 12 + 4*len(fonts)
	for _, f := range fonts {
		binary.Write(&out, binary.BigEndian, uint32(at))
		at += (len(f) + 3) &^ 3
	}
	for _, f := range fonts {
		// Table offsets in a collection count from the file's start.
		f = append([]byte(nil), f...)
		base := uint32(out.Len())
		for j := range int(binary.BigEndian.Uint16(f[4:])) {
			rec := f[12+16*j:]
			binary.BigEndian.PutUint32(rec[8:], binary.BigEndian.Uint32(rec[8:])+base)
		}
		out.Write(f)
		out.Write(make([]byte, (4-len(f)%4)%4))
	}
	return out.Bytes()
}

// FuzzParseFace: no font file on a computer, however broken, stops a
// sheet: it is refused, never a panic.
func FuzzParseFace(f *testing.F) {
	noto := theme.DefaultTextFont().Content()
	f.Add(noto, 0)
	f.Add(noto[:4096], 0)
	f.Add(noto[:12], 0)
	f.Add(collection(noto[:2048], noto[:1024]), 1)
	f.Add([]byte("OTTO"), 0)
	f.Add([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x09"), 3)
	f.Fuzz(func(t *testing.T, data []byte, index int) {
		parseFace("fuzz", data, index)
	})
}
