package trace

import (
	"strings"
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
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	checked := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || prev.Loc.Line < 2 || prev.Loc.Line > 9 {
			continue
		}
		name := "xs"
		if prev.Loc.Line == 8 {
			name = "d"
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		next := fwd.Nodes[j].State()
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("line %d: the truth %q is rejected", prev.Loc.Line, text)
		}
		if !prog.Targets(&prev, a).AssignRule() {
			t.Errorf("line %d: no assignment rule", prev.Loc.Line)
		}
		v, _ := next.Locals.Get(name)
		right := `"` + name + `": "` + v + `"`
		wrong := strings.Replace(text, right, `"`+name+`": "`+v[:1]+`0, `+v[1:]+`"`, 1)
		if wrong == text {
			t.Fatalf("line %d: %q lacks %s", prev.Loc.Line, text, right)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("line %d: %q is accepted (the truth is %q)", prev.Loc.Line, wrong, text)
		}
		checked++
	}
	if checked != 8 {
		t.Fatalf("%d of 8 lines checked", checked)
	}
}

// TestUnpackingAssignFactsForce checks `A, B = EXPR` (grammar/assign.go): each name
// takes its part of the value, and a wrong part is rejected.
func TestUnpackingAssignFactsForce(t *testing.T) {
	src := "def f(n, s):\n    q, r = divmod(n, 4)\n    a, b, c = s.rpartition('-')\n    q, r = r, q\n    return q, r, a, b, c\n"
	rec, prog := recordFacts(t, "unpack assign", src, "f(-9, 'x-y-z')")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	last := map[int]string{2: "r", 3: "c", 4: "r"} // the last name each line stores
	checked := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		name, ok := last[prev.Loc.Line]
		if prev.Event != grammar.EventLine || !ok {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		next := fwd.Nodes[j].State()
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("line %d: the truth %q is rejected", prev.Loc.Line, text)
		}
		v, _ := next.Locals.Get(name)
		right := `"` + name + `": "` + v + `"`
		wrong := strings.Replace(text, right, `"`+name+`": "`+v+`0"`, 1)
		if wrong == text {
			t.Fatalf("line %d: %q lacks %s", prev.Loc.Line, text, right)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("line %d: %q is accepted (the truth is %q)", prev.Loc.Line, wrong, text)
		}
		checked++
	}
	if checked != 3 {
		t.Fatalf("%d of 3 lines checked", checked)
	}
}
