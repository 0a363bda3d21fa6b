package main

import (
	"context"
	"errors"
	"os"

	"github.com/rs/zerolog/log"

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
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	rec, err := pool.Record(ctx, path, string(src), entry, trace.Limits{})
	var pe *trace.ProgramError
	if errors.As(err, &pe) {
		return nil, usageError{pe}
	}
	return rec, err
}

// openFile reads a program and opens its session (session.Open), turning problems
// with the user's input into usage errors (exit status 2).
func openFile(ctx context.Context, path, entry string, mode session.Mode, opt session.Options) (*session.Session, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	s, err := session.Open(ctx, session.Program{Path: path, Source: string(src), Entry: entry}, mode, opt)
	return s, programError(err)
}

// programError makes a problem with the user's program a usage error.
func programError(err error) error {
	var pe *session.ProgramError
	if errors.As(err, &pe) {
		return usageError{pe}
	}
	return err
}
