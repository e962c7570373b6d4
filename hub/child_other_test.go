//go:build !linux

package hub

import "os/exec"

// startDyingWithUs starts cmd and calls exited with its end; a test binary
// killed here may leave it running (only Linux says otherwise).
func startDyingWithUs(cmd *exec.Cmd, exited func(error)) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { exited(cmd.Wait()) }()
	return nil
}
