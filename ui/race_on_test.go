//go:build race

package ui

// raceEnabled reports a test binary built with -race.
const raceEnabled = true
