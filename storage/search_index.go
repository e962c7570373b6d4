package storage

import (
	"bytes"
	"cmp"
	"errors"
	"hash/maphash"
	"slices"
	"strings"
)

// searchIndex answers a search as you type in memory, with the same rows
// as the replica's FTS5 index and number LIKE (findWithFTS, which stays for
// what this one cannot answer), and pages them in list order: at 100,000
// work orders FTS5 took 10-45 ms for one- and two-letter prefixes, words
// with digits and broad words together, most of it reading tens of
// thousands of ids out of SQLite, and walking the sort index for a page up
// to 80 ms more. Here a prefix is a range of the sorted dictionary, a
// search a few bitmaps over the distinct column texts and one pass over
// the work orders, and a page a walk of the list's order (search_order.go).
//
// A column's text is held as its tokens (a "value"), shared by the work
// orders whose text in some searched column tokenizes alike: customers,
// sites and addresses repeat, so at 100,000 work orders there are about as
// many values as work orders (one number each) plus a few thousand. Not
// safe for concurrent use; liveSearch guards it.
type searchIndex struct {
	tok *tokenizer
	seq int64 // the last search_changes entry applied

	// The dictionary, and its token ids in token order (a prefix is a
	// range of them).
	dict    dictionary
	byRank  []uint32
	rank    []uint32 // token id → its place in byRank
	newToks []uint32 // not yet in byRank

	// Values: a value's token ids are valToks[valOff[v]:valOff[v+1]];
	// post lists the values holding each token (once each).
	valOff  []uint32
	valToks []uint32
	valRefs []int32 // work orders using it; 0 = dead, dropped at the next build
	post    postings
	dead    int
	shared  map[uint64]uint32 // hash of a non-number value's tokens → that value
	seed    maphash.Seed

	// Number values carry their text too, for number LIKE: lower-cased
	// ASCII up to any NUL (as LIKE reads it), NUL-separated in numBuf from
	// numStart[i], which belongs to value numVal[i].
	numBuf   []byte
	numStart []uint32
	numVal   []uint32

	// Work orders by ordinal, which never changes: a new one is appended,
	// one gone from the replica stays, not live, until the next build. Each
	// has its id, the values of its searched columns (searchColumns'
	// order) and its sort keys; byID lists the ordinals in id order.
	ids  []int64
	vals [][searchColumnCount]uint32
	keys []sortKeys
	live bitmap
	byID []uint32
	// The orders the list was sorted in (search_order.go), and the work
	// orders written since they were last brought up to date.
	orders     map[Column]*sortOrder
	changed    []uint32
	numbers    []byte   // the numbers of sortKeys, one after another
	strs       []string // the texts of sortKeys' handles
	strID      map[string]uint32
	binaryRank []uint32 // handle → place in BINARY order; nil: to be made
	nocaseRank []uint32 // and in NOCASE order

	buf []byte // tokenizer scratch

	attn attentionCache // who needs attention, judged for all at once
}

// searchColumns are the columns of work_orders_fts, number first.
const searchColumns = `number, customer_name, site, address, description`

const searchColumnCount = 5

func newSearchIndex(tok *tokenizer) *searchIndex {
	return &searchIndex{tok: tok, dict: newDictionary(), shared: map[uint64]uint32{}, seed: maphash.MakeSeed(),
		valOff: []uint32{0}, orders: map[Column]*sortOrder{}, strID: map[string]uint32{}}
}

// reserve makes room for n work orders, so that a build does not leave up
// to half its slices' room unused.
func (x *searchIndex) reserve(n int) {
	x.ids = slices.Grow(x.ids, n)
	x.vals = slices.Grow(x.vals, n)
	x.keys = slices.Grow(x.keys, n)
	x.byID = slices.Grow(x.byID, n)
	x.live = slices.Grow(x.live, n/64+1)
	x.valOff = slices.Grow(x.valOff, n+n/8)
	x.valRefs = slices.Grow(x.valRefs, n+n/8)
	x.numStart = slices.Grow(x.numStart, n)
	x.numVal = slices.Grow(x.numVal, n)
}

