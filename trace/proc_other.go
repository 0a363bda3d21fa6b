//go:build !linux

package trace

import "os/exec"

// isolate is a no-op where process groups are not used.
func isolate(cmd *exec.Cmd) {}

// terminate does nothing where the worker is only ever killed.
func terminate(cmd *exec.Cmd) {}

// killTree kills the worker process.
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// startProcess starts cmd.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }
