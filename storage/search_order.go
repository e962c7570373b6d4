package storage

import (
	"bytes"
	"cmp"
	"database/sql"
	"slices"
	"strings"
)

// The in-memory index also pages a search's rows in list order, which
// walking SQLite's sort index did badly when the rows found sort late: a
// customer's name sorted by customer read 70,000 index rows to show 50.
// Each work order's sort keys are read with list's own expressions
// (sortExpr), so SQLite computes them (the NTE as a REAL, the deadline);
// they are compared here as SQLite's ORDER BY compares them: BINARY text
// as bytes, NOCASE text with ASCII letters folded, numbers as numbers,
// dates without a value last, ties by id.

// indexRow is what the index reads of one work order.
type indexRow struct {
	id                  int64
	text                [searchColumnCount]string // searchColumns
	deadline, scheduled sql.NullInt64
	nte                 float64
	status, currency    string
	quote               string
}

// indexRowColumns are read into an indexRow by scanIndexRow (from
// work_orders w).
const indexRowColumns = `w.id, w.number, w.customer_name, w.site, w.address, w.description,
 ` + `w.deadline, w.scheduled_start, CAST(w.nte_amount AS REAL), w.status, w.currency, w.quote_status`

func scanIndexRow(rows *sql.Rows, r *indexRow) error {
	return rows.Scan(&r.id, &r.text[0], &r.text[1], &r.text[2], &r.text[3], &r.text[4],
		&r.deadline, &r.scheduled, &r.nte, &r.status, &r.currency, &r.quote)
}

// sortKeys are a work order's values of the list's sort columns; texts
// that repeat are held once, as handles into searchIndex.strs, and the
// number in searchIndex.numbers.
type sortKeys struct {
	deadline, scheduled       int64
	nte                       float64
	numOff, numLen            uint32
	customer, site            uint32
	status, currency, quote   uint32
	hasDeadline, hasScheduled bool
}

// sortKeysOf returns r's sort keys; old, when not nil, are the work
// order's keys before, whose number is kept if it did not change.
func (x *searchIndex) sortKeysOf(r *indexRow, old *sortKeys) sortKeys {
	k := sortKeys{
		deadline: r.deadline.Int64, hasDeadline: r.deadline.Valid,
		scheduled: r.scheduled.Int64, hasScheduled: r.scheduled.Valid,
		nte:      r.nte,
		customer: x.str(r.text[1]), site: x.str(r.text[2]),
		status: x.str(r.status), currency: x.str(r.currency), quote: x.str(r.quote),
	}
	if old != nil && string(x.number(old)) == r.text[0] {
		k.numOff, k.numLen = old.numOff, old.numLen
	} else {
		k.numOff, k.numLen = uint32(len(x.numbers)), uint32(len(r.text[0]))
		x.numbers = append(x.numbers, r.text[0]...)
	}
	return k
}

func (x *searchIndex) number(k *sortKeys) []byte { return x.numbers[k.numOff : k.numOff+k.numLen] }

// str returns the handle of s.
func (x *searchIndex) str(s string) uint32 {
	if h, ok := x.strID[s]; ok {
		return h
	}
	s = strings.Clone(s) // not the row buffer's
	h := uint32(len(x.strs))
	x.strs = append(x.strs, s)
	x.strID[s] = h
	x.binaryRank, x.nocaseRank = nil, nil
	return h
}

// rankStrs ranks the texts of the handles in BINARY and in NOCASE order,
// texts equal in a collation alike, so that comparing two work orders'
// texts is comparing two numbers.
func (x *searchIndex) rankStrs() {
	if x.binaryRank != nil {
		return
	}
	rank := func(compare func(a, b string) int) []uint32 {
		hs := make([]uint32, len(x.strs))
		for i := range hs {
			hs[i] = uint32(i)
		}
		slices.SortFunc(hs, func(a, b uint32) int { return compare(x.strs[a], x.strs[b]) })
		ranks := make([]uint32, len(x.strs))
		r := uint32(0)
		for i, h := range hs {
			if i > 0 && compare(x.strs[hs[i-1]], x.strs[h]) != 0 {
				r++
			}
			ranks[h] = r
		}
		return ranks
	}
	x.binaryRank, x.nocaseRank = rank(strings.Compare), rank(nocase)
}

// nocase compares as SQLite's NOCASE collation (sqlite3StrNICmp over the
// shorter length, then the longer is greater): ASCII letters folded, and
// a NUL in a ends the comparison there.
func nocase(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := lowerASCII(a[i]), lowerASCII(b[i])
		if a[i] == 0 || ca != cb {
			return int(ca) - int(cb)
		}
	}
	return len(a) - len(b)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// dated reports whether col is a date whose rows without one sort last in
// either direction (listOrder).
func dated(col Column) bool { return col == SortNextDeadline || col == SortScheduledStart }

