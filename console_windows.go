//go:build windows

package main

import (
	"log"
	"os"

	"golang.org/x/sys/windows"
)

// The release exe is a GUI-subsystem program so that the window opens
// without a console; Windows then gives it no standard output at all, and
// the command-line tools would print nothing. They borrow the console of
// the shell they were started from instead.
func init() {
	if len(os.Args) < 2 {
		return
	}
	if _, ok := commands[os.Args[1]]; ok {
		attachParentConsole()
	}
}

// attachParentConsoleProcess is ATTACH_PARENT_PROCESS, (DWORD)-1.
const attachParentConsoleProcess = ^uintptr(0)

var procAttachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// attachParentConsole points stdout and stderr at the parent's console,
// except where they were redirected (a pipe or file is already a valid
// handle and stays). Started from Explorer there is no parent console, and
// nothing changes.
func attachParentConsole() {
	if r, _, _ := procAttachConsole.Call(attachParentConsoleProcess); r == 0 {
		return
	}
	conout := func() *os.File {
		name, err := windows.UTF16PtrFromString("CONOUT$")
		if err != nil {
			return nil
		}
		h, err := windows.CreateFile(name,
			windows.GENERIC_READ|windows.GENERIC_WRITE, windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING, 0, 0)
		if err != nil {
			return nil
		}
		return os.NewFile(uintptr(h), "CONOUT$")
	}
	if !redirected(windows.STD_OUTPUT_HANDLE) {
		if f := conout(); f != nil {
			os.Stdout = f
			_ = windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(f.Fd()))
		}
	}
	if !redirected(windows.STD_ERROR_HANDLE) {
		if f := conout(); f != nil {
			os.Stderr = f
			_ = windows.SetStdHandle(windows.STD_ERROR_HANDLE, windows.Handle(f.Fd()))
			// The log package took os.Stderr when it was initialised, before
			// this ran; slog's default handler writes through it.
			log.SetOutput(f)
		}
	}
}

// redirected reports whether the standard handle already leads somewhere
// (a pipe or a file given by the caller).
func redirected(std uint32) bool {
	h, err := windows.GetStdHandle(std)
	if err != nil || h == 0 || h == windows.InvalidHandle {
		return false
	}
	t, err := windows.GetFileType(h)
	return err == nil && t != windows.FILE_TYPE_UNKNOWN
}
