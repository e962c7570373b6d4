package pdftext

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/go-pdf/fpdf"
	"github.com/go-text/typesetting/segmenter"
	"golang.org/x/text/unicode/norm"
)

// Writer sets text on one fpdf document with a Set: Cell and MultiCell
// as fpdf's own, each run of text in the font that has its letters.
type Writer struct {
	pdf   *fpdf.Fpdf
	set   *Set
	bold  bool
	size  float64          // points
	names map[*face]string // the fpdf family each face was added as
	hint  string           // the document's CJK language, when its text says
	seg   segmenter.Segmenter
}

// Writer is a Writer of s on pdf.
func (s *Set) Writer(pdf *fpdf.Fpdf) *Writer {
	return &Writer{pdf: pdf, set: s, size: 10, names: map[*face]string{}}
}

// Hint tells the Writer the document's text, so that a line of Han
// characters alone ("梅田店") is set in the same font as the lines beside
// it with kana or Hangul, which say the language.
func (w *Writer) Hint(texts ...string) {
	for _, t := range texts {
		if l := langOf(t); l == "ja" || l == "ko" {
			w.hint = l
			return
		}
		if l := langOf(t); l != "" && w.hint == "" {
			w.hint = l
		}
	}
}

// SetFont chooses the weight ("" or "B") and size in points of what
// follows.
func (w *Writer) SetFont(style string, size float64) {
	w.bold = strings.Contains(style, "B")
	w.size = size
	// Something must be current for fpdf's own measures (line height).
	w.use(w.set.primary.style(w.bold))
}

// run is a stretch of text set in one face.
type run struct {
	text string
	face *face
}

// runs cuts s into runs, each in the first face that prints its letters.
// Spaces, digits and punctuation stay in the run they are in when its
// face has them, so "梅田店 1-9-20" is set in one font.
func (w *Writer) runs(s string) []run {
	lang := langOf(s)
	if lang == "" || lang == "zh" && w.hint != "" {
		lang = w.hint
	}
	if lang == "" {
		lang = "zh"
	}
	var out []run
	var b strings.Builder
	var cur *face
	for _, r := range s {
		var f *face
		if cur != nil && !unicode.IsLetter(r) && cur.cover.has(r) {
			f = cur
		} else if f = w.set.faceFor(r, w.bold, lang); f == nil {
			f = w.set.primary.style(w.bold) // no font has it: its empty box
		}
		if f != cur && b.Len() > 0 {
			out = append(out, run{b.String(), cur})
			b.Reset()
		}
		cur = f
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		out = append(out, run{b.String(), cur})
	}
	return out
}

// use makes f the current font, adding it to the document the first time.
func (w *Writer) use(f *face) {
	name, ok := w.names[f]
	if !ok {
		name = "f" + strconv.Itoa(len(w.names))
		w.names[f] = name
		w.pdf.AddUTF8FontFromBytes(name, "", f.data)
	}
	w.pdf.SetFont(name, "", w.size)
}

// clean is s as it is set: composed (a letter and its accent as one
// glyph, as the fonts have them), tabs as spaces.
func clean(s string) string {
	s = norm.NFC.String(s)
	return strings.ReplaceAll(s, "\t", "    ")
}

// Width is how wide s is set in the current weight and size.
func (w *Writer) Width(s string) float64 {
	total := 0.0
	for _, r := range w.runs(clean(s)) {
		w.use(r.face)
		total += w.pdf.GetStringWidth(r.text)
	}
	return total
}

