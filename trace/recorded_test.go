package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// These tests walk the state trees of real traces of the testdata programs.

func TestStepIntoReplaysTrace(t *testing.T) {
	for _, p := range testPrograms(t) {
		rec := record(t, p)
		tree := rec.Forward
		i, visited := 0, 1
		for {
			j, exit, err := tree.Do(i, grammar.Action{Kind: grammar.StepInto})
			if err != nil {
				t.Fatal(err)
			}
			if exit {
				break
			}
			if j != i+1 || tree.Nodes[j].Trace != i+1 {
				t.Fatalf("%s: step_into from %d went to %d", p.Name, i, j)
			}
			i, visited = j, visited+1
		}
		if visited != len(rec.Result.Events) {
			t.Errorf("%s: step_into visited %d states of %d events", p.Name, visited, len(rec.Result.Events))
		}
		for k, n := range tree.Nodes {
			e := rec.Result.Events[k]
			if n.Event.String() != e.Event || n.Loc.Line != e.Line || n.Frame != e.Frame {
				t.Fatalf("%s: node %d is %s@%d, event is %s@%d", p.Name, k, n.Event, n.Loc.Line, e.Event, e.Line)
			}
		}
	}
}

func TestStepOverStaysAtOrAboveLevel(t *testing.T) {
	for _, p := range testPrograms(t) {
		tree := record(t, p).Forward
		for i, n := range tree.Nodes {
			j, exit, err := tree.Do(i, grammar.Action{Kind: grammar.StepOver})
			if err != nil {
				t.Fatal(err)
			}
			if exit {
				continue
			}
			if tree.Nodes[j].Depth > n.Depth {
				t.Errorf("%s: step_over from %d (depth %d) went deeper, to %d (depth %d)", p.Name, i, n.Depth, j, tree.Nodes[j].Depth)
			}
			for k := i + 1; k < j; k++ {
				if tree.Nodes[k].Depth <= n.Depth {
					t.Errorf("%s: step_over from %d skipped node %d of its own level", p.Name, i, k)
				}
			}
		}
	}
}

func TestStepReturnLandsOnTheLevelsReturn(t *testing.T) {
	for _, p := range testPrograms(t) {
		tree := record(t, p).Forward
		for i, n := range tree.Nodes {
			j, exit, err := tree.Do(i, grammar.Action{Kind: grammar.StepReturn})
			if err != nil {
				t.Fatal(err)
			}
			if exit {
				continue
			}
			got := tree.Nodes[j]
			if !got.Event.HasValue() {
				t.Fatalf("%s: step_return from %d landed on a %s", p.Name, i, got.Event)
			}
			if j > i && got.Frame == n.Frame && got.Depth == n.Depth {
				// The activation's own end: nothing of it after j (a generator's next
				// resumption starts with a call node of its own).
				for k := j + 1; k < len(tree.Nodes) && tree.Nodes[k].Depth >= n.Depth; k++ {
					if tree.Nodes[k].Frame == n.Frame && tree.Nodes[k].Event == grammar.EventCall {
						break
					}
					if tree.Nodes[k].Frame == n.Frame {
						t.Fatalf("%s: step_return from %d stopped at %d before the frame's end", p.Name, i, j)
					}
				}
				continue
			}
			if got.Depth >= n.Depth {
				t.Errorf("%s: step_return from %d (a %s at depth %d) went to %d at depth %d", p.Name, i, n.Event, n.Depth, j, got.Depth)
			}
		}
	}
}

func TestContinueGivesEachExit(t *testing.T) {
	want := map[string]grammar.Exit{
		"count":              grammar.ExitNormal,
		"exception_uncaught": grammar.ExitError,
		"forever":            grammar.ExitNever,
		"exceptions_caught":  grammar.ExitNormal,
	}
	for name, exit := range want {
		rec := record(t, programNamed(t, name))
		s := NewSampler(1, SampleOptions{})
		tr := s.Walk(rec.Forward, 0, []grammar.Action{{Kind: grammar.Continue}})
		if len(tr.Steps) != 1 || tr.Steps[0].Exit != exit {
			t.Errorf("%s: continue gave %+v, want exit %s", name, tr.Steps, exit)
		}
	}
}

func TestBreakpoints(t *testing.T) {
	rec := record(t, programNamed(t, "count"))
	s := NewSampler(1, SampleOptions{})
	loc := func(l int) grammar.Loc { return grammar.Loc{Line: l} }
	// Line 5 (n += 1) runs once per 'r' in "berry": twice.
	tr := s.Walk(rec.Forward, 0, []grammar.Action{
		{Kind: grammar.Breakpoint, Lines: []grammar.Loc{loc(5)}},
		{Kind: grammar.Breakpoint, Lines: []grammar.Loc{loc(5)}},
		{Kind: grammar.Breakpoint, Lines: []grammar.Loc{loc(5)}},
	})
	if len(tr.Steps) != 3 {
		t.Fatalf("got %d steps", len(tr.Steps))
	}
	for k, want := range []string{"0", "1"} {
		st := tr.Steps[k].State
		if n, _ := st.Locals.Get("n"); st.Loc.Line != 5 || n != want {
			t.Errorf("breakpoint hit %d: line %d n=%s, want line 5 n=%s", k+1, st.Loc.Line, n, want)
		}
	}
	if tr.Steps[2].Exit != grammar.ExitNormal {
		t.Errorf("third breakpoint: %+v, want the exit state", tr.Steps[2])
	}
	// Several lines: the first one reached wins.
	tr = s.Walk(rec.Forward, 0, []grammar.Action{{Kind: grammar.Breakpoint, Lines: []grammar.Loc{loc(6), loc(5)}}})
	if got := tr.Steps[0].State.Loc.Line; got != 5 {
		t.Errorf("breakpoint on 6+5 stopped at line %d, want 5", got)
	}
}

func TestInvStepCallGivesTheCallsLocals(t *testing.T) {
	for _, p := range testPrograms(t) {
		rec := record(t, p)
		inv := rec.Forward.Inverse()
		for i := range inv.Nodes {
			j, _, err := inv.Do(i, grammar.Action{Kind: grammar.InvStepCall})
			if err != nil {
				continue // at the entry call already
			}
			n := inv.Nodes[j]
			ev := rec.Result.Events[n.Trace]
			if n.Event != grammar.EventCall || len(n.Locals) != len(ev.Locals) {
				t.Fatalf("%s: inv_step_call from %d gave a %s with %d locals", p.Name, i, n.Event, len(n.Locals))
			}
			for k, v := range n.Locals {
				if v.Name != ev.Locals[k][0] || v.Repr != ev.Locals[k][1] {
					t.Fatalf("%s: inv_step_call locals differ from the call event", p.Name)
				}
			}
		}
	}
}

func TestInverseStepIntoMirrorsForwardOnRealTraces(t *testing.T) {
	for _, p := range testPrograms(t) {
		fwd := record(t, p).Forward
		inv := fwd.Inverse()
		var got []int
		for i := 0; ; {
			if inv.Nodes[i].Event != grammar.EventInvLineCall {
				got = append(got, inv.Nodes[i].Trace)
			}
			j, _, err := inv.Do(i, grammar.Action{Kind: grammar.InvStepInto})
			if err != nil {
				break
			}
			i = j
		}
		if len(got) != len(fwd.Nodes) {
			t.Fatalf("%s: inverse walk saw %d states, forward %d", p.Name, len(got), len(fwd.Nodes))
		}
		for k := range got {
			if got[k] != len(fwd.Nodes)-1-k {
				t.Fatalf("%s: inverse step %d is event %d", p.Name, k, got[k])
			}
		}
	}
}
