package hub

import (
	"os/exec"
	"runtime"
	"syscall"
)

// startDyingWithUs starts cmd so that the kernel kills it when the test
// binary dies (a timeout, a Ctrl+C), and calls exited with its end. The
// signal follows the thread that forked it, so that thread stays locked to
// a goroutine until the process is gone.
func startDyingWithUs(cmd *exec.Cmd, exited func(error)) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited(cmd.Wait())
	}()
	return <-started
}