// Cell sets s on one line in a box width wide and h high at the current
// position, aligned "L", "C" or "R" inside fpdf's cell margin and
// centred vertically, as fpdf's CellFormat: ln 0 moves right of it, 1 to
// the start of the next line, 2 below it. width 0 reaches the right
// margin. A page that cannot hold h more breaks first.
func (w *Writer) Cell(width, h float64, s, align string, ln int) {
	p := w.pdf
	// An empty cell of fpdf's own breaks the page as its cells do (not in
	// the header or footer), keeping x.
	x := p.GetX()
	p.CellFormat(0, h, "", "", 0, "L", false, 0, "")
	p.SetX(x)
	pageW, _ := p.GetPageSize()
	_, _, right, _ := p.GetMargins()
	if width == 0 {
		width = pageW - right - x
	}
	s = clean(s)
	runs := w.runs(s)
	total := 0.0
	widths := make([]float64, len(runs))
	for i, r := range runs {
		w.use(r.face)
		widths[i] = p.GetStringWidth(r.text)
		total += widths[i]
	}
	margin := p.GetCellMargin()
	at := x + margin
	switch align {
	case "R":
		at = x + width - margin - total
	case "C":
		at = x + (width-total)/2
	}
	y := p.GetY()
	_, unit := p.GetFontSize()
	base := y + 0.5*h + 0.3*unit
	for i, r := range runs {
		w.use(r.face)
		p.Text(at, base, r.text)
		at += widths[i]
	}
	switch ln {
	case 0:
		p.SetX(x + width)
	case 1:
		left, _, _, _ := p.GetMargins()
		p.SetXY(left, y+h)
	default:
		p.SetXY(x, y+h)
	}
}

// MultiCell sets s in lines of at most width (0: to the right margin),
// each lineH high, from the current position, breaking the page where
// one is full, as fpdf's MultiCell; after it the position is the left
// margin under the last line.
func (w *Writer) MultiCell(width, lineH float64, s, align string) {
	p := w.pdf
	x := p.GetX()
	if width == 0 {
		pageW, _ := p.GetPageSize()
		_, _, right, _ := p.GetMargins()
		width = pageW - right - x
	}
	for _, line := range w.Lines(s, width) {
		p.SetX(x)
		w.Cell(width, lineH, line, align, 2)
	}
	left, _, _, _ := p.GetMargins()
	p.SetX(left)
}

// Lines breaks s into the lines MultiCell sets in a box width wide: at
// line ends, and where Unicode allows a break (after a space, between
// Chinese or Japanese characters), a word too long for a line cut where
// it must.
func (w *Writer) Lines(s string, width float64) []string {
	room := width - 2*w.pdf.GetCellMargin()
	var lines []string
	for _, para := range strings.Split(clean(s), "\n") {
		para = strings.TrimRight(para, "\r")
		if strings.TrimSpace(para) == "" {
			lines = append(lines, "")
			continue
		}
		w.seg.Init([]rune(para))
		it := w.seg.LineIterator()
		// Widths add up (fpdf sets no kerning), so the line's width is
		// kept as it grows rather than measured again.
		line, lineW := "", 0.0
		for it.Next() {
			piece := string(it.Line().Text)
			trimmed := strings.TrimRight(piece, " ")
			if lineW+w.Width(trimmed) <= room {
				line, lineW = line+piece, lineW+w.Width(piece)
				continue
			}
			if line != "" {
				lines = append(lines, strings.TrimRight(line, " "))
			}
			// A piece wider than a line by itself: cut between letters.
			for w.Width(strings.TrimRight(piece, " ")) > room {
				cut := w.fit(piece, room)
				lines = append(lines, piece[:cut])
				piece = piece[cut:]
			}
			line, lineW = piece, w.Width(piece)
		}
		if strings.TrimSpace(line) != "" || len(lines) == 0 {
			lines = append(lines, strings.TrimRight(line, " "))
		}
	}
	return lines
}

// fit is how many bytes of s fit in room: at least one letter.
func (w *Writer) fit(s string, room float64) int {
	end, width := 0, 0.0
	for i, r := range s {
		width += w.Width(string(r))
		if end > 0 && width > room {
			break
		}
		end = i + len(string(r))
	}
	return end
}

// Paper is a sheet's paper size, as fpdf names it.
type Paper string

// The sizes the sheets print on: A4 (most of the world) and US Letter
// (the Americas).
const (
	A4     Paper = "A4"
	Letter Paper = "Letter"
)

// Papers are the sizes a person chooses from.
var Papers = []Paper{A4, Letter}

// OrA4 is p, or A4 when p is not a size the sheets print on.
func (p Paper) OrA4() Paper {
	if p == Letter {
		return Letter
	}
	return A4
}
