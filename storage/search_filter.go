package storage

import (
	"maps"
	"math/bits"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// A search under the list's status or "needs attention" filter is
// answered by the in-memory index too: what the search finds is narrowed
// by each work order's status and the attention rule over its sort keys
// (status, quote status, deadline) and the two short lists the index does
// not hold (refusals, invoices over the NTE). Through FTS5 a filtered
// search took 14-92 ms a keystroke at 100,000 work orders.

// filter returns those of h that q's statuses and attention filters keep
// (all of h when q has none), with q.Keep kept whatever they say and
// q.Held left out, judged at now with lists.
func (x *searchIndex) filter(h searchHits, q ListQuery, lists attentionLists, now time.Time) searchHits {
	if !q.filtered() {
		return h
	}
	var statuses map[uint32]bool
	if len(q.Statuses) > 0 {
		statuses = make(map[uint32]bool, len(q.Statuses))
		for _, st := range q.Statuses {
			if s, ok := x.strID[string(st)]; ok {
				statuses[s] = true
			}
		}
	}
	keep := map[uint32]bool{}
	for _, id := range q.Keep {
		if at, found := x.at(id); found {
			keep[x.byID[at]] = true
		}
	}
	held := map[uint32]bool{}
	for _, id := range q.Held {
		if at, found := x.at(id); found {
			held[x.byID[at]] = true
		}
	}
	var attn bitmap
	if q.NeedsAttention {
		attn = x.needsAttention(lists, now)
	}
	out := searchHits{docs: newBitmap(len(x.ids))}
	for w, word := range h.docs {
		for word != 0 {
			o := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			if held[o] {
				continue // drawn by the list where it was
			}
			if keep[o] || (statuses == nil || statuses[x.keys[o].status]) &&
				(!q.NeedsAttention || attn.has(o)) {
				out.docs.set(o)
				out.n++
			}
		}
	}
	return out
}

// attention is the rule's reason for work order o.
func (x *searchIndex) attention(o uint32, lists attentionLists, now time.Time) api.Attention {
	k := &x.keys[o]
	var deadline time.Time
	if k.hasDeadline {
		deadline = time.UnixMilli(k.deadline)
	}
	id := x.ids[o]
	return api.AttentionFacts{Status: api.WorkOrderStatus(x.strs[k.status]), QuoteStatus: api.QuoteStatus(x.strs[k.quote]),
		Deadline: deadline, Refused: lists.refused[id], InvoiceOverNte: lists.overNte[id]}.Of(now)
}

// attentionCache is which work orders of the index need attention, judged
// at once for all of them, and what they were judged with: the index as
// at seq, the minute (as filterKey judges), and the two short lists. Each
// keystroke under "Needs attention" judged every hit again (a third of a
// keystroke's time at 100,000); now only a change of one of these does.
type attentionCache struct {
	seq    int64
	minute int64
	lists  attentionLists
	bits   bitmap
}

// needsAttention is the set of work orders that need attention at now
// with lists. The caller holds the index's lock.
func (x *searchIndex) needsAttention(lists attentionLists, now time.Time) bitmap {
	c := &x.attn
	minute := now.Unix() / 60
	if c.bits != nil && c.seq == x.seq && c.minute == minute && len(c.bits) == len(newBitmap(len(x.ids))) &&
		maps.Equal(c.lists.refused, lists.refused) && maps.Equal(c.lists.overNte, lists.overNte) {
		return c.bits
	}
	need := newBitmap(len(x.ids))
	for w, word := range x.live {
		for word != 0 {
			o := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			if x.attention(o, lists, now) != api.NoAttention {
				need.set(o)
			}
		}
	}
	*c = attentionCache{seq: x.seq, minute: minute, lists: lists, bits: need}
	return need
}
