package pdftext

import (
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/fontscan"
)

// The computer's own fonts, found at run time the way Fyne finds its
// fallbacks (go-text's fontscan: Windows' and macOS' font folders,
// fontconfig's on Linux, with an index cached in the user's cache folder
// so only the first run scans). Only TrueType fonts fpdf can embed are
// taken (parseFace); the rest are passed over.

// systemFonts is the computer's fonts, scanned once per process; nil when
// the scan failed (then only the bundled fonts print).
var systemFonts = sync.OnceValue(func() []fontscan.Footprint {
	fps, err := fontscan.SystemFonts(log.New(io.Discard, "", 0), "")
	if err != nil {
		return nil
	}
	return fps
})

// preferred are the families tried first for each language, as their
// names are normalized (lower case, no spaces): each OS's usual TrueType
// font for it. Any other family that has the language's letters comes
// after them.
var preferred = map[string][]string{
	"ja": {"yugothic", "meiryo", "msgothic", "hiraginosans", "arialunicodems", "ipagothic", "ipapgothic", "takaopgothic", "vlgothic", "droidsansfallback"},
	"zh": {"microsoftyahei", "simhei", "simsun", "pingfangsc", "stheitimedium", "arialunicodems", "wenquanyizenhei", "wenquanyimicrohei", "arplumingcn", "droidsansfallback"},
	"ko": {"malgungothic", "gulim", "applesdgothicneo", "arialunicodems", "nanumgothic", "unfontsdotum", "undotum", "droidsansfallback"},
}

// probe are letters a font must have to be taken for a language.
var probe = map[string][]rune{
	"ja": []rune("あア日本語"),
	"zh": []rune("中国的语"),
	"ko": []rune("한국어"),
}

// loaded caches the system faces read from disk (by file and index):
// reading and checking a CJK font costs tens of milliseconds.
var loaded = struct {
	sync.Mutex
	faces map[font.FontID]*face
	bad   map[font.FontID]bool
}{faces: map[font.FontID]*face{}, bad: map[font.FontID]bool{}}

// loadSystem reads the font at id, once; nil when fpdf cannot embed it.
func loadSystem(id font.FontID) *face {
	loaded.Lock()
	defer loaded.Unlock()
	if f, ok := loaded.faces[id]; ok {
		return f
	}
	if loaded.bad[id] {
		return nil
	}
	f, err := readSystem(id)
	if err != nil {
		loaded.bad[id] = true
		return nil
	}
	loaded.faces[id] = f
	return f
}

func readSystem(id font.FontID) (*face, error) {
	data, err := os.ReadFile(id.File)
	if err != nil {
		return nil, err
	}
	f, err := parseFace(id.File, data, int(id.Index))
	if err != nil {
		return nil, err
	}
	if err := tryEmbed(f); err != nil {
		return nil, err
	}
	return f, nil
}

// systemFamily is the computer's best family for lang ("ja", "zh", "ko"):
// its regular and, when it has one, its bold; nil when it has none fpdf
// can embed.
func systemFamily(lang string) *family {
	type cand struct {
		fp   fontscan.Footprint
		rank int
	}
	var cands []cand
	for _, fp := range systemFonts() {
		if fp.Aspect.Style != 0 && fp.Aspect.Style != font.StyleNormal {
			continue
		}
		if !hasAll(fp, probe[lang]) {
			continue
		}
		rank := slices.Index(preferred[lang], fp.Family)
		if rank < 0 {
			rank = len(preferred[lang])
		}
		cands = append(cands, cand{fp, rank})
	}
	// Preferred families first, then by name; within a family, regular
	// weight first.
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if c := strings.Compare(a.fp.Family, b.fp.Family); c != 0 {
			return c
		}
		return int(weightDistance(a.fp, 400) - weightDistance(b.fp, 400))
	})
	for i, c := range cands {
		if c.fp.Aspect.Weight >= 600 {
			continue // a bold face is taken beside its regular, never alone
		}
		reg := loadSystem(c.fp.Location)
		if reg == nil {
			continue
		}
		fam := &family{regular: reg}
		for _, b := range cands[i+1:] {
			if b.fp.Family == c.fp.Family && b.fp.Aspect.Weight >= 600 {
				if bold := loadSystem(b.fp.Location); bold != nil {
					fam.bold = bold
					break
				}
			}
		}
		return fam
	}
	return nil
}

// systemFamilyFor is a computer's font that prints r (a script neither
// the given fonts nor the bundled one has: Thai, Hebrew, Devanagari...);
// nil when none.
func systemFamilyFor(r rune) *family {
	for _, fp := range systemFonts() {
		if fp.Aspect.Style != 0 && fp.Aspect.Style != font.StyleNormal || fp.Aspect.Weight >= 600 || !fp.Runes.Contains(r) {
			continue
		}
		if f := loadSystem(fp.Location); f != nil && f.cover.has(r) {
			return &family{regular: f}
		}
	}
	return nil
}

func hasAll(fp fontscan.Footprint, rs []rune) bool {
	for _, r := range rs {
		if !fp.Runes.Contains(r) {
			return false
		}
	}
	return true
}

func weightDistance(fp fontscan.Footprint, w float32) float32 {
	d := float32(fp.Aspect.Weight) - w
	if fp.Aspect.Weight == 0 {
		return 0 // not said: taken as regular
	}
	if d < 0 {
		return -d
	}
	return d
}
