// Package pdftext sets text in the PDFs a person takes away (the job
// sheet, the day sheet) in whatever script it is written: fpdf embeds
// TrueType fonts only and has no fallback of its own, so each run of text
// is set in the first font that has its letters: the sheet's own font
// (Noto Sans, which the window shows, for Latin, Greek and Cyrillic), then
// the computer's font for Japanese, Chinese or Korean, then WenQuanYi
// Micro Hei, bundled, which has all three, and last any other font of the
// computer's for a rarer script (Thai, Hebrew...). fpdf embeds a subset of
// each font used: only the glyphs printed. It imports no package of the
// project's but the bundled font's.
package pdftext

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"unicode"

	"github.com/go-pdf/fpdf"

	"github.com/workorderdesk/workdesk/assets/fonts"
)

// family is a font in its regular and bold weights; bold nil: the regular
// stands in for it (the bundled CJK font has no bold).
type family struct {
	regular, bold *face
}

func (f *family) style(bold bool) *face {
	if bold && f.bold != nil {
		return f.bold
	}
	return f.regular
}

// Options say what a Set is made of.
type Options struct {
	// Regular and Bold are the sheet's own font, tried first for every
	// letter (the window's Noto Sans).
	Regular, Bold []byte
	// NoSystemFonts leaves the computer's fonts out: only the given and
	// the bundled fonts print (tests of the bundled fallback).
	NoSystemFonts bool
}

// Set is the fonts a document is set in, in the order they are tried. It
// may be shared by documents made one after another or at once.
type Set struct {
	primary  family
	fallback family
	system   bool

	mu     sync.Mutex
	byLang map[string]*family // "ja", "zh", "ko": nil when the computer has none
	extra  []*family          // the computer's fonts found for rarer scripts
}

// bundled is WenQuanYi Micro Hei, parsed once per process.
var bundled = sync.OnceValues(func() (*face, error) {
	b, err := fonts.CJKFallback()
	if err != nil {
		return nil, err
	}
	return parseFace("wqy-microhei.ttf", b, 0)
})

// New is the Set of opts.
func New(opts Options) (*Set, error) {
	if len(opts.Regular) == 0 || len(opts.Bold) == 0 {
		return nil, errors.New("no font to print with")
	}
	reg, err := parseFace("regular", opts.Regular, 0)
	if err != nil {
		return nil, err
	}
	bold, err := parseFace("bold", opts.Bold, 0)
	if err != nil {
		return nil, err
	}
	fb, err := bundled()
	if err != nil {
		return nil, fmt.Errorf("the bundled fallback font: %w", err)
	}
	return &Set{primary: family{reg, bold}, fallback: family{regular: fb}, system: !opts.NoSystemFonts,
		byLang: map[string]*family{}}, nil
}

// langs is the order the CJK languages' fonts are tried in for a text in
// lang: its own first, as Han characters are drawn differently in each.
var langs = map[string][]string{"ja": {"ja", "zh", "ko"}, "zh": {"zh", "ja", "ko"}, "ko": {"ko", "ja", "zh"}}

// faceFor is the face that prints r in the weight asked for, for a text
// taken to be in lang; nil when no font at hand has it.
func (s *Set) faceFor(r rune, bold bool, lang string) *face {
	if f := s.primary.style(bold); f.cover.has(r) {
		return f
	}
	if s.system {
		if cjk(r) {
			for _, l := range langs[lang] {
				if fam := s.langFamily(l); fam != nil && fam.style(bold).cover.has(r) {
					return fam.style(bold)
				}
			}
		}
		if f := s.extraFor(r, bold); f != nil {
			return f
		}
	}
	if f := s.fallback.style(bold); f.cover.has(r) {
		return f
	}
	if s.system && !cjk(r) {
		return s.findExtra(r, bold)
	}
	return nil
}

func (s *Set) langFamily(lang string) *family {
	s.mu.Lock()
	defer s.mu.Unlock()
	fam, ok := s.byLang[lang]
	if !ok {
		fam = systemFamily(lang)
		s.byLang[lang] = fam
	}
	return fam
}

func (s *Set) extraFor(r rune, bold bool) *face {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, fam := range s.extra {
		if f := fam.style(bold); f.cover.has(r) {
			return f
		}
	}
	return nil
}

func (s *Set) findExtra(r rune, bold bool) *face {
	fam := systemFamilyFor(r)
	if fam == nil {
		return nil
	}
	s.mu.Lock()
	s.extra = append(s.extra, fam)
	s.mu.Unlock()
	return fam.style(bold)
}

// cjk reports a letter of Chinese, Japanese or Korean, whose font is
// chosen by the language of the text.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef // CJK punctuation, full-width forms
}

// langOf is the language a text's CJK letters are taken to be in: kana
// say Japanese, Hangul Korean; Han alone, Chinese. "" when it has none
// of them.
func langOf(s string) string {
	lang := ""
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return "ja"
		case unicode.Is(unicode.Hangul, r):
			return "ko"
		case unicode.Is(unicode.Han, r):
			lang = "zh"
		}
	}
	return lang
}

// tryEmbed sets a few of f's letters in a throwaway PDF, as fpdf will:
// fpdf prints, rather than returns, some of its complaints about a font,
// and panics on others, so a font it cannot take must be known before a
// sheet uses it.
func tryEmbed(f *face) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: fpdf cannot embed it: %v", f.name, r)
		}
	}()
	var sample []rune
	for r := rune(0x21); r < 0x10000 && len(sample) < 8; r++ {
		if f.cover.has(r) {
			sample = append(sample, r)
		}
	}
	if len(sample) == 0 {
		return fmt.Errorf("%s: prints nothing", f.name)
	}
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes("t", "", f.data)
	pdf.AddPage()
	pdf.SetFont("t", "", 10)
	pdf.Text(10, 10, string(sample))
	if err := pdf.Output(io.Discard); err != nil {
		return fmt.Errorf("%s: fpdf cannot embed it: %w", f.name, err)
	}
	return nil
}

// Missing lists the runes of text that no font at hand prints (they come
// out as empty boxes), each once.
func (s *Set) Missing(text string) []rune {
	var out []rune
	lang := langOf(text)
	for _, r := range text {
		if unicode.IsControl(r) || slices.Contains(out, r) {
			continue
		}
		if s.faceFor(r, false, lang) == nil {
			out = append(out, r)
		}
	}
	return out
}
