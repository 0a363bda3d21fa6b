package session_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

func frameText(fs []session.Frame) string {
	s := ""
	for _, f := range fs {
		if f.Gap {
			s += f.Func + "; "
			continue
		}
		s += fmt.Sprintf("%s %d; ", f.Func, f.Loc.Line)
	}
	return s
}

// The recorded backend knows the real stack: a breakpoint in count, reached from the
// entry state in one jump, shows count, main at its call and <module> at its call.
func TestRecordedStackAfterAJump(t *testing.T) {
	s := recordedSession(t, "callchain.py", "")
	s.SetBreakpoints([]grammar.Loc{{Line: 5}})
	do(t, s, "breakpoint:5")
	if got, want := frameText(s.Stack()), "count 5; main 11; <module> 16; "; got != want {
		t.Fatalf("stack at the breakpoint: %q, want %q", got, want)
	}
	main := s.Stack()[1]
	if v, _ := main.Locals.Get("word"); v != "'berry'" {
		t.Errorf("main's locals at its call: %v", main.Locals)
	}
	// Walking back out of count by its call: main's calling line, then <module>'s.
	do(t, s, "inv_step_call")
	do(t, s, "inv_step_over")
	if got, want := frameText(s.Stack()), "main 11; <module> 16; "; got != want {
		t.Errorf("stack after stepping back out of count: %q, want %q", got, want)
	}
	// step_return to count's return: the frame's locals are those of its last line.
	s.SetBreakpoints(nil)
	do(t, s, "step_into")
	do(t, s, "step_return")
	top := s.Stack()[0]
	if v, _ := top.Locals.Get("n"); top.Func != "count" || v != "2" {
		t.Errorf("count's frame at its return: %+v", top)
	}
}

// scripted is a neural-like backend: states without frame ids, one per action, in
// order.
type scripted struct {
	entry  grammar.State
	states []grammar.State
}

func (b *scripted) Entry(context.Context) (grammar.State, error) { return b.entry, nil }
func (b *scripted) Close() error                                 { return nil }
func (b *scripted) Do(context.Context, grammar.Action) (session.Outcome, error) {
	st := b.states[0]
	b.states = b.states[1:]
	return session.Outcome{State: st}, nil
}

func lineState(fn string, n int) grammar.State {
	return grammar.State{Event: grammar.EventLine, Func: fn, Loc: grammar.Loc{Line: n}, Locals: grammar.Locals{}}
}

// A neural session cannot know the frames a jump went past: the stack shows the
// frame it landed in and one Gap frame, never a caller line it made up.
func TestNeuralStackAfterAJumpHasAGap(t *testing.T) {
	ret := grammar.State{Event: grammar.EventReturn, Func: "count", Loc: grammar.Loc{Line: 6}, Value: "2"}
	call := grammar.State{Event: grammar.EventCall, Func: "helper", Loc: grammar.Loc{Line: 20}, Locals: grammar.Locals{}}
	b := &scripted{entry: lineState("<module>", 1), states: []grammar.State{
		lineState("count", 5), call, lineState("helper", 21), ret, lineState("main", 12), lineState("<module>", 17),
	}}
	s := session.New(b, nil)
	if _, err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	steps := []struct{ action, want string }{
		{"breakpoint:5", "count 5; (frames not predicted); "},
		{"step_into", "helper 20; count 5; (frames not predicted); "},
		{"step_over", "helper 21; count 5; (frames not predicted); "},
		{"step_return", "count 6; (frames not predicted); "},
		// Out of count into a caller nobody predicted: still no made-up line below.
		{"step_over", "main 12; (frames not predicted); "},
		{"step_over", "<module> 17; "}, // module-level code has no caller
	}
	// helper's return is not scripted: step_return from helper lands on count's return.
	for _, st := range steps {
		do(t, s, st.action)
		if got := frameText(s.Stack()); got != st.want {
			t.Errorf("after %s: stack %q, want %q", st.action, got, st.want)
		}
	}
}
