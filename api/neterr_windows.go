//go:build windows

package api

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// Windows reports socket failures with its own error numbers (WSAE...),
// which syscall.ECONNREFUSED and ECONNRESET, invented values there, never
// match.

// connRefused reports that nothing listens at the address.
func connRefused(err error) bool {
	return errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, syscall.ECONNREFUSED)
}

// connCut reports that the other side dropped the connection.
func connCut(err error) bool {
	return errors.Is(err, windows.WSAECONNRESET) || errors.Is(err, windows.WSAECONNABORTED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
