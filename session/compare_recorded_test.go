package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

// These tests run Compare on two real recordings: a program against itself (no
// differences anywhere) and against a slightly edited copy.

func compareRecordings(t *testing.T, a, b string, entry string) (*trace.Recording, *trace.Recording) {
	t.Helper()
	ctx := context.Background()
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Skipf("no tracer: %v", err)
	}
	t.Cleanup(func() { pool.Close() })
	ra, err := pool.Record(ctx, "a.py", a, entry, trace.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := pool.Record(ctx, "b.py", b, entry, trace.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return ra, rb
}

func compareCountSource(t *testing.T) string {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "programs", "count.py"))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

func TestCompareRecordingWithItself(t *testing.T) {
	src := compareCountSource(t)
	a, b := compareRecordings(t, src, src, `count("berry", "r")`)
	cmp := session.NewCompare(session.NewReplay(a), session.NewReplay(b), nil)
	s := session.New(cmp, nil)
	ctx := context.Background()
	if _, err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	actions := []grammar.ActionKind{grammar.StepInto, grammar.StepOver, grammar.StepInto, grammar.InvStepInto, grammar.InvStepCall, grammar.StepReturn, grammar.Continue}
	for _, k := range actions {
		if _, err := s.Do(ctx, grammar.Action{Kind: k}); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if ds := cmp.Differences(); len(ds) != 0 {
			t.Fatalf("after %s: differences %v", k, ds)
		}
		_, frames := cmp.Recorded()
		if got, want := len(frames), len(s.Stack()); got != want {
			t.Errorf("after %s: recorded stack has %d frames, the session's %d", k, got, want)
		}
	}
	if !s.Current().Ended() {
		t.Error("continue did not end the program")
	}
}

func TestCompareRecordingWithEditedCopy(t *testing.T) {
	src := compareCountSource(t)
	edited := strings.Replace(src, "n = 0", "n = 1", 1)
	a, b := compareRecordings(t, edited, src, `count("berry", "r")`)
	cmp := session.NewCompare(session.NewReplay(a), session.NewReplay(b), nil)
	s := session.New(cmp, nil)
	ctx := context.Background()
	if _, err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 { // call -> line 2 -> line 3 (n assigned)
		if _, err := s.Do(ctx, grammar.Action{Kind: grammar.StepInto}); err != nil {
			t.Fatal(err)
		}
	}
	ds := cmp.Differences()
	if len(ds) != 1 || ds[0].String() != "n: predicted 1, recorded 0" {
		t.Errorf("differences at line 3: %v", ds)
	}
	if _, err := s.Do(ctx, grammar.Action{Kind: grammar.StepReturn}); err != nil {
		t.Fatal(err)
	}
	ds = cmp.Differences()
	if len(ds) != 1 || ds[0].Kind != session.DiffValue || ds[0].Predicted != "3" || ds[0].Recorded != "2" {
		t.Errorf("differences at the return: %v", ds)
	}
}
