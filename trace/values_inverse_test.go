package trace

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// inverseForce records src and checks every inverse transition: the truth is
// accepted, and each wrong variant that variants returns for it is rejected. It
// returns how many variants were checked.
func inverseForce(t *testing.T, src, entry string, variants func(prev grammar.State, a grammar.ActionKind, next grammar.State, text string) []string) int {
	t.Helper()
	rec, prog := recordFacts(t, "inv", src, entry)
	inv := rec.Forward.Inverse()
	checked := 0
	for i, nd := range inv.Nodes {
		prev := nd.State()
		for _, k := range []grammar.ActionKind{grammar.InvStepInto, grammar.InvStepOver, grammar.InvStepCall} {
			a := grammar.Action{Kind: k}
			j, exit, err := inv.Do(i, a)
			if err != nil || exit {
				continue
			}
			next := inv.Nodes[j].State()
			text := stateText(t, rec.Context, inv.Dir, prev, a, next)
			accepts := func(text string) bool { return accepts(prog, rec.Context, inv.Dir, prev, a, text) }
			if !accepts(text) {
				t.Fatalf("node %d %s: the truth %q is rejected", i, k, text)
			}
			for _, w := range variants(prev, k, next, text) {
				if w == text {
					t.Fatalf("node %d %s: %q: no wrong variant made", i, k, text)
				}
				if accepts(w) {
					t.Errorf("node %d (%s %d) %s: %q is accepted (the truth is %q)", i, prev.Event, prev.Loc.Line, k, w, text)
				}
				checked++
			}
		}
	}
	return checked
}

// TestInverseValueFactsForce checks what the inverse value facts force: the call
// state's immutable parameters after inv_step_call, every variable of the call state
// before the first line, the marker alone before a line after a pure `if`, and an
// unchanged string in the full form before the loop.
func TestInverseValueFactsForce(t *testing.T) {
	src := `def count(s, t, xs):
    n = 0
    for c in s:
        if c == t:
            n += 1
    xs.sort()
    return n
`
	kinds := map[string]int{}
	checked := inverseForce(t, src, "count('berry', 'r', [2, 1])", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventLine {
			return nil
		}
		switch {
		case next.Event == grammar.EventCall && k == grammar.InvStepCall:
			kinds["call"]++
			return []string{
				strings.Replace(text, `"s": "'berry'"`, `"s": "'berrx'"`, 1),
				strings.Replace(text, `"t": "'r'"`, `"t": "'y'"`, 1),
			}
		case next.Event == grammar.EventCall:
			kinds["entry"]++
			return []string{strings.Replace(text, `"xs": "[2, 1]"`, `"xs": "[1, 2]"`, 1)}
		case prev.Loc.Line == 5 && next.Loc.Line == 4:
			kinds["marker"]++
			return []string{
				strings.Replace(text, `{"..": ".."}`, `{"n": "5", "..": ".."}`, 1),
				strings.Replace(text, `{"..": ".."}`, `{}`, 1),
				strings.Replace(text, `{"..": ".."}`, `{"s": "'berry'", "..": ".."}`, 1),
			}
		case prev.Loc.Line == 3 && next.Loc.Line == 2:
			// (Lines 4 and 5 come before line 3 too, with n bound: n is not known
			// to be absent, as it is in TestInverseValueFactsForceBound.)
			kinds["full"]++
			return []string{strings.Replace(text, `"s": "'berry'"`, `"s": "'berrx'"`, 1)}
		}
		return nil
	})
	for _, k := range []string{"call", "entry", "marker", "full"} {
		if kinds[k] == 0 {
			t.Errorf("no %s transition checked (%v)", k, kinds)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d wrong states checked", checked)
	}
}

// TestInverseValueFactsForcePure checks that a function whose every instruction is
// pure gives its list parameter's value to inv_step_call.
func TestInverseValueFactsForcePure(t *testing.T) {
	src := `def f(xs, k):
    total = 0
    for x in xs:
        total = total + x * k
    return total
`
	checked := inverseForce(t, src, "f([1, 2], 3)", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventLine || k != grammar.InvStepCall {
			return nil
		}
		return []string{strings.Replace(text, `"xs": "[1, 2]"`, `"xs": "[1, 3]"`, 1)}
	})
	if checked < 5 {
		t.Fatalf("only %d wrong states checked", checked)
	}
}

