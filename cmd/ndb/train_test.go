package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A SIGTERM sent to `ndb train` alone reaches the trainer (ndb-infer train, here a
// script standing in for it), which stops cleanly; ndb waits for it and exits with
// its status instead of leaving it running.
func TestTrainForwardsSIGTERM(t *testing.T) {
	dir := t.TempDir()
	ndb := filepath.Join(dir, "ndb")
	if out, err := exec.Command("go", "build", "-o", ndb, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	stopped := filepath.Join(dir, "stopped")
	pidFile := filepath.Join(dir, "pid")
	fake := filepath.Join(dir, "ndb-infer")
	script := "#!/bin/sh\necho $$ > " + pidFile + "\ntrap 'echo \"$1 stopped\" > " + stopped + "; exit 0' TERM\necho ready\nwhile :; do sleep 0.05; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ndb, "train", "--resume")
	cmd.Env = append(os.Environ(), "NDB_INFER="+fake)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		cmd.Process.Kill()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("the trainer did not start: %q %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ndb train after SIGTERM: %v, want the trainer's status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ndb train did not end after SIGTERM")
	}
	b, err := os.ReadFile(stopped)
	if err != nil || string(b) != "train stopped\n" {
		t.Errorf("the trainer did not get the SIGTERM: %q %v", b, err)
	}
}
