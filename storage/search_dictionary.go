package storage

import (
	"bytes"
	"hash/maphash"
)

// dictionary holds the in-memory search index's tokens compactly: at
// 100,000 work orders there are about as many tokens as work orders (each
// number is one), and a Go map of strings held them in 6.5 MB of small
// objects; here they take one byte slice, their ends and a hash table.
type dictionary struct {
	text  []byte   // the tokens, one after another
	ends  []uint32 // token id → where its text ends (it starts where the one before ends)
	slots []uint32 // open addressing: token id + 1, 0 = free; a power of two long
	seed  maphash.Seed
}

func newDictionary() dictionary {
	return dictionary{seed: maphash.MakeSeed(), slots: make([]uint32, 1024)}
}

func (d *dictionary) len() int { return len(d.ends) }

// token is the text of token id, valid until the next add.
func (d *dictionary) token(id uint32) []byte {
	start := uint32(0)
	if id > 0 {
		start = d.ends[id-1]
	}
	return d.text[start:d.ends[id]]
}

// slot is where tok is, or where it would go.
func (d *dictionary) slot(tok []byte) int {
	mask := len(d.slots) - 1
	for i := int(maphash.Bytes(d.seed, tok)) & mask; ; i = (i + 1) & mask {
		if id := d.slots[i]; id == 0 || bytes.Equal(d.token(id-1), tok) {
			return i
		}
	}
}

// find returns the id of tok.
func (d *dictionary) find(tok []byte) (uint32, bool) {
	id := d.slots[d.slot(tok)]
	return id - 1, id != 0
}

// add returns the id of tok, adding it if new (added true).
func (d *dictionary) add(tok []byte) (id uint32, added bool) {
	i := d.slot(tok)
	if d.slots[i] != 0 {
		return d.slots[i] - 1, false
	}
	id = uint32(len(d.ends))
	d.text = append(d.text, tok...)
	d.ends = append(d.ends, uint32(len(d.text)))
	d.slots[i] = id + 1
	if 2*len(d.ends) > len(d.slots) {
		d.grow()
	}
	return id, true
}

func (d *dictionary) grow() {
	d.slots = make([]uint32, 2*len(d.slots))
	mask := len(d.slots) - 1
	for id := range uint32(len(d.ends)) {
		i := int(maphash.Bytes(d.seed, d.token(id))) & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = id + 1
	}
}

// postings lists, for each token, the values that hold it: most tokens
// (numbers) are in one value, kept in first; the others' further values in
// more.
type postings struct {
	first []uint32 // token id → a value holding it, or noValue
	more  map[uint32][]uint32
}

const noValue = ^uint32(0)

func (p *postings) addToken() { p.first = append(p.first, noValue) }

func (p *postings) add(tok, v uint32) {
	if p.first[tok] == noValue {
		p.first[tok] = v
		return
	}
	if p.more == nil {
		p.more = map[uint32][]uint32{}
	}
	p.more[tok] = append(p.more[tok], v)
}

// count is how many values hold tok.
func (p *postings) count(tok uint32) int {
	if p.first[tok] == noValue {
		return 0
	}
	return 1 + len(p.more[tok])
}

// each calls f with each value holding tok.
func (p *postings) each(tok uint32, f func(v uint32)) {
	if v := p.first[tok]; v != noValue {
		f(v)
		for _, v := range p.more[tok] {
			f(v)
		}
	}
}
