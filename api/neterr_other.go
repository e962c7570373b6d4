//go:build !windows

package api

import (
	"errors"
	"syscall"
)

// connRefused reports that nothing listens at the address.
func connRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }

// connCut reports that the other side dropped the connection.
func connCut(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
