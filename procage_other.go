//go:build !linux

package main

import "time"

// processAge approximates the process's age by the time since main began.
func processAge() time.Duration { return time.Since(mainStarted) }
