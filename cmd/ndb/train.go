package main

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"github.com/ndb-project/ndb/modelserver"
)

// runTrain implements `ndb train ...`: training links libtorch, so it is
// `ndb-infer train` (the one libtorch binary, found as the model server is), run
// with the same arguments, standard streams and exit status.
func runTrain(ctx context.Context, args []string) error {
	bin, err := modelserver.FindBinary()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, append([]string{"train"}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run() // SIGINT reaches the child too: it writes its checkpoint and stops
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	return err
}
