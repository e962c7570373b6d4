//go:build !unix

package cli

import "net"

// activatedListener: socket activation is systemd's; elsewhere there is none.
func activatedListener() (net.Listener, error) { return nil, nil }
