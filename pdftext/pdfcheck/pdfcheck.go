// Package pdfcheck reads back the PDFs fpdf writes, for tests: which
// runes were drawn, in which embedded font, and whether the glyph each was
// drawn with is a real one (an outline, not the empty .notdef box). It
// reads fpdf's own output (uncompressed object syntax, Flate streams,
// Type0 fonts with Identity-H and a CIDToGIDMap), not any PDF; the
// embedded fonts are read with golang.org/x/image's sfnt, a parser of
// its own, not the one that chose them.
package pdfcheck

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode/utf16"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Drawn is one rune as the PDF draws it.
type Drawn struct {
	Font  string // the font's BaseFont
	Glyph int    // its glyph id in the embedded font; 0 is .notdef
	Real  bool   // the glyph has an outline
}

// Doc is a PDF read back.
type Doc struct {
	objs map[int][]byte // object number → its body
	// Runes are every rune drawn, each with every font it was drawn in.
	Runes map[rune][]Drawn
	// Fonts are the embedded font programs by BaseFont, as fpdf cut them.
	Fonts map[string][]byte
}

var (
	objRe      = regexp.MustCompile(`(?s)(\d+) 0 obj\n?(.*?)\nendobj`)
	refRe      = regexp.MustCompile(`/(\w+) (\d+) 0 R`)
	contentsRe = regexp.MustCompile(`/Contents (\d+) 0 R`)
	fontDictRe = regexp.MustCompile(`(?s)/Font\s*<<(.*?)>>`)
	baseFontRe = regexp.MustCompile(`/BaseFont /(\S+)`)
	descRe     = regexp.MustCompile(`/DescendantFonts \[(\d+) 0 R\]`)
	lengthRe   = regexp.MustCompile(`/Length (\d+)`)
)

// Read reads pdf.
func Read(pdf []byte) (*Doc, error) {
	d := &Doc{objs: map[int][]byte{}, Runes: map[rune][]Drawn{}, Fonts: map[string][]byte{}}
	for _, m := range objRe.FindAllSubmatch(pdf, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		d.objs[n] = m[2]
	}
	if len(d.objs) == 0 {
		return nil, fmt.Errorf("no objects: not a PDF fpdf wrote")
	}
	// The fonts of the resources: resource name → what it draws with.
	type font struct {
		base  string
		cid   []byte // CIDToGIDMap: two bytes per code
		sfnt  *sfnt.Font
		notes map[int]bool // glyph id → has an outline
	}
	fonts := map[string]*font{}
	for _, body := range d.objs {
		fd := fontDictRe.FindSubmatch(body)
		if fd == nil {
			continue
		}
		for _, ref := range refRe.FindAllSubmatch(fd[1], -1) {
			name := string(ref[1])
			n, _ := strconv.Atoi(string(ref[2]))
			f := &font{notes: map[int]bool{}}
			if bf := baseFontRe.FindSubmatch(d.objs[n]); bf != nil {
				f.base = string(bf[1])
			}
			desc := descRe.FindSubmatch(d.objs[n])
			if desc == nil {
				fonts[name] = f // not a Type0 font: not one of ours
				continue
			}
			dn, _ := strconv.Atoi(string(desc[1]))
			cidFont := d.objs[dn]
			if m := regexp.MustCompile(`/CIDToGIDMap (\d+) 0 R`).FindSubmatch(cidFont); m != nil {
				cn, _ := strconv.Atoi(string(m[1]))
				cid, err := d.stream(cn)
				if err != nil {
					return nil, fmt.Errorf("%s's CIDToGIDMap: %w", f.base, err)
				}
				f.cid = cid
			}
			if m := regexp.MustCompile(`/FontDescriptor (\d+) 0 R`).FindSubmatch(cidFont); m != nil {
				fdn, _ := strconv.Atoi(string(m[1]))
				if ff := regexp.MustCompile(`/FontFile2 (\d+) 0 R`).FindSubmatch(d.objs[fdn]); ff != nil {
					ffn, _ := strconv.Atoi(string(ff[1]))
					prog, err := d.stream(ffn)
					if err != nil {
						return nil, fmt.Errorf("%s's font program: %w", f.base, err)
					}
					d.Fonts[f.base] = prog
					if f.sfnt, err = sfnt.Parse(prog); err != nil {
						return nil, fmt.Errorf("%s's embedded font does not parse: %w", f.base, err)
					}
				}
			}
			fonts[name] = f
		}
	}
	real := func(f *font, gid int) bool {
		if ok, seen := f.notes[gid]; seen {
			return ok
		}
		ok := false
		if f.sfnt != nil && gid > 0 {
			var buf sfnt.Buffer
			segs, err := f.sfnt.LoadGlyph(&buf, sfnt.GlyphIndex(gid), fixed.I(100), nil)
			ok = err == nil && len(segs) > 0
		}
		f.notes[gid] = ok
		return ok
	}
	// Every page's content: "/Fn size Tf" chooses the font, "(...) Tj" draws.
	for _, body := range d.objs {
		for _, c := range contentsRe.FindAllSubmatch(body, -1) {
			n, _ := strconv.Atoi(string(c[1]))
			content, err := d.stream(n)
			if err != nil {
				return nil, fmt.Errorf("page content %d: %w", n, err)
			}
			var cur *font
			for _, op := range scan(content) {
				switch op.name {
				case "Tf":
					cur = fonts[op.font]
				case "Tj":
					if cur == nil {
						return nil, fmt.Errorf("text drawn before any font")
					}
					for _, r := range decodeUTF16(op.text) {
						dr := Drawn{Font: cur.base}
						if cur.cid != nil && r < 0x10000 && 2*int(r)+1 < len(cur.cid) {
							dr.Glyph = int(binary.BigEndian.Uint16(cur.cid[2*r:]))
						}
						dr.Real = real(cur, dr.Glyph)
						d.Runes[r] = append(d.Runes[r], dr)
					}
				}
			}
		}
	}
	return d, nil
}

