package pgtest

import (
	"errors"
	"syscall"
)

// runAs runs a command as o (nil: as ourselves).
func runAs(o *owner) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{}
	if o != nil {
		a.Credential = &syscall.Credential{Uid: uint32(o.uid), Gid: uint32(o.gid)}
	}
	return a
}

// serverAttr runs the server as o, in its own process group (a Ctrl+C of
// the tests is not its business), and has the kernel stop it at once when
// the test binary dies.
func serverAttr(o *owner) *syscall.SysProcAttr {
	a := runAs(o)
	a.Pdeathsig = syscall.SIGQUIT
	a.Setpgid = true
	return a
}

// memoryDir is /dev/shm when it is a tmpfs with room to spare: a cluster
// there creates and drops a test's database in tens of milliseconds, where
// a busy disk takes hundreds. "" when there is none.
func memoryDir() string {
	const tmpfsMagic = 0x01021994
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) != nil || st.Type != tmpfsMagic {
		return ""
	}
	if uint64(st.Bavail)*uint64(st.Bsize) < 2<<30 {
		return "" // a container's small /dev/shm: leave it to what needs it
	}
	return "/dev/shm"
}

// alive says whether process pid still runs.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
