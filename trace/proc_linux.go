//go:build linux

package trace

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// isolate puts the worker in its own process group and has the kernel send it
// SIGTERM if the Go process dies first (the worker then kills its request's
// process and what that left behind, and exits).
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// terminate asks the worker to end: SIGTERM to the worker alone.
func terminate(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
}

// killTree kills the worker's process group.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

var (
	spawnOnce sync.Once
	spawnCh   chan func()
)

// startProcess starts cmd on one OS thread that lives as long as the program.
// Linux sends the parent-death signal when the thread that forked a child
// exits, not the process; a thread the Go runtime retires (after a goroutine
// locked to it ends) would otherwise take healthy workers with it.
func startProcess(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawnCh = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread is kept for good
			for f := range spawnCh {
				f()
			}
		}()
	})
	errc := make(chan error, 1)
	spawnCh <- func() { errc <- cmd.Start() }
	return <-errc
}