// stream is the decoded stream of object n.
func (d *Doc) stream(n int) ([]byte, error) {
	body, ok := d.objs[n]
	if !ok {
		return nil, fmt.Errorf("no object %d", n)
	}
	i := bytes.Index(body, []byte("stream\n"))
	if i < 0 {
		return nil, fmt.Errorf("object %d holds no stream", n)
	}
	dict, raw := body[:i], body[i+len("stream\n"):]
	if m := lengthRe.FindSubmatch(dict); m != nil {
		if l, _ := strconv.Atoi(string(m[1])); l <= len(raw) {
			raw = raw[:l]
		}
	}
	if !bytes.Contains(dict, []byte("/FlateDecode")) {
		return raw, nil
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

type op struct {
	name string
	font string // Tf
	text []byte // Tj
}

// scan finds the Tf and Tj operators of a content stream, with their
// operands, reading strings as PDF does (escapes, nesting).
func scan(c []byte) []op {
	var ops []op
	var lastName string
	var lastString []byte
	for i := 0; i < len(c); i++ {
		switch ch := c[i]; {
		case ch == '/':
			j := i + 1
			for j < len(c) && !isDelim(c[j]) {
				j++
			}
			lastName = string(c[i+1 : j])
			i = j - 1
		case ch == '(':
			s, end := literal(c, i)
			lastString, i = s, end
		case ch == 'T' && i+1 < len(c) && (c[i+1] == 'f' || c[i+1] == 'j') && (i+2 == len(c) || isDelim(c[i+2])):
			if c[i+1] == 'f' {
				ops = append(ops, op{name: "Tf", font: lastName})
			} else {
				ops = append(ops, op{name: "Tj", text: lastString})
			}
			i++
		}
	}
	return ops
}

func isDelim(b byte) bool {
	return bytes.IndexByte([]byte(" \t\r\n()<>[]{}/%"), b) >= 0
}

// literal reads the string starting at c[i] == '(' and returns it and
// the index of its closing parenthesis.
func literal(c []byte, i int) ([]byte, int) {
	var out []byte
	depth := 0
	for j := i; j < len(c); j++ {
		switch ch := c[j]; ch {
		case '(':
			if depth > 0 {
				out = append(out, ch)
			}
			depth++
		case ')':
			depth--
			if depth == 0 {
				return out, j
			}
			out = append(out, ch)
		case '\\':
			j++
			if j >= len(c) {
				return out, j
			}
			switch e := c[j]; e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\n':
			default:
				if e >= '0' && e <= '7' {
					v, k := 0, 0
					for ; k < 3 && j+k < len(c) && c[j+k] >= '0' && c[j+k] <= '7'; k++ {
						v = v*8 + int(c[j+k]-'0')
					}
					out = append(out, byte(v))
					j += k - 1
				} else {
					out = append(out, e)
				}
			}
		default:
			out = append(out, ch)
		}
	}
	return out, len(c)
}

func decodeUTF16(b []byte) []rune {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return utf16.Decode(u)
}

// Check says which runes of text the PDF does not draw, or draws with no
// real glyph (spaces excepted, which have none); nil when all are there.
func (d *Doc) Check(text string) []string {
	var bad []string
	seen := map[rune]bool{}
	for _, r := range text {
		if seen[r] || r == ' ' || r == '\n' || r == '\u00a0' {
			continue
		}
		seen[r] = true
		drawn, ok := d.Runes[r]
		if !ok {
			bad = append(bad, fmt.Sprintf("%q (U+%04X) is not drawn", r, r))
			continue
		}
		for _, dr := range drawn {
			if !dr.Real {
				bad = append(bad, fmt.Sprintf("%q (U+%04X) is drawn in %s with glyph %d, which has no outline", r, r, dr.Font, dr.Glyph))
				break
			}
		}
	}
	return bad
}

// Scripts are text in every script the tests print: what a work order
// from a customer anywhere may hold.
var Scripts = []struct{ Name, Text string }{
	{"Japanese", "さくらマート 梅田店 大阪市北区梅田1-9-20 シフトリーダー"},
	{"Chinese", "北京市朝阳区建国路88号 维修工单 冷库压缩机"},
	{"Korean", "서울특별시 강남구 테헤란로 152 냉동기 점검"},
	{"Cyrillic", "Москва, ул. Тверская, д. 7 — Дмитрий Волков, щёлочь"},
	{"Greek", "Αθήνα, Οδός Ερμού 15 — Γιώργος Παπαδόπουλος"},
	{"accented Latin", "Jürgen Groß-Ødegård, Łódź, São Paulo, Ærøskøbing, Čačak, İstanbul, Ångström, Ñuñoa"},
}
