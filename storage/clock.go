package storage

import "time"

// SetClock replaces the clock the store stamps and compares times with
// (outbox action times, last sync, "needs attention" deadlines). The app
// keeps time.Now; tests pin it to the world they build.
func (s *Store) SetClock(now func() time.Time) { s.now = now }
