package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestExitFactsForce checks which exits the facts leave (grammar/exits.go): from a
// state inside the frame, a step_return reaches the frame's return before the end of
// the run, so only a run cut off may exit; a breakpoint on the return line of a
// function with a single frame, which every path to its return passes, may end the
// run with an error or cut off, never normally; on a line that a path can skip, or
// in a program that can raise SystemExit, the normal exit stays allowed.
func TestExitFactsForce(t *testing.T) {
	exitText := func(x grammar.Exit) string {
		return grammar.TokenExitSep + string(x) + grammar.TokenFrameSep
	}
	cases := []struct {
		name, src, entry string
		action           grammar.Action
		exits            map[grammar.Exit]bool
	}{
		{"step_return from the call", "def f(s):\n    t = s.upper()\n    return t\n", "f('ab')",
			grammar.Action{Kind: grammar.StepReturn},
			map[grammar.Exit]bool{grammar.ExitNormal: false, grammar.ExitError: false, grammar.ExitNever: true}},
		{"a breakpoint every path passes", "def f(s):\n    t = s.upper()\n    return t\n", "f('ab')",
			grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: 3}}},
			map[grammar.Exit]bool{grammar.ExitNormal: false, grammar.ExitError: true, grammar.ExitNever: true}},
		{"a breakpoint a branch skips", "def f(n):\n    if n > 1:\n        return 0\n    return n\n", "f(1)",
			grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: 4}}},
			map[grammar.Exit]bool{grammar.ExitNormal: true, grammar.ExitError: true, grammar.ExitNever: true}},
		{"a program that can exit", "def f(n):\n    if n > 1:\n        exit()\n    return n\n", "f(1)",
			grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: 4}}},
			map[grammar.Exit]bool{grammar.ExitNormal: true, grammar.ExitError: true, grammar.ExitNever: true}},
		{"a function called twice", "def f(s):\n    t = s.upper()\n    return t\n", "f('a') + f('b')",
			grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: 3}}},
			map[grammar.Exit]bool{grammar.ExitNormal: true, grammar.ExitError: true, grammar.ExitNever: true}},
	}
	for _, c := range cases {
		rec, prog := recordFacts(t, c.name, c.src, c.entry)
		fwd := rec.Forward
		prev := fwd.Nodes[0].State()
		if prev.Event != grammar.EventCall {
			t.Fatalf("%s: the run starts with %s", c.name, prev.Event)
		}
		for x, want := range c.exits {
			if got := accepts(prog, rec.Context, fwd.Dir, prev, c.action, exitText(x)); got != want {
				t.Errorf("%s: %s after %s accepted %v, want %v", c.name, x, c.action.Kind, got, want)
			}
		}
	}
}
