package sandbox

import (
	"sync"
	"time"
)

// Clock is the sandbox's notion of "now": a base clock plus an offset that
// tests and the control API move forward, so token expiry, 15-minute download
// links and SLA dates can be exercised without waiting.
type Clock struct {
	base func() time.Time

	mu     sync.Mutex
	offset time.Duration
}

// NewClock returns a Clock over base (nil = time.Now).
func NewClock(base func() time.Time) *Clock {
	if base == nil {
		base = time.Now
	}
	return &Clock{base: base}
}

// Now is the sandbox time, in UTC as the service speaks it, truncated to the
// microsecond so that it survives any storage round trip unchanged.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	off := c.offset
	c.mu.Unlock()
	return c.base().Add(off).UTC().Truncate(time.Microsecond)
}

// Advance moves the clock forward by d; negative durations are ignored
// because tokens, links and LastUpdate ordering all assume time never runs back.
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
