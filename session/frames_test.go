package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

func TestFramesShowCallerLocals(t *testing.T) {
	s := open(t, "nested_calls.py", "total_price([3, 5, 2], 0.25)", session.ModeRecorded, session.Options{})
	for range 5 { // into line_price, to its first line
		run(t, s, session.PlanOf(grammar.StepInto))
	}
	frames, _, err := s.Frames(session.ThreadMain)
	if err != nil || len(frames) != 2 || frames[0].Func != "line_price" || frames[1].Func != "total_price" {
		t.Fatalf("frames: %+v, %v", frames, err)
	}
	caller := s.Frame(session.ThreadMain, 1, frames[1])
	if caller.Top || !caller.HasLocals || caller.State.Loc.Line != 15 {
		t.Fatalf("the caller's frame: %+v", caller)
	}
	if v, err := s.Evaluate(session.ThreadMain, 1, frames[1], "quantities[i] == qty and total == 0"); err != nil || v.Text != "True" {
		t.Errorf("an expression over the caller's locals: %v, %v", v, err)
	}
	if v, err := s.Evaluate(session.ThreadMain, 0, frames[0], "qty * 2"); err == nil {
		t.Errorf("arithmetic is not in the language, got %v", v.Text)
	}
	if v, err := s.Evaluate(session.ThreadMain, 0, frames[0], "len([qty, unit])"); err != nil || v.Text != "2" {
		t.Errorf("len over the innermost frame's locals: %v, %v", v, err)
	}
	// A return state carries no locals: the frame shows its latest ones, and
	// __return__ names the value.
	run(t, s, session.PlanOf(grammar.StepReturn))
	frames, out, _ := s.Frames(session.ThreadMain)
	top := s.Frame(session.ThreadMain, 0, frames[0])
	if out.State.Event != grammar.EventReturn || !top.HasLocals || len(top.Locals) == 0 {
		t.Fatalf("the frame of a return state: %+v", top)
	}
	if v, err := s.Evaluate(session.ThreadMain, 0, frames[0], "__return__"); err != nil || v.Text != out.State.Value {
		t.Errorf("__return__: %v, %v (want %s)", v, err, out.State.Value)
	}
	if _, _, err := s.Frames(session.ThreadRecorded); err == nil {
		t.Error("a recorded session has a second thread")
	}
}

func TestOutcomeJSON(t *testing.T) {
	gctx := grammar.NewContext("", "def f(b, a):\n    return a\n")
	st := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 2}, Locals: grammar.Locals{{Name: "b", Repr: "'<x>'"}, {Name: "a", Repr: "1"}}}
	got := string(session.OutcomeJSON(gctx, session.Outcome{State: st}))
	want := `{"event": "line", "line": 2, "source": "  2|     return a", "locals": {"b": "'<x>'", "a": "1"}}`
	if got != want {
		t.Errorf("a line state:\n got %s\nwant %s", got, want)
	}
	if got := string(session.OutcomeJSON(gctx, session.Outcome{Exit: grammar.ExitError})); got != `{"exit": "error"}` {
		t.Errorf("an exit: %s", got)
	}
	c := &grammar.Confidence{Event: 1, Line: 0.9, Locals: 0.5, State: 0.25, Vars: []grammar.VarConfidence{{Name: "b", P: 0.6}, {Name: "a", P: 0.8333}}}
	got = string(session.OutcomeJSON(gctx, session.Outcome{State: st, Confidence: c}))
	want = `{"event": "line", "line": 2, "source": "  2|     return a", "locals": {"b": "'<x>'", "a": "1"}, "confidence": {"state": 0.25, "event": 1, "line": 0.9, "locals": {"b": 0.6, "a": 0.833}}}`
	if got != want {
		t.Errorf("a predicted line state:\n got %s\nwant %s", got, want)
	}
}

// Compare mode: two threads, each with its own stack and locals, and the differences.
func TestOpenCompareThreads(t *testing.T) {
	edited := func(ctx context.Context, prog *session.Program, opt session.Options) (session.Backend, error) {
		if prog.Recording == nil {
			t.Error("compare mode's factory got no recording")
		}
		src := strings.Replace(prog.Source, "n = 0", "n = 1", 1)
		rec, err := opt.Tracer.Record(ctx, prog.Path, src, prog.Entry, opt.Limits)
		if err != nil {
			return nil, err
		}
		return session.NewReplay(rec), nil
	}
	s := open(t, "count.py", `count("berry", "r")`, session.ModeCompare, session.Options{Neural: edited})
	if th := s.Threads(); len(th) != 2 || s.ThreadName(th[0]) != "predicted" || s.ThreadName(th[1]) != "recorded" {
		t.Fatalf("threads %v", th)
	}
	run(t, s, session.PlanOf(grammar.StepInto))
	run(t, s, session.PlanOf(grammar.StepInto)) // line 3: n differs
	for th, want := range map[session.Thread]string{session.ThreadMain: "1", session.ThreadRecorded: "0"} {
		frames, _, err := s.Frames(th)
		if err != nil || len(frames) != 1 {
			t.Fatalf("thread %d: %+v, %v", th, frames, err)
		}
		if v, err := s.Evaluate(th, 0, frames[0], "n"); err != nil || v.Text != want {
			t.Errorf("thread %d: n is %v (%v), want %s", th, v, err, want)
		}
	}
	if d := s.Differences(); len(d) != 1 || d[0].String() != "n: predicted 1, recorded 0" {
		t.Errorf("differences %v", d)
	}
}