// TestInverseValueFactsForceBound checks the binding facts: a name first bound by
// the line before leaves the full form without it, and one every path has bound
// before a line that stores it keeps the diff form with its marker.
func TestInverseValueFactsForceBound(t *testing.T) {
	src := `def f(s):
    k = 0
    k = k + len(s)
    m = k * 2
    return m
`
	kinds := map[string]int{}
	checked := inverseForce(t, src, "f('ab')", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventLine || next.Event != grammar.EventLine {
			return nil
		}
		switch prev.Loc.Line {
		case 4:
			kinds["marker"]++
			return []string{
				strings.Replace(text, `{"k": "0", "..": ".."}`, `{"k": "0"}`, 1),
				strings.Replace(text, `{"k": "0", "..": ".."}`, `{"s": "'ab'", "k": "0"}`, 1),
			}
		case 3:
			kinds["first"]++
			return []string{
				strings.Replace(text, `{"s": "'ab'"}`, `{"s": "'ab'", "k": "0"}`, 1),
				strings.Replace(text, `{"s": "'ab'"}`, `{"..": ".."}`, 1),
				strings.Replace(text, `{"s": "'ab'"}`, `{"s": "'ab'", "..": ".."}`, 1),
			}
		}
		return nil
	})
	if kinds["marker"] == 0 || kinds["first"] == 0 || checked < 8 {
		t.Fatalf("checked %d (%v)", checked, kinds)
	}
}

// TestInverseValueFactsForceReturn checks inv_step_call from a return state (the
// CruxEval input task's start): a function that returns a parameter no instruction
// stores was called with the value it returns, when the value is immutable; a list
// that a method call may have changed is left free.
func TestInverseValueFactsForceReturn(t *testing.T) {
	src := `def f(s, n):
    k = n * 2
    if k > 4:
        return s
    return s + 'x'

def g(xs):
    xs.append(1)
    return xs

def main():
    f('abc', 3)
    f('abc', 1)
    return g([5])
`
	lines := map[int]int{} // the return line of each inv_step_call from a return whose truth was checked
	checked := inverseForce(t, src, "main()", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventReturn || k != grammar.InvStepCall {
			return nil
		}
		lines[prev.Loc.Line]++
		if prev.Loc.Line != 4 {
			return nil
		}
		return []string{strings.Replace(text, `"s": "'abc'"`, `"s": "'abd'"`, 1)}
	})
	if checked != 1 || lines[5] != 1 || lines[9] != 1 {
		t.Fatalf("checked %d wrong variants, returns seen %v: want one from line 4 and one each from 5 and 9", checked, lines)
	}
}

// TestInverseAssignFactsForce checks the assignment rule reversed: the state before a
// line whose only predecessor is `n += 2` (or `s += c`) holds the value undone.
func TestInverseAssignFactsForce(t *testing.T) {
	src := `def f(word):
    n = 5
    s = ''
    for c in word:
        n += 2
        s += c
        k = n
    return k
`
	seen := map[int]int{}
	checked := inverseForce(t, src, "f('ab')", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventLine || next.Event != grammar.EventLine || k == grammar.InvStepCall {
			return nil
		}
		name := map[int]string{5: "n", 6: "s"}[next.Loc.Line]
		if name == "" || prev.Loc.Line != next.Loc.Line+1 {
			return nil
		}
		v, _ := next.Locals.Get(name)
		right := `"` + name + `": ` + grammar.QuoteJSON(v)
		if !strings.Contains(text, right) {
			t.Fatalf("%q lacks %s", text, right)
		}
		seen[next.Loc.Line]++
		return []string{
			strings.Replace(text, right, `"`+name+`": "99"`, 1),
			strings.Replace(strings.Replace(text, right+", ", "", 1), ", "+right, "", 1), // left out
		}
	})
	if seen[5] != 4 || seen[6] != 4 || checked != 16 {
		t.Errorf("undone steps by line %v, %d variants checked; want 4 at lines 5 and 6 (2 passes x 2 actions), 16 variants", seen, checked)
	}
}

// TestInverseMutatorFactsForce checks in-place list methods undone before the line
// after them (grammar/assign_inverse.go, unmutate): the list before append, extend,
// insert and reverse is forced, and another value is rejected.
func TestInverseMutatorFactsForce(t *testing.T) {
	src := `def f(xs, v):
    xs.append(v)
    xs.reverse()
    xs.insert(-1, 5)
    xs.extend('ab')
    return xs
`
	seen := map[int]int{}
	inverseForce(t, src, "f([1, 2], 3)", func(prev grammar.State, k grammar.ActionKind, next grammar.State, text string) []string {
		if prev.Event != grammar.EventLine || next.Event != grammar.EventLine || k == grammar.InvStepCall {
			return nil
		}
		if next.Loc.Line < 2 || next.Loc.Line > 5 || prev.Loc.Line != next.Loc.Line+1 {
			return nil
		}
		v, _ := next.Locals.Get("xs")
		right := `"xs": ` + grammar.QuoteJSON(v)
		if !strings.Contains(text, right) {
			t.Fatalf("%q lacks %s", text, right)
		}
		seen[next.Loc.Line]++
		return []string{strings.Replace(text, right, `"xs": "[9]"`, 1)}
	})
	for line := 2; line <= 5; line++ {
		if seen[line] != 2 {
			t.Errorf("line %d undone %d times, want 2 (inv_step_into and inv_step_over)", line, seen[line])
		}
	}
}
