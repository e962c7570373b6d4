package hub

import (
	"math"
	"sync"
	"time"
)

// Sign-ins are rate limited per client address and per (address, client
// id), never per client id alone nor in all: someone guessing a person's
// secret, or flooding made-up ids, from one address uses up that address's
// sign-ins, and the person signs in from their own desk as ever. Each check
// costs a bcrypt hash (tens of milliseconds of a core), so at most a few
// run at once (bcryptSlots) and the rest wait their turn rather than be
// refused. A desktop signs in every 20 minutes; an office of a hundred
// behind one address starting at once is through within a minute.
const (
	signInsPerAddr     = 60 // at once, then
	signInEveryPerAddr = 500 * time.Millisecond
	signInsPerClient   = 10 // per (address, client id) at once, then
	signInEveryClient  = 3 * time.Second
	// signInKeysKept bounds each table: beyond it, the entries whose
	// buckets have filled up again (idle lately) are dropped.
	signInKeysKept = 8192
)

// bucket is a token bucket: size tokens, refilled at rate per second.
type bucket struct {
	tokens float64
	last   time.Time
}

func (b *bucket) fill(now time.Time, size, rate float64) {
	b.tokens = math.Min(size, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
}

// wait is how long until b holds a whole token.
func (b *bucket) wait(rate float64) time.Duration {
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// buckets is a table of token buckets of one size and rate.
type buckets struct {
	size, rate float64
	m          map[any]*bucket
}

func newBuckets(size int, every time.Duration) *buckets {
	return &buckets{size: float64(size), rate: 1 / every.Seconds(), m: map[any]*bucket{}}
}

// get is k's bucket, filled up to now.
func (t *buckets) get(k any, now time.Time) *bucket {
	b := t.m[k]
	if b == nil {
		if len(t.m) >= signInKeysKept {
			t.forgetIdle(now)
		}
		b = &bucket{tokens: t.size, last: now}
		t.m[k] = b
	}
	b.fill(now, t.size, t.rate)
	return b
}

// forgetIdle drops the buckets that have filled up again: they would
// start afresh anyway. If none has, the table is emptied: a flood of keys
// must not grow it without end, and a bucket forgotten only starts full.
func (t *buckets) forgetIdle(now time.Time) {
	for k, b := range t.m {
		if b.tokens+now.Sub(b.last).Seconds()*t.rate >= t.size {
			delete(t.m, k)
		}
	}
	if len(t.m) >= signInKeysKept {
		clear(t.m)
	}
}

type addrClient struct {
	addr     clientKey
	clientId string
}

// signInLimit decides whether a sign-in is checked now.
type signInLimit struct {
	mu     sync.Mutex
	addr   *buckets
	client *buckets
}

func newSignInLimit() *signInLimit {
	return &signInLimit{addr: newBuckets(signInsPerAddr, signInEveryPerAddr), client: newBuckets(signInsPerClient, signInEveryClient)}
}

// allow takes a sign-in of clientId from addr out of both of its buckets,
// or out of neither and says how long to wait.
func (l *signInLimit) allow(addr clientKey, clientId string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.addr.get(addr, now)
	c := l.client.get(addrClient{addr, clientId}, now)
	if w := max(a.wait(l.addr.rate), c.wait(l.client.rate)); w > 0 {
		return false, w
	}
	a.tokens--
	c.tokens--
	return true, 0
}
