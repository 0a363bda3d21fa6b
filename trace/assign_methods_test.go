package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestMutatorFactsForce checks the assignment rule on a line that is one call of a
// method that changes a list or dict in place (grammar/assign_methods.go): a
// step_over writes the object's new repr and no other.
func TestMutatorFactsForce(t *testing.T) {
	src := `def f(xs, d):
    xs.reverse()
    xs.sort()
    xs.insert(-1, 9)
    xs.remove(2)
    xs.extend('ab')
    xs.pop(0)
    d.pop('k')
    xs.clear()
    return xs, d
`
	rec, prog := recordFacts(t, "mutators", src, "f([3, 1, 2], {'k': 1, 'j': 2})")
	a := grammar.Action{Kind: grammar.StepOver}
	n := forceValue(t, rec, prog, a, func(_ int, prev grammar.State) (string, bool) {
		if prev.Event != grammar.EventLine || prev.Loc.Line < 2 || prev.Loc.Line > 9 {
			return "", false
		}
		if !prog.Targets(&prev, a).AssignRule() {
			t.Errorf("line %d: no assignment rule", prev.Loc.Line)
		}
		if prev.Loc.Line == 8 {
			return "d", true
		}
		return "xs", true
	}, func(v string) string { return v[:1] + "0, " + v[1:] })
	if n != 8 {
		t.Fatalf("%d of 8 lines checked", n)
	}
}

// TestUnpackingAssignFactsForce checks `A, B = EXPR` (grammar/assign.go): each name
// takes its part of the value, and a wrong part is rejected.
func TestUnpackingAssignFactsForce(t *testing.T) {
	src := "def f(n, s):\n    q, r = divmod(n, 4)\n    a, b, c = s.rpartition('-')\n    q, r = r, q\n    return q, r, a, b, c\n"
	rec, prog := recordFacts(t, "unpack assign", src, "f(-9, 'x-y-z')")
	last := map[int]string{2: "r", 3: "c", 4: "r"} // the last name each line stores
	n := forceValue(t, rec, prog, grammar.Action{Kind: grammar.StepOver}, func(_ int, prev grammar.State) (string, bool) {
		name, ok := last[prev.Loc.Line]
		return name, ok && prev.Event == grammar.EventLine
	}, func(v string) string { return v + "0" })
	if n != 3 {
		t.Fatalf("%d of 3 lines checked", n)
	}
}
