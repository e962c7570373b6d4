//go:build !race

package list

// raceEnabled reports a test binary built with -race.
const raceEnabled = false
