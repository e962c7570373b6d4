//go:build linux

package probe

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// processAge is how long this process has run, from the kernel's record of
// its start (clock ticks since boot, USER_HZ = 100 on Linux).
func processAge() time.Duration {
	stat, err1 := os.ReadFile("/proc/self/stat")
	up, err2 := os.ReadFile("/proc/uptime")
	if err1 != nil || err2 != nil {
		return time.Since(started)
	}
	// Field 22 counted after the ")" that ends the command name.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
	fields := strings.Fields(rest)
	ticks, err := strconv.ParseFloat(fields[19], 64)
	uptime, err3 := strconv.ParseFloat(strings.Fields(string(up))[0], 64)
	if err != nil || err3 != nil {
		return time.Since(started)
	}
	return time.Duration((uptime - ticks/100) * float64(time.Second))
}