// token returns the id of tok, adding it to the dictionary if new.
func (x *searchIndex) token(tok []byte) uint32 {
	id, added := x.dict.add(tok)
	if added {
		x.post.addToken()
		x.rank = append(x.rank, 0)
		x.newToks = append(x.newToks, id)
	}
	return id
}

// sortDictionary puts the tokens added since the last call in order.
func (x *searchIndex) sortDictionary() {
	if len(x.newToks) == 0 {
		return
	}
	byTok := func(a, b uint32) int { return bytes.Compare(x.dict.token(a), x.dict.token(b)) }
	slices.SortFunc(x.newToks, byTok)
	merged := make([]uint32, 0, len(x.byRank)+len(x.newToks))
	i, j := 0, 0
	for i < len(x.byRank) || j < len(x.newToks) {
		if j == len(x.newToks) || i < len(x.byRank) && byTok(x.byRank[i], x.newToks[j]) < 0 {
			merged = append(merged, x.byRank[i])
			i++
		} else {
			merged = append(merged, x.newToks[j])
			j++
		}
	}
	x.byRank, x.newToks = merged, x.newToks[:0]
	for r, id := range x.byRank {
		x.rank[id] = uint32(r)
	}
}

// tokens calls emit with each token of s (see tokenizer.tokens), learning
// the characters it has not met first; reset undoes what emit did when
// tokenizing has to start again.
func (x *searchIndex) tokens(s string, emit func(tok []byte), reset func()) error {
	var err error
	if x.buf, err = x.tok.tokens(s, x.buf, emit); !errors.Is(err, errUnlearned) {
		return err
	}
	reset()
	if err := x.tok.learnRunes(s); err != nil {
		return err
	}
	x.buf, err = x.tok.tokens(s, x.buf, emit)
	return err
}

// tokenize appends the token ids of s to ids.
func (x *searchIndex) tokenize(s string, ids []uint32) ([]uint32, error) {
	start := len(ids)
	err := x.tokens(s, func(t []byte) { ids = append(ids, x.token(t)) }, func() { ids = ids[:start] })
	return ids, err
}

// addValue stores a value of the token ids toks and returns it, used once.
func (x *searchIndex) addValue(toks []uint32) uint32 {
	v := uint32(len(x.valRefs))
	x.valToks = append(x.valToks, toks...)
	x.valOff = append(x.valOff, uint32(len(x.valToks)))
	x.valRefs = append(x.valRefs, 1)
	for i, t := range toks {
		if !slices.Contains(toks[:i], t) {
			x.post.add(t, v)
		}
	}
	return v
}

func (x *searchIndex) valueTokens(v uint32) []uint32 { return x.valToks[x.valOff[v]:x.valOff[v+1]] }

// sharedValue returns the value of the token ids toks, used once more: an
// existing one when another column text tokenized alike.
func (x *searchIndex) sharedValue(toks []uint32) uint32 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	for _, t := range toks {
		h.Write([]byte{byte(t), byte(t >> 8), byte(t >> 16), byte(t >> 24)})
	}
	sum := h.Sum64()
	if v, ok := x.shared[sum]; ok && x.valRefs[v] > 0 && slices.Equal(x.valueTokens(v), toks) {
		x.valRefs[v]++
		return v
	}
	v := x.addValue(toks)
	x.shared[sum] = v
	return v
}

// numberValue returns a new value for the number column's text.
func (x *searchIndex) numberValue(number string, toks []uint32) uint32 {
	v := x.addValue(toks)
	x.numStart = append(x.numStart, uint32(len(x.numBuf)))
	x.numVal = append(x.numVal, v)
	x.numBuf = appendLikeText(x.numBuf, number)
	x.numBuf = append(x.numBuf, 0)
	return v
}

