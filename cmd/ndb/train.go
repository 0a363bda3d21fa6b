package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/ndb-project/ndb/modelserver"
)

// runTrain implements `ndb train ...`: training links libtorch, so it is
// `ndb-infer train` (the one libtorch binary, found as the model server is), run
// with the same arguments, standard streams and exit status.
func runTrain(ctx context.Context, args []string) error {
	return execInfer(append([]string{"train"}, args...))
}

// execInfer runs ndb-infer with args, standard streams and exit status: the commands
// whose model must be in the process (training, the calibration fit).
func execInfer(args []string) error {
	os.Stdout.Sync()
	bin, err := modelserver.FindBinary()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// A signal to ndb alone (kill PID, a service manager) goes to ndb-infer too, which
	// writes its checkpoint and stops; ndb waits for it and exits with its status,
	// instead of dying and leaving the trainer running without it.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer func() { signal.Stop(sigs); close(sigs) }()
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return inferExit{ee.ExitCode()}
	}
	return err
}

// inferExit is ndb-infer's failure, which it reported itself: ndb exits with its
// status.
type inferExit struct{ code int }

func (e inferExit) Error() string { return fmt.Sprintf("ndb-infer: exit status %d", e.code) }
