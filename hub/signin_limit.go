package hub

import (
	"math"
	"sync"
	"time"
)

// Each sign-in costs a bcrypt check (tens of milliseconds of a core), so
// sign-ins are rate limited on each instance: per client id, against one
// desktop retrying in a loop or someone guessing a secret, and in all,
// against a flood of made-up ids. A desktop signs in every 20 minutes; an
// office of a hundred starting at once is through within seconds.
const (
	signInsPerClient      = 20 // at once, then
	signInEveryPerClient  = 3 * time.Second
	signInsInAll          = 50 // at once, then
	signInsPerSecondInAll = 10
	// signInClientsKept bounds the per-client table: beyond it, the
	// entries of clients that have not signed in lately are dropped.
	signInClientsKept = 4096
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

// signInLimit decides whether a sign-in is checked now.
type signInLimit struct {
	mu     sync.Mutex
	all    bucket
	client map[string]*bucket
}

func newSignInLimit(now time.Time) *signInLimit {
	return &signInLimit{all: bucket{tokens: signInsInAll, last: now}, client: map[string]*bucket{}}
}

// allow takes a sign-in of clientId from both buckets, or from neither and
// says how long to wait.
func (l *signInLimit) allow(clientId string, now time.Time) (bool, time.Duration) {
	perClient := 1 / signInEveryPerClient.Seconds()
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.client[clientId]
	if c == nil {
		if len(l.client) >= signInClientsKept {
			l.forgetIdle(now, perClient)
		}
		c = &bucket{tokens: signInsPerClient, last: now}
		l.client[clientId] = c
	}
	c.fill(now, signInsPerClient, perClient)
	l.all.fill(now, signInsInAll, signInsPerSecondInAll)
	if w := max(c.wait(perClient), l.all.wait(signInsPerSecondInAll)); w > 0 {
		return false, w
	}
	c.tokens--
	l.all.tokens--
	return true, 0
}

// forgetIdle drops the clients whose buckets have filled up again: they
// would start afresh anyway.
func (l *signInLimit) forgetIdle(now time.Time, rate float64) {
	for id, b := range l.client {
		if b.tokens+now.Sub(b.last).Seconds()*rate >= signInsPerClient {
			delete(l.client, id)
		}
	}
}
