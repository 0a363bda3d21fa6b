//go:build linux

package trace

import (
	"os/exec"
	"syscall"
)

// isolate puts the worker in its own process group, so that killing it also
// kills whatever the traced program started, and has the kernel kill it if the
// Go process dies first.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree kills the worker's process group.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
