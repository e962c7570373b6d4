//go:build !linux

package pgtest

import "syscall"

// Elsewhere the server runs as ourselves (PostgreSQL refuses only root, and
// only Linux CI runs as root); a killed test binary may leave it running.
func runAs(*owner) *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func serverAttr(*owner) *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func memoryDir() string { return "" }

// alive cannot tell here: every cluster folder is taken as in use.
func alive(int) bool { return true }
