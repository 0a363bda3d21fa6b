package main

import (
	"context"
	"errors"

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
