package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestStepReturnExitsForce checks the exits the facts leave a step_return: from the
// call or a line of a frame, the frame's return or final exception comes before the
// end of the run, so only a run cut off may exit; from the entry's return the walk
// leaves the run, and every exit is allowed.
func TestStepReturnExitsForce(t *testing.T) {
	rec, prog := recordFacts(t, "step_return", "def f(s):\n    t = s.upper()\n    return t\n", "f('ab')")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepReturn}
	checked := map[grammar.Event]bool{}
	for i := range fwd.Nodes {
		prev := fwd.Nodes[i].State()
		for _, x := range []grammar.Exit{grammar.ExitNormal, grammar.ExitError, grammar.ExitNever} {
			text := grammar.TokenExitSep + string(x) + grammar.TokenFrameSep
			want := x == grammar.ExitNever || prev.Event == grammar.EventReturn
			if got := accepts(prog, rec.Context, fwd.Dir, prev, a, text); got != want {
				t.Errorf("node %d (%s %d): %s accepted %v, want %v", i, prev.Event, prev.Loc.Line, x, got, want)
			}
		}
		checked[prev.Event] = true
	}
	if !checked[grammar.EventCall] || !checked[grammar.EventLine] || !checked[grammar.EventReturn] {
		t.Fatalf("events checked: %v", checked)
	}
}

// TestStepReturnLinesForce checks where a step_return from inside a frame may return:
// at a return the frame can still reach (grammar/returns.go), past the branch its
// line takes when the branch rule knows it; an early return behind it is rejected.
func TestStepReturnLinesForce(t *testing.T) {
	src := "def f(n):\n    if n > 5:\n        return 1\n    k = n * 2\n    return k\n"
	rec, prog := recordFacts(t, "returns", src, "f(3)")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepReturn}
	// early: whether the return at line 3 stays allowed, by the line stepped from.
	early := map[grammar.Event]map[int]bool{
		grammar.EventCall: {1: true},
		grammar.EventLine: {2: false, 4: false, 5: false},
	}
	checked := 0
	for i := range fwd.Nodes {
		prev := fwd.Nodes[i].State()
		want, ok := early[prev.Event][prev.Loc.Line]
		if !ok {
			continue
		}
		acceptedTruth(t, rec, prog, i, a)
		if got := prog.Targets(&prev, a).Has(grammar.EventReturn, 3); got != want {
			t.Errorf("from %s %d: the return at line 3 allowed %v, want %v", prev.Event, prev.Loc.Line, got, want)
		}
		checked++
	}
	if checked != 4 {
		t.Fatalf("%d of 4 states checked", checked)
	}
}

// TestBreakpointReachForce checks a breakpoint on a line the function's single frame
// can no longer reach (grammar/returns.go): it cannot stop, only exit; behind a
// branch the rule decides, too. With two calls of the function, a later one can stop
// there, and the stop stays allowed.
func TestBreakpointReachForce(t *testing.T) {
	src := "def f(n):\n    k = n\n    if n > 5:\n        k = 0\n    return k\n"
	cases := []struct {
		entry      string
		from, line int
		stops      bool
	}{
		{"f(3)", 3, 4, false}, // the branch skips line 4
		{"f(3)", 2, 4, true},  // from line 2 the branch is not known yet
		{"f(3)", 5, 2, false}, // behind
		{"f(3) + f(9)", 5, 4, true},
	}
	for _, c := range cases {
		rec, prog := recordFacts(t, c.entry, src, c.entry)
		fwd := rec.Forward
		a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: c.line}}}
		found := false
		for i := range fwd.Nodes {
			prev := fwd.Nodes[i].State()
			if prev.Event != grammar.EventLine || prev.Loc.Line != c.from {
				continue
			}
			found = true
			j, exit, err := fwd.Do(i, a)
			if err != nil {
				t.Fatal(err)
			}
			var text string
			if exit {
				text = grammar.TokenExitSep + string(fwd.Exit) + grammar.TokenFrameSep
			} else {
				text = stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
			}
			if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
				t.Fatalf("%s from line %d: the truth %q is rejected", c.entry, c.from, text)
			}
			if got := prog.Targets(&prev, a).Has(grammar.EventLine, c.line); got != c.stops {
				t.Errorf("%s from line %d: a stop at line %d allowed %v, want %v", c.entry, c.from, c.line, got, c.stops)
			}
			break
		}
		if !found {
			t.Fatalf("%s: no line state at %d", c.entry, c.from)
		}
	}
}

// TestDecidedLineRaisesNothing checks that a step from a line whose statement the
// evaluator decides (grammar/assign.go, lineDecided) cannot lead to an exception at
// that line, where a line calling a function of the program can.
func TestDecidedLineRaisesNothing(t *testing.T) {
	src := "def g(n):\n    return n\n\ndef f(n):\n    k = n * 2\n    m = g(k)\n    return m\n"
	rec, prog := recordFacts(t, "decided", src, "f(3)")
	fwd := rec.Forward
	raises := map[int]bool{5: false, 6: true}
	checked := 0
	for i := range fwd.Nodes {
		prev := fwd.Nodes[i].State()
		want, ok := raises[prev.Loc.Line]
		if prev.Event != grammar.EventLine || !ok {
			continue
		}
		for _, kind := range []grammar.ActionKind{grammar.StepInto, grammar.StepOver} {
			tg := prog.Targets(&prev, grammar.Action{Kind: kind})
			if got := tg.Has(grammar.EventException, prev.Loc.Line); got != want {
				t.Errorf("%s from line %d: an exception there allowed %v, want %v", kind, prev.Loc.Line, got, want)
			}
		}
		checked++
	}
	if checked != 2 {
		t.Fatalf("%d of 2 lines checked", checked)
	}
}

// TestComprehensionReturnsItsKind checks that a return whose value a comprehension on
// the line cannot have built is its function's (grammar/returns.go, returnedBy): the
// inputs before it are the function's call, not the comprehension's.
func TestComprehensionReturnsItsKind(t *testing.T) {
	cases := []struct {
		src       string
		compsCall bool // whether the comprehension's call stays allowed
	}{
		{"def f(text):\n    return not any([c.isupper() for c in text])\n", false},
		{"def f(text):\n    return [c for c in text if c.isupper()]\n", true},
	}
	for _, c := range cases {
		rec, prog := recordFacts(t, c.src, c.src, "f('aB')")
		inv := rec.Forward.Inverse()
		ret := inv.Nodes[0].State()
		if ret.Event != grammar.EventReturn {
			t.Fatalf("%q: the inverse tree starts with %s", c.src, ret.Event)
		}
		tg := prog.Targets(&ret, grammar.Action{Kind: grammar.InvStepCall})
		if !tg.Has(grammar.EventCall, 1) || tg.Has(grammar.EventCall, 2) != c.compsCall {
			t.Errorf("%q: the function's call allowed %v, the comprehension's %v (want true, %v)",
				c.src, tg.Has(grammar.EventCall, 1), tg.Has(grammar.EventCall, 2), c.compsCall)
		}
	}
}
