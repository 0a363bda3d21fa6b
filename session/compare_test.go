package session

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// cmpScripted is a backend that walks a fixed list of outcomes: forward actions move one
// outcome on, inverse actions one back.
type cmpScripted struct {
	outs []Outcome
	pos  int
}

func (s *cmpScripted) Entry(context.Context) (grammar.State, error) { return s.outs[0].State, nil }

func (s *cmpScripted) Do(ctx context.Context, a grammar.Action) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	switch {
	case a.Kind.Inverse() && s.pos == 0:
		return Outcome{}, ErrAtStart
	case a.Kind.Inverse():
		s.pos--
	case s.pos == len(s.outs)-1:
		return Outcome{}, ErrEnded
	default:
		s.pos++
	}
	return s.outs[s.pos], nil
}

func (s *cmpScripted) Close() error { return nil }

// cmpEditable is a cmpScripted backend that can change variables.
type cmpEditable struct{ cmpScripted }

func (e *cmpEditable) SetVariable(name, repr string) (grammar.State, error) {
	st := e.outs[e.pos].State
	st.Locals = st.Locals.Clone()
	for i := range st.Locals {
		if st.Locals[i].Name == name {
			st.Locals[i].Repr = repr
			e.outs[e.pos].State = st
			return st, nil
		}
	}
	return grammar.State{}, errors.New("no such variable")
}

func cmpLine(n int, vars ...string) Outcome {
	st := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: n}, Frame: 1, Func: "f", Locals: grammar.Locals{}}
	for i := 0; i+1 < len(vars); i += 2 {
		st.Locals = append(st.Locals, grammar.Var{Name: vars[i], Repr: vars[i+1]})
	}
	return Outcome{State: st}
}

func cmpCall(n int, vars ...string) Outcome {
	o := cmpLine(n, vars...)
	o.State.Event = grammar.EventCall
	return o
}

func cmpRet(n int, value string) Outcome {
	return Outcome{State: grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: n}, Frame: 1, Func: "f", Value: value}}
}

