package pdftext

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"unicode"
)

// face is one font as fpdf can embed it: a single TrueType font (a face
// taken out of a collection is made one), with glyf outlines (fpdf cannot
// embed CFF, which Noto Sans CJK and most macOS CJK fonts are), a Unicode
// cmap of format 4 (the only one fpdf reads), and a licence that allows
// embedding a subset. cover is what it prints: the runes its cmap maps to
// a glyph with an outline, or to any glyph for a space.
type face struct {
	name  string
	data  []byte
	cover *runeSet
}

// runeSet is a set of runes of the Basic Multilingual Plane: fpdf's format
// 4 cmap reaches no further.
type runeSet [65536 / 64]uint64

func (s *runeSet) add(r rune) { s[r>>6] |= 1 << (r & 63) }

func (s *runeSet) has(r rune) bool {
	return r >= 0 && r < 65536 && s[r>>6]&(1<<(r&63)) != 0
}

// sfnt versions: TrueType outlines ("\x00\x01\x00\x00", or "true" on old
// Macs), CFF outlines ("OTTO"), and a collection ("ttcf").
const (
	tagTrueType   = 0x00010000
	tagTrueMac    = 0x74727565
	tagCFF        = 0x4f54544f
	tagCollection = 0x74746366
)

// errNotEmbeddable is a font whose outlines or licence fpdf cannot embed.
var errNotEmbeddable = errors.New("not embeddable")

