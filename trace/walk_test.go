package trace

import (
	"errors"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// twoCalls is the trace of f(1) for
//
//	1 def g(x):
//	2     y = x * 2
//	3     return y
//	4 def f(a):
//	5     b = g(a)
//	6     c = g(b) + 1
//	7     return c
func twoCalls() TraceResult {
	ev := func(event string, frame, depth, line int, fn, arg string, locals ...string) Event {
		e := Event{Event: event, Frame: frame, Depth: depth, Func: fn, Line: line, Arg: arg}
		for k := 0; k+1 < len(locals); k += 2 {
			e.Locals = append(e.Locals, Pair{locals[k], locals[k+1]})
		}
		return e
	}
	return TraceResult{Status: StatusNormal, Events: []Event{
		ev("call", 1, 0, 4, "f", "", "a", "1"),                     // 0
		ev("line", 1, 0, 5, "f", "", "a", "1"),                     // 1
		ev("call", 2, 1, 1, "g", "", "x", "1"),                     // 2
		ev("line", 2, 1, 2, "g", "", "x", "1"),                     // 3
		ev("line", 2, 1, 3, "g", "", "x", "1", "y", "2"),           // 4
		ev("return", 2, 1, 3, "g", "2"),                            // 5
		ev("line", 1, 0, 6, "f", "", "a", "1", "b", "2"),           // 6
		ev("call", 3, 1, 1, "g", "", "x", "2"),                     // 7
		ev("line", 3, 1, 2, "g", "", "x", "2"),                     // 8
		ev("line", 3, 1, 3, "g", "", "x", "2", "y", "4"),           // 9
		ev("return", 3, 1, 3, "g", "4"),                            // 10
		ev("line", 1, 0, 7, "f", "", "a", "1", "b", "2", "c", "5"), // 11
		ev("return", 1, 0, 7, "f", "5"),                            // 12
	}}
}

func act(k grammar.ActionKind, lines ...int) grammar.Action {
	a := grammar.Action{Kind: k}
	for _, l := range lines {
		a.Lines = append(a.Lines, grammar.Loc{Line: l})
	}
	return a
}

const exitNode = -1

func checkWalk(t *testing.T, tree *Tree, from int, a grammar.Action, want int) {
	t.Helper()
	j, exit, err := tree.Do(from, a)
	if err != nil {
		t.Fatalf("%s from %d: %v", a.Kind, from, err)
	}
	got := j
	if exit {
		got = exitNode
	}
	if got != want {
		t.Errorf("%s%v from node %d: got node %d, want %d", a.Kind, a.Lines, from, got, want)
	}
}

func TestForwardActions(t *testing.T) {
	tree, err := NewForward(twoCalls())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		checkWalk(t, tree, i, act(grammar.StepInto), i+1)
	}
	cases := []struct {
		from int
		a    grammar.Action
		want int
	}{
		{12, act(grammar.StepInto), exitNode},
		{1, act(grammar.StepOver), 6}, // skips g's subtree
		{2, act(grammar.StepOver), 3}, // inside g
		{5, act(grammar.StepOver), 6}, // end of g's level: next after the parent
		{12, act(grammar.StepOver), exitNode},
		{0, act(grammar.StepReturn), 12},
		{3, act(grammar.StepReturn), 5}, // g's own return
		{8, act(grammar.StepReturn), 10},
		{5, act(grammar.StepReturn), 12}, // already at the return: the level above's
		{12, act(grammar.StepReturn), exitNode},
		{0, act(grammar.Breakpoint, 3), 4},
		{4, act(grammar.Breakpoint, 3), 9},
		{0, act(grammar.Breakpoint, 7, 2), 3}, // several lines: the first reached
		{0, act(grammar.Breakpoint, 99), exitNode},
		{11, act(grammar.Breakpoint, 2), exitNode},
		{3, act(grammar.Continue), exitNode},
	}
	for _, c := range cases {
		checkWalk(t, tree, c.from, c.a, c.want)
	}
	if tree.Exit != grammar.ExitNormal {
		t.Errorf("exit = %s, want normal", tree.Exit)
	}
}

func TestStepOverNeverGoesDeeper(t *testing.T) {
	tree, _ := NewForward(twoCalls())
	for i := range tree.Nodes {
		j, exit, err := tree.Do(i, act(grammar.StepOver))
		if err != nil {
			t.Fatal(err)
		}
		if !exit && tree.Nodes[j].Depth > tree.Nodes[i].Depth {
			t.Errorf("step_over from %d (depth %d) went to %d (depth %d)", i, tree.Nodes[i].Depth, j, tree.Nodes[j].Depth)
		}
	}
}

// inverse order of twoCalls with twins: 12,11,twin(6),10,9,8,7,6,twin(1),5,4,3,2,1,0
func TestInverseTreeLayout(t *testing.T) {
	inv, err := NewInverse(twoCalls())
	if err != nil {
		t.Fatal(err)
	}
	want := []int{12, 11, 6, 10, 9, 8, 7, 6, 1, 5, 4, 3, 2, 1, 0}
	if len(inv.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(inv.Nodes), len(want))
	}
	for k, n := range inv.Nodes {
		if n.Trace != want[k] {
			t.Errorf("node %d doubles trace event %d, want %d", k, n.Trace, want[k])
		}
		isTwin := k == 2 || k == 8
		if (n.Event == grammar.EventInvLineCall) != isTwin {
			t.Errorf("node %d: event %s", k, n.Event)
		}
	}
}