// compareDocs orders work orders a and b as listOrder does ascending (after
// rankStrs).
func (x *searchIndex) compareDocs(col Column, a, b uint32) int {
	ka, kb := &x.keys[a], &x.keys[b]
	c := 0
	switch col {
	case SortNextDeadline:
		c = compareDate(ka.hasDeadline, ka.deadline, kb.hasDeadline, kb.deadline)
	case SortScheduledStart:
		c = compareDate(ka.hasScheduled, ka.scheduled, kb.hasScheduled, kb.scheduled)
	case SortNumber:
		c = bytes.Compare(x.number(ka), x.number(kb))
	case SortCustomer:
		c = cmp.Compare(x.nocaseRank[ka.customer], x.nocaseRank[kb.customer])
	case SortSite:
		c = cmp.Compare(x.nocaseRank[ka.site], x.nocaseRank[kb.site])
	case SortStatus:
		c = cmp.Compare(x.binaryRank[ka.status], x.binaryRank[kb.status])
	case SortNte:
		c = cmp.Compare(ka.nte, kb.nte)
	case SortCurrency:
		c = cmp.Compare(x.binaryRank[ka.currency], x.binaryRank[kb.currency])
	case SortQuoteStatus:
		c = cmp.Compare(x.binaryRank[ka.quote], x.binaryRank[kb.quote])
	}
	if c != 0 {
		return c
	}
	return cmp.Compare(x.ids[a], x.ids[b])
}

func compareDate(hasA bool, a int64, hasB bool, b int64) int {
	switch {
	case hasA != hasB:
		if hasA {
			return -1
		}
		return 1
	case !hasA:
		return 0
	}
	return cmp.Compare(a, b)
}

// sortOrder is the live work orders in one column's ascending order; for a
// date, those without one come last, from undated on.
type sortOrder struct {
	ords    []uint32
	undated int
}

// order returns col's order, brought up to date with the work orders
// written since it was last used.
func (x *searchIndex) order(col Column) *sortOrder {
	x.rankStrs()
	x.updateOrders()
	if o, ok := x.orders[col]; ok {
		return o
	}
	o := &sortOrder{ords: make([]uint32, 0, len(x.byID))}
	o.ords = append(o.ords, x.byID...)
	slices.SortFunc(o.ords, func(a, b uint32) int { return x.compareDocs(col, a, b) })
	x.setUndated(col, o)
	x.orders[col] = o
	return o
}

func (x *searchIndex) setUndated(col Column, o *sortOrder) {
	o.undated = len(o.ords)
	if dated(col) {
		o.undated, _ = slices.BinarySearchFunc(o.ords, true, func(d uint32, _ bool) int {
			k := &x.keys[d]
			if col == SortNextDeadline && k.hasDeadline || col == SortScheduledStart && k.hasScheduled {
				return -1
			}
			return 1
		})
	}
}

// updateOrders moves the work orders written since the last call to their
// places in each order: out, then merged back in if still live.
func (x *searchIndex) updateOrders() {
	if len(x.changed) == 0 {
		return
	}
	slices.Sort(x.changed)
	changed := slices.Compact(x.changed)
	moved := changed[:0:0]
	for _, o := range changed {
		if x.live.has(o) {
			moved = append(moved, o)
		}
	}
	for col, o := range x.orders {
		stay := o.ords[:0:0]
		stay = slices.Grow(stay, len(o.ords)+len(moved))
		for _, d := range o.ords {
			if _, in := slices.BinarySearch(changed, d); !in {
				stay = append(stay, d)
			}
		}
		in := slices.Clone(moved)
		slices.SortFunc(in, func(a, b uint32) int { return x.compareDocs(col, a, b) })
		merged := make([]uint32, 0, len(stay)+len(in))
		i, j := 0, 0
		for i < len(stay) || j < len(in) {
			if j == len(in) || i < len(stay) && x.compareDocs(col, stay[i], in[j]) < 0 {
				merged = append(merged, stay[i])
				i++
			} else {
				merged = append(merged, in[j])
				j++
			}
		}
		o.ords = merged
		x.setUndated(col, o)
	}
	x.changed = x.changed[:0]
}

// page returns the ids of the hits at offset.. offset+limit in the list's
// order (col, desc), as List returns them.
func (x *searchIndex) page(h searchHits, col Column, desc bool, offset, limit int) []int64 {
	out := []int64{}
	if offset >= h.n {
		return out
	}
	o := x.order(col)
	found := 0
	// visit takes d if it is a hit; false: the page is full.
	visit := func(d uint32) bool {
		if !h.docs.has(d) {
			return true
		}
		if found >= offset {
			out = append(out, x.ids[d])
		}
		found++
		return found < offset+limit && found < h.n
	}
	walk := func(ords []uint32, backwards bool) bool {
		if backwards {
			for i := len(ords) - 1; i >= 0; i-- {
				if !visit(ords[i]) {
					return false
				}
			}
			return true
		}
		for _, d := range ords {
			if !visit(d) {
				return false
			}
		}
		return true
	}
	switch {
	case !desc:
		walk(o.ords, false)
	case dated(col):
		// Dated ones latest first, then the undated, by id descending.
		if walk(o.ords[:o.undated], true) {
			walk(o.ords[o.undated:], true)
		}
	default:
		walk(o.ords, true)
	}
	return out
}
