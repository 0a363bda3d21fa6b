package main

import (
	"context"
	"errors"
	"flag"
	"os"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// newPool starts the tracer workers; n <= 0 means one per core.
func newPool(ctx context.Context, n int) (*trace.Pool, error) {
	return trace.NewPool(ctx, trace.PoolOptions{Workers: n, Log: log.Logger})
}

// recordFile reads and traces a program, turning problems with the user's input into
// usage errors (exit status 2).
func recordFile(ctx context.Context, pool *trace.Pool, path, entry string) (*trace.Recording, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	rec, err := pool.Record(ctx, path, src, entry, trace.Limits{})
	var pe *trace.ProgramError
	if errors.As(err, &pe) {
		return nil, usageError{pe}
	}
	return rec, err
}

// openFile reads a program and opens its session (session.Open), turning problems
// with the user's input into usage errors (exit status 2).
func openFile(ctx context.Context, path, entry string, mode session.Mode, opt session.Options) (*session.Session, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	s, err := session.Open(ctx, session.Program{Path: path, Source: src, Entry: entry}, mode, opt)
	return s, programError(err)
}

// readSource reads a program as Python reads it (trace.ReadSource); a missing file
// or one that does not decode is a usage error.
func readSource(path string) (string, error) {
	src, err := trace.ReadSource(path)
	var pe *trace.ProgramError
	if errors.As(err, &pe) {
		return "", usageError{pe}
	} else if err != nil {
		return "", badInput("%v", err)
	}
	return src, nil
}

// programError makes a problem with the user's program a usage error.
func programError(err error) error {
	var pe *session.ProgramError
	if errors.As(err, &pe) {
		return usageError{pe}
	}
	return err
}

// modelFlags binds the flags of the commands that run the model to a session's
// options: --model, --device, --temperature, --top-p and the sampling seed (named
// seedFlag).
func modelFlags(fs *flag.FlagSet, o *session.Options, seedFlag string) {
	fs.StringVar(&o.Model, "model", "", "checkpoint `DIR` (default: the model bundled with ndb)")
	fs.StringVar(&o.Device, "device", "cpu", "cpu, cuda, cuda:N or auto")
	fs.Float64Var(&o.Temperature, "temperature", 0, "the model's sampling temperature; 0 is greedy")
	fs.Float64Var(&o.TopP, "top-p", 0.95, "nucleus sampling mass when sampling")
	fs.Int64Var(&o.Seed, seedFlag, 0, "the model's sampling seed")
	fs.Var(constraintsFlag{&o.GrammarOnly}, "constraints", constraintsUsage)
}

const constraintsUsage = "what constrains the model: program (the grammar and the program's facts) or grammar (the grammar alone: the raw model)"

// parseConstraints reads a --constraints mode: whether the model is left to the
// grammar alone (session.Options.GrammarOnly).
func parseConstraints(mode string) (grammarOnly bool, err error) {
	switch mode {
	case session.ConstraintsProgram:
		return false, nil
	case session.ConstraintsGrammar:
		return true, nil
	}
	return false, badInput("--constraints %q: want program or grammar", mode)
}

// constraintsFlag is --constraints program|grammar as session.Options.GrammarOnly.
type constraintsFlag struct{ grammarOnly *bool }

func (f constraintsFlag) String() string {
	if f.grammarOnly != nil && *f.grammarOnly {
		return session.ConstraintsGrammar
	}
	return session.ConstraintsProgram
}

func (f constraintsFlag) Set(s string) error {
	g, err := parseConstraints(s)
	if err != nil {
		return err
	}
	*f.grammarOnly = g
	return nil
}

// checkModelFlags validates what modelFlags read, and sets libtorch's threads.
func checkModelFlags(o session.Options) error {
	if o.Temperature < 0 {
		return badInput("--temperature must not be negative")
	}
	if err := modelserver.CheckDevice(o.Device); err != nil {
		return badInput("%v", err)
	}
	if st, err := os.Stat(o.Model); o.Model != "" && (err != nil || !st.IsDir()) {
		return badInput("--model %s: not a checkpoint folder", o.Model)
	}
	return nil
}
