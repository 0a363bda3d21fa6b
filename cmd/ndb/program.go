package main

import (
	"context"
	"errors"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/trace"
)

// newPool starts the tracer workers; n <= 0 means one per core.
func newPool(ctx context.Context, n int) (*trace.Pool, error) {
	return trace.NewPool(ctx, trace.PoolOptions{Workers: n, Log: log.Logger})
}

// recordFile reads and traces a program, turning problems with the user's input into
// usage errors (exit status 2).
func recordFile(ctx context.Context, pool *trace.Pool, path, entry string) (*trace.Recording, error) {
	src, err := trace.ReadSource(path)
	var pe *trace.ProgramError
	if errors.As(err, &pe) {
		return nil, usageError{pe}
	} else if err != nil {
		return nil, badInput("%v", err)
	}
	rec, err := pool.Record(ctx, path, src, entry, trace.Limits{})
	if errors.As(err, &pe) {
		return nil, usageError{pe}
	}
	return rec, err
}
