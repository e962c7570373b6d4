package ui

import "time"

// The status bar (ui/status) ticks with the window, leaves the progress
// bar to a sync under way, and raises the banner when the hub refuses the
// sign-in.

func (h host) Every(period time.Duration, f func()) { h.d.every(period, f) }
func (h host) Syncing() bool                        { return h.d.syncing }
func (h host) SignInRefused(on bool)                { h.d.showSignInRefused(on) }