func cmpExit(e grammar.Exit) Outcome { return Outcome{Exit: e} }

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name string
		p, r Outcome
		want []string
	}{
		{"same state", cmpLine(2, "n", "0"), cmpLine(2, "n", "0"), nil},
		{"same exit", cmpExit(grammar.ExitNormal), cmpExit(grammar.ExitNormal), nil},
		{"exit vs state", cmpExit(grammar.ExitNormal), cmpLine(3, "n", "1"),
			[]string{"exit: predicted normal, recorded line at line 3"}},
		{"different exits", cmpExit(grammar.ExitNever), cmpExit(grammar.ExitError),
			[]string{"exit: predicted never, recorded error"}},
		{"line and variables", cmpLine(3, "n", "1", "c", "'b'"), cmpLine(4, "n", "0", "t", "'r'"),
			[]string{"line: predicted 3, recorded 4", "n: predicted 1, recorded 0", "c: predicted 'b', recorded (absent)", "t: predicted (absent), recorded 'r'"}},
		{"event", cmpCall(1, "s", "'x'"), cmpLine(1, "s", "'x'"), []string{"event: predicted call, recorded line"}},
		{"return value", cmpRet(6, "2"), cmpRet(6, "3"), []string{"value: predicted 2, recorded 3"}},
		{"return vs line", cmpRet(6, "2"), cmpLine(6, "n", "2"), []string{"event: predicted return, recorded line"}},
	} {
		var got []string
		for _, d := range Diff(c.p, c.r) {
			got = append(got, d.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Diff = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCompareLockstep(t *testing.T) {
	ctx := context.Background()
	pred := &cmpScripted{outs: []Outcome{cmpCall(1, "s", "'ab'"), cmpLine(2, "s", "'ab'"), cmpLine(3, "s", "'ab'", "n", "1"), cmpRet(6, "1")}}
	rec := &cmpScripted{outs: []Outcome{cmpCall(1, "s", "'ab'"), cmpLine(2, "s", "'ab'"), cmpLine(3, "s", "'ab'", "n", "0"), cmpExit(grammar.ExitNormal)}}
	cmp := NewCompare(pred, rec, nil)
	s := New(cmp, nil)
	if _, err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	step := grammar.Action{Kind: grammar.StepInto}
	if _, err := s.Do(ctx, step); err != nil {
		t.Fatal(err)
	}
	if ds := cmp.Differences(); len(ds) != 0 {
		t.Errorf("after one step: differences %v", ds)
	}
	if _, err := s.Do(ctx, step); err != nil {
		t.Fatal(err)
	}
	ds := cmp.Differences()
	if len(ds) != 1 || ds[0].Kind != DiffVariable || ds[0].Name != "n" || ds[0].Predicted != "1" || ds[0].Recorded != "0" {
		t.Errorf("after two steps: differences %v", ds)
	}
	out, err := s.Do(ctx, step)
	if err != nil || out.State.Event != grammar.EventReturn {
		t.Fatalf("third step: %+v, %v", out, err)
	}
	r, frames := cmp.Recorded()
	if r.Exit != grammar.ExitNormal || frames != nil {
		t.Errorf("recorded side: %+v, frames %v", r, frames)
	}
	if ds := cmp.Differences(); len(ds) != 1 || ds[0].Kind != DiffExit {
		t.Errorf("after the recorded side ended: %v", ds)
	}
	// The predicted side goes on; the recorded side has ended and stays there.
	if _, err := s.Do(ctx, grammar.Action{Kind: grammar.InvStepInto}); err != nil {
		t.Fatal(err)
	}
	if cmp.RecordedErr() != nil {
		t.Errorf("the recorded side walks back from its end: %v", cmp.RecordedErr())
	}
	if p := cmp.Predicted(); p.State.Loc.Line != 3 {
		t.Errorf("predicted side after the step back: %+v", p)
	}
	if r, frames := cmp.Recorded(); r.State.Loc.Line != 3 || len(frames) != 1 || frames[0].Func != "f" {
		t.Errorf("recorded side after the step back: %+v %v", r, frames)
	}
}

func TestCompareRecordedSideStuck(t *testing.T) {
	ctx := context.Background()
	pred := &cmpScripted{outs: []Outcome{cmpCall(1), cmpLine(2), cmpLine(3)}}
	rec := &cmpScripted{outs: []Outcome{cmpCall(1), cmpExit(grammar.ExitError)}}
	cmp := NewCompare(pred, rec, nil)
	if _, err := cmp.Entry(ctx); err != nil {
		t.Fatal(err)
	}
	step := grammar.Action{Kind: grammar.StepInto}
	for range 2 {
		if _, err := cmp.Do(ctx, step); err != nil {
			t.Fatal(err)
		}
	}
	if !errors.Is(cmp.RecordedErr(), ErrEnded) {
		t.Errorf("RecordedErr = %v, want ErrEnded", cmp.RecordedErr())
	}
	if r, _ := cmp.Recorded(); r.Exit != grammar.ExitError {
		t.Errorf("recorded side moved: %+v", r)
	}
	// A failure on the predicted side moves nothing.
	if _, err := cmp.Do(ctx, step); !errors.Is(err, ErrEnded) {
		t.Errorf("predicted at its end: %v", err)
	}
	if p := cmp.Predicted(); p.State.Loc.Line != 3 {
		t.Errorf("predicted side: %+v", p)
	}
}

func TestCompareSetVariable(t *testing.T) {
	ctx := context.Background()
	pred := &cmpEditable{cmpScripted{outs: []Outcome{cmpCall(1, "n", "0")}}}
	rec := &cmpScripted{outs: []Outcome{cmpCall(1, "n", "0")}}
	s := New(NewCompare(pred, rec, nil), nil)
	if _, err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := s.SetVariable("n", "5")
	if err != nil || st.Locals[0].Repr != "5" {
		t.Fatalf("SetVariable: %+v, %v", st, err)
	}
	cmp := s.backend.(*Compare)
	if ds := cmp.Differences(); len(ds) != 1 || ds[0].Predicted != "5" || ds[0].Recorded != "0" {
		t.Errorf("differences after the edit: %v", ds)
	}
	// Two recorded backends: nothing can be edited.
	s2 := New(NewCompare(&cmpScripted{outs: []Outcome{cmpCall(1, "n", "0")}}, rec, nil), nil)
	if _, err := s2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.SetVariable("n", "5"); err == nil {
		t.Error("SetVariable on a predicted side that cannot edit succeeded")
	}
}