// appendLikeText appends s as a case-insensitive LIKE compares it: up to
// its first NUL (SQLite's LIKE reads a C string), ASCII letters lower-cased
// (the only ones it folds).
func appendLikeText(b []byte, s string) []byte {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// release drops one use of v.
func (x *searchIndex) release(v uint32) {
	if x.valRefs[v]--; x.valRefs[v] == 0 {
		x.dead++
	}
}

// rowValues returns the values of a work order's searched columns, reusing
// old's where the text tokenizes (and for the number, reads) alike.
func (x *searchIndex) rowValues(cols *[searchColumnCount]string, old *[searchColumnCount]uint32) ([searchColumnCount]uint32, error) {
	var vals [searchColumnCount]uint32
	var toks []uint32
	for c, text := range cols {
		var err error
		if toks, err = x.tokenize(text, toks[:0]); err != nil {
			return vals, err
		}
		switch {
		case c == 0 && old != nil && slices.Equal(x.valueTokens(old[0]), toks) && x.sameNumber(old[0], text):
			x.valRefs[old[0]]++
			vals[0] = old[0]
		case c == 0:
			vals[0] = x.numberValue(text, toks)
		default:
			vals[c] = x.sharedValue(toks)
		}
	}
	return vals, nil
}

// sameNumber reports whether number reads as value v's number text.
func (x *searchIndex) sameNumber(v uint32, number string) bool {
	i, ok := slices.BinarySearch(x.numVal, v)
	if !ok {
		return false
	}
	end := len(x.numBuf) - 1
	if i+1 < len(x.numStart) {
		end = int(x.numStart[i+1]) - 1
	}
	return bytes.Equal(x.numBuf[x.numStart[i]:end], appendLikeText(nil, number))
}

// at is where work order id is, or would be, in byID.
func (x *searchIndex) at(id int64) (int, bool) {
	return slices.BinarySearchFunc(x.byID, id, func(o uint32, id int64) int { return cmp.Compare(x.ids[o], id) })
}

// put sets what the index holds of a work order. A text it cannot tokenize
// as FTS5 does makes it return errOddText, after which the index must not
// be used.
func (x *searchIndex) put(r *indexRow) error {
	at, found := x.at(r.id)
	var old *[searchColumnCount]uint32
	if found {
		old = &x.vals[x.byID[at]]
	}
	vals, err := x.rowValues(&r.text, old)
	if err != nil {
		return err
	}
	if found {
		o := x.byID[at]
		keys := x.sortKeysOf(r, &x.keys[o])
		for _, v := range x.vals[o] {
			x.release(v)
		}
		x.vals[o], x.keys[o] = vals, keys
		x.changed = append(x.changed, o)
		return nil
	}
	o := x.appendDoc(r.id, vals, x.sortKeysOf(r, nil))
	x.byID = slices.Insert(x.byID, at, o)
	x.changed = append(x.changed, o)
	return nil
}

// appendDoc adds a work order with a new ordinal, which it returns; the
// caller puts it in byID.
func (x *searchIndex) appendDoc(id int64, vals [searchColumnCount]uint32, keys sortKeys) uint32 {
	o := uint32(len(x.ids))
	x.ids = append(x.ids, id)
	x.vals = append(x.vals, vals)
	x.keys = append(x.keys, keys)
	if int(o)/64 >= len(x.live) {
		x.live = append(x.live, 0)
	}
	x.live.set(o)
	return o
}

// remove forgets work order id.
func (x *searchIndex) remove(id int64) {
	at, found := x.at(id)
	if !found {
		return
	}
	o := x.byID[at]
	for _, v := range x.vals[o] {
		x.release(v)
	}
	x.live[o>>6] &^= 1 << (o & 63)
	x.byID = slices.Delete(x.byID, at, at+1)
	x.changed = append(x.changed, o)
}