// parseFace reads font data (index: the face of a collection) as fpdf
// will, and says what it prints.
func parseFace(name string, data []byte, index int) (*face, error) {
	if len(data) >= 4 && binary.BigEndian.Uint32(data) == tagCollection {
		one, err := extractFace(data, index)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		data = one
	}
	t, err := readTables(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, need := range []string{"head", "hhea", "maxp", "hmtx", "cmap", "glyf", "loca", "name", "post", "OS/2"} {
		if _, ok := t[need]; !ok {
			return nil, fmt.Errorf("%s: no %s table: %w", name, need, errNotEmbeddable)
		}
	}
	// OS/2 fsType: 0x0002 restricted licence, 0x0100 no subsetting, 0x0200
	// bitmap embedding only. fpdf would embed such a font anyway.
	os2 := t["OS/2"]
	if len(os2) < 10 {
		return nil, fmt.Errorf("%s: short OS/2 table", name)
	}
	if fs := binary.BigEndian.Uint16(os2[8:]); fs&0x000f == 0x0002 || fs&0x0300 != 0 {
		return nil, fmt.Errorf("%s: its licence forbids embedding a subset (fsType %#x): %w", name, fs, errNotEmbeddable)
	}
	cover, err := coverage(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &face{name: name, data: data, cover: cover}, nil
}

// readTables is the table directory of a single TrueType font.
func readTables(data []byte) (map[string][]byte, error) {
	if len(data) < 12 {
		return nil, errors.New("too short to be a font")
	}
	switch binary.BigEndian.Uint32(data) {
	case tagTrueType, tagTrueMac:
	case tagCFF:
		return nil, fmt.Errorf("CFF outlines: %w", errNotEmbeddable)
	default:
		return nil, errors.New("not a TrueType font")
	}
	n := int(binary.BigEndian.Uint16(data[4:]))
	if len(data) < 12+16*n {
		return nil, errors.New("truncated table directory")
	}
	t := make(map[string][]byte, n)
	for i := range n {
		rec := data[12+16*i:]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(data)) {
			return nil, fmt.Errorf("table %q runs past the end", rec[:4])
		}
		t[string(rec[:4])] = data[off : off+length]
	}
	return t, nil
}

// coverage is the runes the font prints, read the way fpdf reads its cmap:
// the first subtable of platform 3 encoding 1, or of platform 0, that has
// format 4.
func coverage(t map[string][]byte) (*runeSet, error) {
	cmap, head, maxp, loca := t["cmap"], t["head"], t["maxp"], t["loca"]
	if len(cmap) < 4 || len(head) < 54 || len(maxp) < 6 {
		return nil, errors.New("short cmap, head or maxp table")
	}
	numGlyphs := int(binary.BigEndian.Uint16(maxp[4:]))
	longLoca := binary.BigEndian.Uint16(head[50:]) != 0
	outline := func(gid int) bool {
		if gid <= 0 || gid >= numGlyphs {
			return false
		}
		if longLoca {
			if len(loca) < 4*(gid+2) {
				return false
			}
			return binary.BigEndian.Uint32(loca[4*gid+4:]) > binary.BigEndian.Uint32(loca[4*gid:])
		}
		if len(loca) < 2*(gid+2) {
			return false
		}
		return binary.BigEndian.Uint16(loca[2*gid+2:]) > binary.BigEndian.Uint16(loca[2*gid:])
	}
	var sub []byte
	for i := range int(binary.BigEndian.Uint16(cmap[2:])) {
		if 4+8*i+8 > len(cmap) {
			break
		}
		rec := cmap[4+8*i:]
		platform, encoding, off := binary.BigEndian.Uint16(rec), binary.BigEndian.Uint16(rec[2:]), binary.BigEndian.Uint32(rec[4:])
		if !(platform == 3 && encoding == 1) && platform != 0 || int(off)+4 > len(cmap) {
			continue
		}
		if binary.BigEndian.Uint16(cmap[off:]) == 4 {
			sub = cmap[off:]
			if l := int(binary.BigEndian.Uint16(sub[2:])); l <= len(sub) {
				sub = sub[:l]
			}
			break
		}
	}
	if len(sub) < 14 {
		return nil, fmt.Errorf("no Unicode cmap of format 4: %w", errNotEmbeddable)
	}
	segs := int(binary.BigEndian.Uint16(sub[6:])) / 2
	if len(sub) < 16+8*segs {
		return nil, errors.New("truncated cmap")
	}
	ends, starts := sub[14:], sub[16+2*segs:]
	deltas, ranges := sub[16+4*segs:], sub[16+6*segs:]
	set := new(runeSet)
	for i := range segs {
		start, end := int(binary.BigEndian.Uint16(starts[2*i:])), int(binary.BigEndian.Uint16(ends[2*i:]))
		delta, ro := int(int16(binary.BigEndian.Uint16(deltas[2*i:]))), int(binary.BigEndian.Uint16(ranges[2*i:]))
		for c := start; c <= end && c < 0xffff; c++ {
			gid := 0
			if ro == 0 {
				gid = (c + delta) & 0xffff
			} else {
				at := 16 + 6*segs + 2*i + ro + 2*(c-start)
				if at+2 > len(sub) {
					continue
				}
				if g := int(binary.BigEndian.Uint16(sub[at:])); g != 0 {
					gid = (g + delta) & 0xffff
				}
			}
			if gid == 0 {
				continue
			}
			if outline(gid) || unicode.IsSpace(rune(c)) || unicode.In(rune(c), unicode.Cf) {
				set.add(rune(c))
			}
		}
	}
	return set, nil
}

// extractFace makes face index of a TrueType collection (.ttc, as most of
// Windows' CJK fonts are) a font of its own, which fpdf can read.
func extractFace(data []byte, index int) ([]byte, error) {
	if len(data) < 12 {
		return nil, errors.New("truncated collection")
	}
	n := int(binary.BigEndian.Uint32(data[8:]))
	if index < 0 || index >= n || len(data) < 12+4*n {
		return nil, fmt.Errorf("no face %d in a collection of %d", index, n)
	}
	start := int(binary.BigEndian.Uint32(data[12+4*index:]))
	if start+12 > len(data) {
		return nil, errors.New("truncated collection")
	}
	head := data[start:]
	numTables := int(binary.BigEndian.Uint16(head[4:]))
	if len(head) < 12+16*numTables {
		return nil, errors.New("truncated collection")
	}
	type table struct {
		rec  []byte
		body []byte
	}
	tables := make([]table, numTables)
	for i := range tables {
		rec := head[12+16*i : 12+16*i+16]
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(data)) {
			return nil, fmt.Errorf("table %q runs past the end", rec[:4])
		}
		tables[i] = table{rec, data[off : off+length]}
	}
	sort.Slice(tables, func(i, j int) bool { return bytes.Compare(tables[i].rec[:4], tables[j].rec[:4]) < 0 })
	var out bytes.Buffer
	out.Write(head[:12]) // version, numTables, searchRange, entrySelector, rangeShift
	at := 12 + 16*numTables
	for _, t := range tables {
		rec := append([]byte(nil), t.rec...)
		binary.BigEndian.PutUint32(rec[8:], uint32(at))
		out.Write(rec)
		at += (len(t.body) + 3) &^ 3
	}
	for _, t := range tables {
		out.Write(t.body)
		out.Write(make([]byte, (4-len(t.body)%4)%4))
	}
	return out.Bytes(), nil
}
