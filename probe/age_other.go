//go:build !linux

package probe

import "time"

// processAge approximates the process's age by the time since this
// package was set up, just before main began.
func processAge() time.Duration { return time.Since(started) }
