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
