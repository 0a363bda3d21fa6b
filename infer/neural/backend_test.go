package neural

import (
	"context"
	"os"
	"testing"

	"github.com/rs/zerolog"
	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

var (
	_ session.Backend = (*Backend)(nil)
	_ session.Editor  = (*Backend)(nil)
)

// countSession parses testdata's count.py with a tracer pool (parse only) and
// returns a backend on the tiny random model.
func countSession(t *testing.T, pool *trace.Pool, opt Options, noReuse bool) *Backend {
	src, err := os.ReadFile("../../testdata/programs/count.py")
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := pool.Parse(context.Background(), trace.ParseRequest{Source: string(src)})
	if err != nil {
		t.Fatal(err)
	}
	gctx := grammar.NewContext("", string(src))
	entry, err := EntryState(gctx, parsed, `count("berry", 'r')`)
	if err != nil {
		t.Fatal(err)
	}
	want := grammar.Locals{{Name: "s", Repr: "'berry'"}, {Name: "t", Repr: "'r'"}}
	if !entry.Locals.Equal(want) || entry.Loc.Line != 1 || entry.Event != grammar.EventCall {
		t.Fatalf("entry state %+v", entry)
	}
	m, tok, err := Load("../../testdata/tinymodel", gotch.CPU)
	if err != nil {
		t.Fatal(err)
	}
	opt.CloseModel = true
	b, err := New(m, tok, gctx, entry, opt)
	if err != nil {
		t.Fatal(err)
	}
	b.Generator().NoReuse = noReuse
	t.Cleanup(func() { b.Close() })
	return b
}

func newPool(t *testing.T) *trace.Pool {
	p, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Skipf("no tracer: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

var script = []grammar.Action{
	{Kind: grammar.StepInto}, {Kind: grammar.StepOver}, {Kind: grammar.InvStepOver},
	{Kind: grammar.StepInto}, {Kind: grammar.StepOver}, {Kind: grammar.InvStepInto}, {Kind: grammar.StepReturn},
}

// run plays script (stopping at an exit) and returns the outcomes; it edits a
// variable after the second action.
func run(t *testing.T, b *Backend) []session.Outcome {
	var out []session.Outcome
	for i, a := range script {
		o, err := b.Do(context.Background(), a)
		if err == session.ErrAtStart {
			continue
		}
		if err != nil {
			t.Fatalf("action %d %s: %v", i, a.Kind, err)
		}
		out = append(out, o)
		if o.Ended() {
			break
		}
		if i == 1 && o.State.Event.HasLocals() {
			s, err := b.SetVariable("n", "7")
			if err != nil {
				t.Fatal(err)
			}
			if r, _ := s.Locals.Get("n"); r != "7" {
				t.Fatalf("edit not applied: %+v", s)
			}
		}
	}
	return out
}

func TestNeuralSessionParsesOnly(t *testing.T) {
	pool := newPool(t)
	b := countSession(t, pool, Options{Temperature: 0.8, Seed: 3, Limits: infer.Limits{MaxTokens: 96}}, false)
	out := run(t, b)
	if len(out) == 0 {
		t.Fatal("no outcome")
	}
	for k, n := range pool.Stats() {
		if k != "parse" && n > 0 {
			t.Errorf("the neural session asked the tracer for %q (%d times)", k, n)
		}
	}
}

// TestPrefixReuseSameStates checks that a greedy session gives the same states with
// and without KV-cache prefix reuse, and that reuse runs fewer tokens.
func TestPrefixReuseSameStates(t *testing.T) {
	pool := newPool(t)
	opt := Options{Limits: infer.Limits{MaxTokens: 64}}
	a := countSession(t, pool, opt, false)
	outA := run(t, a)
	b := countSession(t, pool, opt, true)
	outB := run(t, b)
	if len(outA) != len(outB) {
		t.Fatalf("%d outcomes with reuse, %d without", len(outA), len(outB))
	}
	for i := range outA {
		if outA[i].Exit != outB[i].Exit || !outA[i].State.Equal(outB[i].State) {
			t.Errorf("outcome %d: %+v with reuse, %+v without", i, outA[i], outB[i])
		}
	}
	if fa, fb := a.Generator().Forwarded, b.Generator().Forwarded; fa >= fb {
		t.Errorf("reuse ran %d tokens, no reuse %d", fa, fb)
	}
}

func TestSplitArgs(t *testing.T) {
	got, err := SplitArgs(` [1, (2, 3)], "a,b", {'k': [4]}, x=f(1, 2) `)
	want := []string{"[1, (2, 3)]", `"a,b"`, "{'k': [4]}", "x=f(1, 2)"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("%q, %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("arg %d: %q, want %q", i, got[i], want[i])
		}
	}
	if _, err := SplitArgs(`(1, 2`); err == nil {
		t.Error("an unbalanced bracket was accepted")
	}
	if NormaliseLiteral(`"it's"`) != `"it's"` || NormaliseLiteral(`"ab"`) != `'ab'` {
		t.Error("string literals are not normalised as repr does")
	}
}
