package pgtest

import "syscall"

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
