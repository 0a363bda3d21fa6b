package session_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
)

func recordedSession(t *testing.T, file, entry string) *session.Session {
	t.Helper()
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 1, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	src, err := os.ReadFile("../testdata/programs/" + file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := pool.Record(context.Background(), file, string(src), entry, trace.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.NewReplay(rec), nil)
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func do(t *testing.T, s *session.Session, spec string) session.Outcome {
	t.Helper()
	a, err := grammar.ParseActionSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Do(context.Background(), a)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return out
}

func funcs(fs []session.Frame) []string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Func)
	}
	return names
}

func TestStackFollowsCallsAndReturns(t *testing.T) {
	s := recordedSession(t, "nested_calls.py", "total_price([3, 5, 2], 0.25)")
	for _, a := range []string{"step_into", "step_into", "step_into", "step_into"} {
		do(t, s, a)
	}
	// total_price -> line_price (call), then into line_price's body.
	if got := funcs(s.Stack()); len(got) != 2 || got[0] != "line_price" || got[1] != "total_price" {
		t.Fatalf("stack after entering line_price: %v", got)
	}
	out := do(t, s, "step_return")
	if out.State.Event != grammar.EventReturn || out.State.Func != "line_price" {
		t.Fatalf("step_return gave %+v", out.State)
	}
	do(t, s, "step_over") // back in total_price
	if got := funcs(s.Stack()); len(got) != 1 || got[0] != "total_price" {
		t.Fatalf("stack after the return: %v", got)
	}
	// Reverse: back into line_price through its return.
	do(t, s, "inv_step_into")
	do(t, s, "inv_step_into")
	if got := funcs(s.Stack()); len(got) != 2 || got[0] != "line_price" {
		t.Fatalf("stack after stepping back into the call: %v", got)
	}
}

func TestContinueUsesBreakpointsAndEnds(t *testing.T) {
	s := recordedSession(t, "count.py", `count("berry", "r")`)
	if a := s.ContinueAction(); a.Kind != grammar.Continue {
		t.Fatalf("continue without breakpoints is %s", a.Kind)
	}
	s.SetBreakpoints([]grammar.Loc{{Line: 5}})
	out, err := s.Do(context.Background(), s.ContinueAction())
	if err != nil || out.State.Loc.Line != 5 {
		t.Fatalf("continue to the breakpoint: %+v %v", out, err)
	}
	s.SetBreakpoints(nil)
	out, _ = s.Do(context.Background(), s.ContinueAction())
	if out.Exit != grammar.ExitNormal || len(s.Stack()) != 0 {
		t.Fatalf("continue to the end: %+v, stack %v", out, s.Stack())
	}
	if _, err := s.Do(context.Background(), grammar.Action{Kind: grammar.StepInto}); !errors.Is(err, session.ErrEnded) {
		t.Errorf("stepping after the end: %v", err)
	}
	// Reverse from the end: the call's inputs.
	out = do(t, s, "inv_step_call")
	if v, _ := out.State.Locals.Get("s"); out.State.Event != grammar.EventCall || v != "'berry'" {
		t.Errorf("inv_step_call from the end: %+v", out.State)
	}
	if _, err := s.Do(context.Background(), grammar.Action{Kind: grammar.InvStepCall}); !errors.Is(err, session.ErrAtStart) {
		t.Errorf("reverse past the start: %v", err)
	}
	if len(s.History()) != 3 {
		t.Errorf("history holds %d steps, want 3", len(s.History()))
	}
	if _, err := s.SetVariable("n", "5"); err == nil {
		t.Error("the recorded backend accepted a variable edit")
	}
}
