package storage

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// userDataFolder is dataFolder for this system and user.
func userDataFolder() (string, error) { return dataFolder(runtime.GOOS, os.Getenv) }

// dataFolder is the per-user folder the replicas live under. On Windows it
// is the local application data folder (%LOCALAPPDATA%), not the roaming
// one os.UserConfigDir gives: a replica is a cache of the service (about
// 118 MB at 100,000 work orders) that must not be copied to and from a
// server at every sign-in. Elsewhere it is os.UserConfigDir (~/.config on
// Linux, ~/Library/Application Support on macOS), where replicas always
// were. getenv is os.Getenv outside tests.
func dataFolder(goos string, getenv func(string) string) (string, error) {
	if goos == "windows" {
		if dir := getenv("LOCALAPPDATA"); dir != "" {
			return dir, nil
		}
		return "", errors.New("storage: %LOCALAPPDATA% is not set")
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("storage: finding the configuration folder: %w", err)
	}
	return dir, nil
}
