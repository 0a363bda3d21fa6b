package session

import (
	"context"
	"sync"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/trace"
)

// LazyTracer is a Tracer that starts its own tracer pool on first use, so that a
// server that never records pays no Python start-up. Close closes the pool.
type LazyTracer struct {
	// Workers is the pool's number of Python workers (<= 0: one per core).
	Workers int
	Log     zerolog.Logger

	once sync.Once
	pool *trace.Pool
	err  error
}

func (l *LazyTracer) get(ctx context.Context) (*trace.Pool, error) {
	l.once.Do(func() {
		l.pool, l.err = trace.NewPool(ctx, trace.PoolOptions{Workers: l.Workers, Log: l.Log})
	})
	return l.pool, l.err
}

// Record records a program with the pool (see trace.Pool.Record).
func (l *LazyTracer) Record(ctx context.Context, path, source, entry string, limits trace.Limits) (*trace.Recording, error) {
	p, err := l.get(ctx)
	if err != nil {
		return nil, err
	}
	return p.Record(ctx, path, source, entry, limits)
}

// Parse reads a program's structure with the pool (see trace.Pool.Parse).
func (l *LazyTracer) Parse(ctx context.Context, req trace.ParseRequest) (trace.ParseResult, error) {
	p, err := l.get(ctx)
	if err != nil {
		return trace.ParseResult{}, err
	}
	return p.Parse(ctx, req)
}

// Close closes the pool if it was started.
func (l *LazyTracer) Close() error {
	l.once.Do(func() { l.err = trace.ErrPoolClosed }) // no pool starts after Close
	if l.pool != nil {
		return l.pool.Close()
	}
	return nil
}

var (
	_ Tracer = (*trace.Pool)(nil)
	_ Tracer = (*LazyTracer)(nil)
)
