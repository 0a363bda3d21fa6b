// Command ndb is the neural debugger for Python: one binary with subcommands.
//
//	ndb trace FILE [--entry EXPR]                 raw settrace events as JSON lines
//	ndb trajectory FILE [--entry EXPR] [--inverse] (--actions a,b,... | --seed N)
//	                                               a serialized debugger trajectory
//	ndb data gen --out DIR [--programs N] [--seed S]  the training corpus
//	ndb data stats --corpus DIR                   its statistics and plots
//	ndb data levels --corpus DIR                  the levels files of an older corpus
//	ndb data mix --out DIR CORPUS CORPUS...       one corpus made of several
//	ndb train --corpus DIR --out DIR [--resume]   train the model (one sitting of a run)
//	ndb predict FILE --entry EXPR --action ACTION predict the next state (JSON)
//	ndb compare FILE [--entry EXPR] (--actions ... | --seed N) [--html OUT]
//	                                               predicted and recorded side by side
//	ndb eval nextstate|cruxeval FILE|horizon FILE  the paper's evaluations of a checkpoint
//	ndb dap [--listen ADDR [--allow-remote]] [--model DIR] [--device DEV]
//	                                               the Debug Adapter Protocol server
//
// Each command parses its flags and calls into the packages: debugging sessions come
// from session.Open (dap, predict, compare), whose neural backend this binary
// registers once (infer/neural); the evaluations run in train/eval/evalcmd. Logs go
// to stderr through zerolog; stdout carries only the command's result.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sort"

	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
)

// exitUsage is the exit status for bad input: a missing file, a syntax error, an entry
// that names nothing, a malformed flag.
const exitUsage = 2

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{
	"dap":        {"serve the Debug Adapter Protocol (stdio, or TCP with --listen)", runDAP},
	"trace":      {"record a program's raw execution events", runTrace},
	"predict":    {"predict the state an action leads to, with the model (JSON)", runPredict},
	"trajectory": {"print a debugger trajectory in the model's language", runTrajectory},
	"compare":    {"the predicted and recorded sessions side by side (terminal, --html)", runCompare},
	"data":       {"build the training corpus (ndb data gen)", runData},
	"train":      {"train the model on a corpus (runs ndb-infer train)", runTrain},
	"eval":       {"the paper's evaluations on a checkpoint (nextstate, cruxeval, horizon)", runEval},
}

// The one place the model meets the runtime: sessions in neural and compare mode,
// from every front end, get their backend from a model server (ndb-infer, started
// over a pipe on first use, or one named by --model-server; it starts as the launch
// arrives, beside the parse): ndb itself is pure Go.
func init() {
	session.RegisterNeural(modelserver.Open)
	session.RegisterNeuralWarmer(modelserver.Warm)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	setupLogging()
	code := run(ctx, os.Args[1:])
	modelserver.Default.Close() // the model server started for this process, if any
	os.Exit(code)
}

func run(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		return exitUsage
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "ndb: unknown command %q (run 'ndb help')\n", args[0])
		return exitUsage
	}
	if err := cmd.run(ctx, args[1:]); err != nil {
		var ie inferExit
		if errors.As(err, &ie) { // ndb-infer said why
			return ie.code
		}
		fmt.Fprintf(os.Stderr, "ndb %s: %v\n", args[0], err)
		var ue usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return 1
	}
	return 0
}

func usage() {
	fmt.Fprintln(os.Stderr, "ndb: a neural debugger for Python\n\nusage: ndb COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-12s %s\n", n, commands[n].summary)
	}
}

// usageError marks errors caused by the user's input; ndb exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func badInput(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }
