package storage

import (
	"bytes"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Finding what a search finds in the in-memory index: each phrase of the
// FTS5 query (and each number's LIKE) marks the values that match it in a
// bitmap, and a work order is found when, for every one of them, one of
// its columns' values is marked.

// bitmap is a set of values.
type bitmap []uint64

func newBitmap(n int) bitmap       { return make(bitmap, (n+63)/64) }
func (b bitmap) set(v uint32)      { b[v>>6] |= 1 << (v & 63) }
func (b bitmap) has(v uint32) bool { return b[v>>6]&(1<<(v&63)) != 0 }
func (b bitmap) any(v *[searchColumnCount]uint32) bool {
	return b.has(v[0]) || b.has(v[1]) || b.has(v[2]) || b.has(v[3]) || b.has(v[4])
}

func (b bitmap) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

func (b bitmap) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// searchHits are the work orders a search found: a set of ordinals.
type searchHits struct {
	docs bitmap
	n    int
}

// hitsOf returns what set's search finds, or, for no search at all (the
// list under its filters alone), every work order: the filters then narrow
// them in memory too, where SQL judged the attention rule row by row
// (225-570 ms at 100,000 each time the search box was cleared).
func (x *searchIndex) hitsOf(set *searchSet) (searchHits, bool) {
	if set.match == "" && len(set.numbers) == 0 {
		all := searchHits{docs: newBitmap(len(x.ids))}
		copy(all.docs, x.live)
		all.n = all.docs.count()
		return all, true
	}
	return x.find(set.search)
}

// find returns the work orders that search (what the person typed) finds,
// as findWithFTS finds them; ok is false when the index cannot
// answer it exactly (then ask FTS5).
func (x *searchIndex) find(search string) (hits searchHits, ok bool) {
	if !utf8.ValidString(search) || strings.IndexByte(search, 0) >= 0 {
		return hits, false // FTSQuery and LIKE treat a NUL each their own way
	}
	rest, numbers := splitTerms(search)
	words := ftsPhrases(strings.Join(rest, " "))
	if len(words) == 0 && len(numbers) == 0 {
		return hits, false // not a search
	}
	x.sortDictionary()
	none := searchHits{docs: newBitmap(len(x.ids))}
	var clauses []bitmap
	// The words are one FTS5 query: its phrases must all match, but a phrase
	// with no token in it is left out of it, and a query of nothing but such
	// phrases finds nothing.
	if len(words) > 0 {
		kept := 0
		for _, p := range words {
			toks, ok := x.phraseTokens(p)
			if !ok {
				return hits, false
			}
			if len(toks) == 0 {
				continue
			}
			kept++
			b := x.phrase(toks)
			if b.empty() {
				return none, true
			}
			clauses = append(clauses, b)
		}
		if kept == 0 {
			return none, true
		}
	}
	// Each number: its own FTS5 query (one phrase) or LIKE in the number.
	for _, n := range numbers {
		toks, ok := x.phraseTokens(n)
		if !ok {
			return hits, false
		}
		var b bitmap
		if len(toks) > 0 {
			b = x.phrase(toks)
		} else {
			b = newBitmap(len(x.valRefs))
		}
		x.numberLike(n, b)
		if b.empty() {
			return none, true
		}
		clauses = append(clauses, b)
	}
	// The narrowest first: most work orders fail it at once.
	slices.SortFunc(clauses, func(a, b bitmap) int { return a.count() - b.count() })
	hits = none
	for w, live := range x.live {
		for live != 0 {
			o := uint32(w*64 + bits.TrailingZeros64(live))
			live &= live - 1
			v := &x.vals[o]
			match := true
			for _, b := range clauses {
				if !b.any(v) {
					match = false
					break
				}
			}
			if match {
				hits.docs.set(o)
				hits.n++
			}
		}
	}
	return hits, true
}

// phraseTokens returns the tokens of a phrase as FTS5 reads it from
// FTSQuery's quotes: every one but the last must match a token whole, the
// last is a prefix.
func (x *searchIndex) phraseTokens(p string) ([]string, bool) {
	if len(p) > maxTokenBytes {
		return nil, false
	}
	var toks []string
	err := x.tokens(p, func(t []byte) { toks = append(toks, string(t)) }, func() { toks = nil })
	return toks, err == nil
}

// phrase returns the values holding the tokens toks one after the other,
// the last as a prefix.
func (x *searchIndex) phrase(toks []string) bitmap {
	b := newBitmap(len(x.valRefs))
	last := []byte(toks[len(toks)-1])
	lo, _ := slices.BinarySearchFunc(x.byRank, last, func(id uint32, p []byte) int { return bytes.Compare(x.dict.token(id), p) })
	// The tokens it begins come one after another from lo.
	hi := lo + sort.Search(len(x.byRank)-lo, func(i int) bool { return !bytes.HasPrefix(x.dict.token(x.byRank[lo+i]), last) })
	if lo == hi {
		return b
	}
	if len(toks) == 1 {
		for _, id := range x.byRank[lo:hi] {
			x.post.each(id, b.set)
		}
		return b
	}
	// The candidates: the values of the whole token held by the fewest, or
	// those of the last token's prefix when fewer.
	whole := make([]uint32, len(toks)-1)
	fewest := noValue
	for i, t := range toks[:len(toks)-1] {
		id, ok := x.dict.find([]byte(t))
		if !ok {
			return b
		}
		whole[i] = id
		if fewest == noValue || x.post.count(id) < x.post.count(fewest) {
			fewest = id
		}
	}
	check := func(v uint32) {
		vt := x.valueTokens(v)
	at:
		for s := 0; s+len(toks) <= len(vt); s++ {
			for i, id := range whole {
				if vt[s+i] != id {
					continue at
				}
			}
			if r := x.rank[vt[s+len(whole)]]; int(r) >= lo && int(r) < hi {
				b.set(v)
				return
			}
		}
	}
	byPrefix := 0
	for _, id := range x.byRank[lo:hi] {
		if byPrefix += x.post.count(id); byPrefix >= x.post.count(fewest) {
			break
		}
	}
	if byPrefix < x.post.count(fewest) {
		for _, id := range x.byRank[lo:hi] {
			x.post.each(id, check)
		}
	} else {
		x.post.each(fewest, check)
	}
	return b
}

// numberLike adds to b the number values that hold n, as
// number LIKE '%n%' finds them.
func (x *searchIndex) numberLike(n string, b bitmap) {
	pat := appendLikeText(nil, n)
	buf := x.numBuf
	k := 0 // the number the search has reached
	for at := 0; ; {
		i := bytes.Index(buf[at:], pat)
		if i < 0 {
			return
		}
		// Hits come in order: the number holding this one is at k or after.
		for k+1 < len(x.numStart) && int(x.numStart[k+1]) <= at+i {
			k++
		}
		b.set(x.numVal[k])
		if k+1 == len(x.numStart) {
			return
		}
		k++
		at = int(x.numStart[k])
	}
}
