package trace

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestStepBoundFactsForce checks the names bound on every path to the lines a step can
// stop at (grammar/values.go, localsAfter): after `n = g(s)`, whose value no rule
// evaluates, the next line shows n, and the state without it is rejected.
func TestStepBoundFactsForce(t *testing.T) {
	src := "def g(s):\n    return s * 2\n\ndef f(s):\n    n = g(s)\n    return n\n"
	rec, prog := recordFacts(t, "bound after a call", src, "f('ab')")
	fwd := rec.Forward
	checked := 0
	for i := range fwd.Nodes {
		prev := fwd.Nodes[i].State()
		if prev.Event != grammar.EventLine || prev.Loc.Line != 5 {
			continue
		}
		a := grammar.Action{Kind: grammar.StepOver}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("step_over: %v (exit %v)", err, exit)
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("the truth %q is rejected", text)
		}
		wrong := text
		for _, entry := range []string{`, "n": "'abab'"`, `"n": "'abab'", `} {
			wrong = strings.Replace(wrong, entry, "", 1)
		}
		if wrong == text {
			t.Fatalf("%q does not show n", text)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("%q is accepted (the truth is %q)", wrong, text)
		}
		checked++
	}
	if checked != 1 {
		t.Fatalf("%d steps from line 5 checked", checked)
	}
}
