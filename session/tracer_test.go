package session_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// A LazyTracer starts its pool on first use; after Close no pool starts.
func TestLazyTracer(t *testing.T) {
	unused := &session.LazyTracer{Workers: 1, Log: zerolog.Nop()}
	if err := unused.Close(); err != nil {
		t.Fatalf("closing an unused tracer: %v", err)
	}
	if _, err := unused.Parse(context.Background(), trace.ParseRequest{Source: "x = 1\n"}); !errors.Is(err, trace.ErrPoolClosed) {
		t.Errorf("a request after Close: %v", err)
	}
	lt := &session.LazyTracer{Workers: 1, Log: zerolog.Nop()}
	p, err := lt.Parse(context.Background(), trace.ParseRequest{Source: "def f(a):\n    return a\n"})
	if err != nil {
		t.Skipf("no tracer: %v", err)
	}
	if len(p.Functions) != 1 || p.Functions[0].Name != "f" {
		t.Errorf("parse: %+v", p)
	}
	if err := lt.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}