func TestInverseActions(t *testing.T) {
	inv, _ := NewInverse(twoCalls())
	cases := []struct {
		from int
		a    grammar.Action
		want int
	}{
		{0, act(grammar.InvStepInto), 1},
		{2, act(grammar.InvStepInto), 3}, // the twin enters the callee at its return
		{2, act(grammar.InvStepOver), 7}, // or skips it, to the line before the call ran
		{1, act(grammar.InvStepOver), 2},
		{3, act(grammar.InvStepOver), 4},
		{6, act(grammar.InvStepOver), 7},  // g's call: the caller's line that made it
		{4, act(grammar.InvStepCall), 6},  // g's inputs
		{6, act(grammar.InvStepCall), 14}, // at g's call: f's inputs
		{0, act(grammar.InvStepCall), 14},
		{8, act(grammar.InvStepCall), 14}, // a twin belongs to its caller's frame
	}
	for _, c := range cases {
		checkWalk(t, inv, c.from, c.a, c.want)
	}
	for _, a := range []grammar.ActionKind{grammar.InvStepInto, grammar.InvStepOver, grammar.InvStepCall} {
		if _, _, err := inv.Do(14, act(a)); !errors.Is(err, ErrAtStart) {
			t.Errorf("%s from the entry call: err = %v, want ErrAtStart", a, err)
		}
	}
	if _, _, err := inv.Do(0, act(grammar.StepInto)); !errors.Is(err, ErrDirection) {
		t.Errorf("forward action on the inverse tree: err = %v", err)
	}
}

func TestInverseMirrorsForward(t *testing.T) {
	fwd, _ := NewForward(twoCalls())
	inv := fwd.Inverse()
	// inv_step_into from the last state replays the trace backwards (twins aside).
	var back []int
	for i := 0; ; {
		if inv.Nodes[i].Event != grammar.EventInvLineCall {
			back = append(back, inv.Nodes[i].Trace)
		}
		j, _, err := inv.Do(i, act(grammar.InvStepInto))
		if err != nil {
			break
		}
		i = j
	}
	if len(back) != len(fwd.Nodes) {
		t.Fatalf("inverse walk visited %d states, forward trace has %d", len(back), len(fwd.Nodes))
	}
	for k, tr := range back {
		if tr != len(fwd.Nodes)-1-k {
			t.Fatalf("inverse walk step %d visited event %d", k, tr)
		}
	}
	// inv_step_over from the entry's return visits the entry level's lines backwards,
	// the same lines step_over visits forwards.
	var fwdLevel, invLevel []int
	for i := 0; ; {
		fwdLevel = append(fwdLevel, fwd.Nodes[i].Trace)
		j, exit, _ := fwd.Do(i, act(grammar.StepOver))
		if exit {
			break
		}
		i = j
	}
	for i := 0; ; {
		if inv.Nodes[i].Event != grammar.EventInvLineCall {
			invLevel = append([]int{inv.Nodes[i].Trace}, invLevel...)
		}
		j, _, err := inv.Do(i, act(grammar.InvStepOver))
		if err != nil {
			break
		}
		i = j
	}
	if len(fwdLevel) != len(invLevel) {
		t.Fatalf("forward level %v, inverse level %v", fwdLevel, invLevel)
	}
	for k := range fwdLevel {
		if fwdLevel[k] != invLevel[k] {
			t.Fatalf("forward level %v, inverse level %v", fwdLevel, invLevel)
		}
	}
}

func TestScope(t *testing.T) {
	fwd, _ := NewForward(twoCalls())
	sc, err := fwd.Scope(7)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Nodes) != 4 || sc.Nodes[0].Depth != 0 || sc.Exit != grammar.ExitNormal {
		t.Fatalf("scope of the second g call: %d nodes, depth %d, exit %s", len(sc.Nodes), sc.Nodes[0].Depth, sc.Exit)
	}
	checkWalk(t, sc, 3, act(grammar.StepInto), exitNode)
	if _, err := fwd.Scope(1); err == nil {
		t.Error("scope of a line node: want an error")
	}
}

func TestTruncatedTraceNeverReturns(t *testing.T) {
	res := twoCalls()
	res.Events = res.Events[:9] // cut inside the second g call
	res.Status = StatusNever
	tree, _ := NewForward(res)
	checkWalk(t, tree, 8, act(grammar.StepReturn), exitNode)
	checkWalk(t, tree, 0, act(grammar.StepReturn), exitNode)
	checkWalk(t, tree, 3, act(grammar.StepReturn), 5) // the first call did return
	if tree.Exit != grammar.ExitNever {
		t.Errorf("exit = %s", tree.Exit)
	}
}
