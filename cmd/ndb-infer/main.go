// Command ndb-infer is ndb's model server, the only binary that links libtorch: it
// loads a checkpoint once and answers the predictions of ndb's neural sessions
// (package modelserver's protocol, JSON-RPC), and it trains the model.
//
//	ndb-infer                          serve one client on stdin/stdout (ndb starts it so)
//	ndb-infer --listen ADDR [--allow-remote] [--max-sessions N]
//	                                   serve TCP clients (ndb dap --model-server ADDR)
//	ndb-infer train --corpus DIR --out DIR [--resume] ...
//	                                   one sitting of a training run (ndb train runs this)
//	ndb-infer calibrate [--corpus DIR] [--model DIR] ...
//	                                   the confidences' calibration (ndb eval nextstate --calibrate runs this)
//
// Training lives here rather than in a third binary: it needs libtorch as the
// forward pass does, and one libtorch binary is one thing to build, ship and find.
// Logs go to stderr; in stdio mode stdout carries only the protocol.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rs/zerolog"
	"github.com/rs/zerolog/log"
)

const exitUsage = 2

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	setupLogging()
	args := os.Args[1:]
	var err error
	name := "ndb-infer"
	switch {
	case len(args) > 0 && args[0] == "train":
		stop() // training handles its own signals (a checkpoint, then a clean exit)
		name, err = "ndb-infer train", runTrain(context.Background(), args[1:])
	case len(args) > 0 && args[0] == "calibrate":
		name, err = "ndb eval", runCalibrate(ctx, args[1:])
	default:
		err = runServe(ctx, args)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		var ue usageError
		if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
			os.Exit(exitUsage)
		}
		os.Exit(1)
	}
}

// setupLogging sends logs to stderr at the level named by NDB_LOG (default warn).
func setupLogging() {
	level := zerolog.WarnLevel
	if l, err := zerolog.ParseLevel(os.Getenv("NDB_LOG")); err == nil && os.Getenv("NDB_LOG") != "" {
		level = l
	}
	log.Logger = zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05"}).Level(level).With().Timestamp().Logger()
}

// usageError marks errors caused by the user's input (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// parseInterspersed parses flags that may come between positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, badInput("%v", err)
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
