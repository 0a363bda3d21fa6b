package trace

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestCompFactsForce checks the assignment rule on comprehensions, a generator
// expression a builtin reads whole, a dict display, iterators that a builtin or a
// comprehension consumes (grammar/branch_comps.go, branch_iters.go) and an f-string
// (trace/analyze.py writes it as a concatenation of str() calls): a
// step_over from such a line writes the value stored and no other; a step_into goes
// into the comprehension's frame, which the rule leaves alone.
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
	ruled := map[int]bool{}
	for _, kind := range []grammar.ActionKind{grammar.StepOver, grammar.StepInto} {
		a := grammar.Action{Kind: kind}
		for i, nd := range fwd.Nodes {
			prev := nd.State()
			name, ok := names[prev.Loc.Line]
			if prev.Event != grammar.EventLine || nd.Depth != 0 || !ok {
				continue
			}
			j, exit, err := fwd.Do(i, a)
			if err != nil || exit {
				t.Fatalf("node %d: %v %v", i, err, exit)
			}
			next := fwd.Nodes[j].State()
			text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
			if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
				t.Fatalf("%s from line %d: the truth %q is rejected", kind, prev.Loc.Line, text)
			}
			if kind == grammar.StepInto {
				continue // a call state of a comprehension, or the next line: accepted
			}
			if !prog.Targets(&prev, a).AssignRule() {
				t.Errorf("line %d: no assignment rule", prev.Loc.Line)
			}
			v, _ := next.Locals.Get(name)
			right := `"` + name + `": "` + v + `"`
			wrong := strings.Replace(text, right, `"`+name+`": "`+v[:len(v)-1]+`, 0`+v[len(v)-1:]+`"`, 1)
			if wrong == text {
				t.Fatalf("line %d: %q lacks %s", prev.Loc.Line, text, right)
			}
			if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
				t.Errorf("line %d: %q is accepted (the truth is %q)", prev.Loc.Line, wrong, text)
			}
			ruled[prev.Loc.Line] = true
		}
	}
	if len(ruled) != len(names) {
		t.Fatalf("lines checked: %v", ruled)
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
	passes := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || prev.Loc.Line != 3 {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		next := fwd.Nodes[j].State()
		if next.Loc.Line != 4 {
			continue // the loop ends
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		c, _ := next.Locals.Get("c")
		wrong := strings.Replace(text, `"c": "`+c+`"`, `"c": "'q'"`, 1)
		if wrong == text {
			t.Fatalf("node %d: %q lacks c", i, text)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, wrong, text)
		}
		passes++
	}
	if passes != 3 {
		t.Fatalf("%d of 3 passes checked", passes)
	}
}
