package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestCompFactsForce checks the assignment rule on comprehensions, a generator
// expression a builtin reads whole, a dict display, iterators that a builtin or a
// comprehension consumes (grammar/branch_comps.go, branch_iters.go) and an f-string
// (trace/analyze.py writes it as a concatenation of str() calls): a step_over from
// such a line writes the value stored and no other; a step_into goes into the
// comprehension's frame, which the rule leaves alone, and is accepted.
func TestCompFactsForce(t *testing.T) {
	src := `def f(xs, s):
    ys = [x * 2 for x in xs if x > 1]
    d = {c: s.count(c) for c in s}
    n = sum((x for x in xs))
    e = {'n': n, 'k': len(ys)}
    z = dict(zip(s, xs))
    m = [i for i, c in enumerate(s) if c == 'a']
    w = f'{n}:{s}!{ys}'
    return ys, d, n, e, z, m, w
`
	rec, prog := recordFacts(t, "comps", src, "f([1, 2, 3], 'abca')")
	fwd := rec.Forward
	names := map[int]string{2: "ys", 3: "d", 4: "n", 5: "e", 6: "z", 7: "m", 8: "w"}
	atLine := func(prev grammar.State, i int) (string, bool) {
		name, ok := names[prev.Loc.Line]
		return name, ok && prev.Event == grammar.EventLine && fwd.Nodes[i].Depth == 0
	}
	over := grammar.Action{Kind: grammar.StepOver}
	n := forceValue(t, rec, prog, over, func(i int, prev grammar.State) (string, bool) {
		name, ok := atLine(prev, i)
		if ok && !prog.Targets(&prev, over).AssignRule() {
			t.Errorf("line %d: no assignment rule", prev.Loc.Line)
		}
		return name, ok
	}, func(v string) string { return v[:len(v)-1] + ", 0" + v[len(v)-1:] })
	if n != len(names) {
		t.Fatalf("%d of %d lines checked", n, len(names))
	}
	for i, nd := range fwd.Nodes {
		if _, ok := atLine(nd.State(), i); ok {
			acceptedTruth(t, rec, prog, i, grammar.Action{Kind: grammar.StepInto})
		}
	}
}

// TestUnpackingLoopFactsForce checks the loop rule on a header that unpacks an
// iterator (grammar/fors.go): the first pass gives each variable its part of the
// first element, and a later pass the parts of the next one (or of the first, or the
// values kept); any other value is rejected.
func TestUnpackingLoopFactsForce(t *testing.T) {
	src := "def f(s):\n    n = 0\n    for i, c in enumerate(s):\n        n += i\n    return n\n"
	rec, prog := recordFacts(t, "unpack", src, "f('xyz')")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	passes := forceValue(t, rec, prog, a, func(i int, prev grammar.State) (string, bool) {
		if prev.Event != grammar.EventLine || prev.Loc.Line != 3 {
			return "", false
		}
		j, exit, err := fwd.Do(i, a)
		return "c", err == nil && !exit && fwd.Nodes[j].Loc.Line == 4 // not the loop's end
	}, func(string) string { return "'q'" })
	if passes != 3 {
		t.Fatalf("%d of 3 passes checked", passes)
	}
}
