package trace

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// branchPrograms try to defeat the branch rule (grammar/branch.go): tests on floats
// (whose reprs round), == between int, float and bool, comparisons that raise
// TypeError, a rebound len, strings with escapes, while loops (the test at the top
// and at the bottom), short-circuit and/or with calls, a cut repr, an unbound local,
// a global, nested ifs ending a loop body, a class with its own __eq__. noRule are
// lines where the rule must never choose (the test is not exactly knowable).
var branchPrograms = []struct {
	src, entry string
	noRule     []int
}{
	{`def f(n):
    x = 0.1 + 0.2
    y = 0.3
    if x == y:
        n = 1
    else:
        n = 2
    if x > 0.30000000000000004:
        n += 1
    return n
`, "f(0)", []int{4, 8}},
	{`def f(n):
    a = 1
    b = 1.0
    c = True
    r = 0
    if a == b:
        r += 1
    if a == c:
        r += 2
    if c == b:
        r += 4
    if a != c or c + c == 2:
        r += 8
    if (a, c) == (1, 1):
        r += 16
    if [a] == (a,):
        r += 32
    return r
`, "f(0)", []int{6, 10}},
	{`def f(n):
    s = 'a'
    k = 1
    m = None
    r = 0
    try:
        if s < k:
            r = 1
    except TypeError:
        r = 2
    try:
        if m < 1:
            r = 3
    except TypeError:
        r = 4
    try:
        if k in s:
            r = 5
    except TypeError:
        r = 6
    try:
        if [1] < (1,):
            r = 7
    except TypeError:
        r = 8
    try:
        if [1, 'a'] < [1, 2]:
            r = 9
    except TypeError:
        r = 10
    try:
        if k // (k - 1):
            r = 11
    except ZeroDivisionError:
        r = 12
    try:
        if s[5] == 'x':
            r = 13
    except IndexError:
        r = 14
    return r
`, "f(0)", []int{7, 12, 17, 22, 27, 32, 37}},
	{`def len(x):
    return 0

def f(s):
    if len(s) > 2:
        return 1
    return 2
`, "f('abcd')", []int{5}},
	{`def f(n):
    s = 'a\'b"c\\d\n\t\x00\u00e9\U0001f600'
    t = "it's"
    r = 0
    if s[1] == "'":
        r += 1
    if s[3] == '"' and len(s) == 13:
        r += 2
    if t < s:
        r += 4
    if '\n' in s and s[-1] > 'z':
        r += 8
    if t[2] == "'" and t != 'it"s':
        r += 16
    return r
`, "f(0)", nil},
	{`def f(n):
    i = 0
    total = 0
    while i < n and total >= 0:
        total = total + i * 2 - i // 3 % 2
        i += 1
        if i % 3 == 0:
            continue
        elif 0 < i < 4:
            total -= 1
    while not (i <= 0):
        i = i - 2
    return total
`, "f(7)", nil},
	{`def g(x):
    return x > 1

def f(n):
    k = 0
    if n > 0 and g(n):
        k = 1
    if n < 0 or g(n):
        k += 2
    if g(n) and n > 0:
        k += 4
    return k
`, "f(3)", []int{6, 8, 10}},
	{`def f(n):
    xs = list(range(500))
    if xs[-1] == 499:
        return 1
    return 0
`, "f(0)", []int{3}},
	{`def f(n):
    if n > 2:
        y = 1
    if y == 1:
        return y
    return 0
`, "f(3)", nil},
	{`def f(n):
    try:
        if z > 1:
            return 1
    except NameError:
        return 2
    if n is None or n is not None:
        return 3
`, "f(1)", []int{3}},
	{`G = 5

def f(n):
    r = 0
    for i in range(n):
        if i == 2:
            if G > i:
                r += 1
        elif i > 3:
            r -= 1
    while r:
        r = r - 1
    return r
`, "f(6)", []int{7}},
	{`class E:
    def __eq__(self, o):
        return True
    def __repr__(self):
        return '1'

def f(n):
    e = E()
    if e == 2:
        return 1
    return 0
`, "f(0)", []int{9}},
	{`import math

def f(n):
    x = math.floor(n)
    if x == 1:
        return 1
    return 0
`, "f(1.5)", []int{5}},
	{`def f(n):
    k = -9223372036854775808
    j = 9223372036854775807
    if k - 1 < 0 and j + 1 > 0 and k * -1 > 0:
        return 1
    if -k > 0:
        return 2
    return 0
`, "f(0)", []int{4, 6}},
}

// TestBranchFactsSound replays every step of the branch programs through the facts:
// nothing real is rejected, and the rule stays off where the test is not knowable.
func TestBranchFactsSound(t *testing.T) {
	ruled := 0
	for k, p := range branchPrograms {
		rec, prog := recordFacts(t, fmt.Sprintf("branch program %d", k), p.src, p.entry)
		fwd := rec.Forward
		lines := map[int]bool{}
		for i := range fwd.Nodes {
			for _, kind := range []grammar.ActionKind{grammar.StepInto, grammar.StepOver} {
				a := grammar.Action{Kind: kind}
				prev := fwd.Nodes[i].State()
				if prog.Targets(&prev, a).BranchRule() {
					ruled++
					lines[prev.Loc.Line] = true
					if prev.Event == grammar.EventLine && slices.Contains(p.noRule, prev.Loc.Line) {
						t.Errorf("program %d: the rule chose the branch at line %d (%v)", k, prev.Loc.Line, prev.Locals)
					}
				}
				j, exit, err := fwd.Do(i, a)
				if err != nil {
					t.Fatal(err)
				}
				if msg := acceptTransition(prog, rec.Context, fwd, i, j, exit, a); msg != "" {
					t.Errorf("program %d: node %d (%s %d) %s -> %s", k, i, fwd.Nodes[i].Event, fwd.Nodes[i].Loc.Line, kind, msg)
				}
			}
		}
		t.Logf("program %d: the rule chose at lines %v", k, slices.Sorted(maps.Keys(lines)))
	}
	t.Logf("%d step_into/step_over transitions under the branch rule", ruled)
	if ruled < 20 {
		t.Errorf("the branch rule chose only %d times", ruled)
	}
}

// TestBranchFactsForce checks that the rule fires: after an if or while line whose
// test is known, the line of the other branch is rejected, though the line facts
// alone allow it.
func TestBranchFactsForce(t *testing.T) {
	src := `def f(xs, t):
    i = 0
    found = -1
    while i < len(xs):
        if xs[i] == t and found < 0:
            found = i
        else:
            found = found
        i = i + 1
    if found >= 0:
        return found
    return None
`
	rec, prog := recordFacts(t, "force", src, "f([3, 'a', 5, 5], 5)")
	code := -1
	for c, cf := range prog.Facts().Codes {
		if cf.Name == "f" {
			code = c
		}
	}
	// The other branch of each test line, by what the line facts allow.
	other := map[int][2]int{4: {5, 10}, 5: {6, 8}, 10: {11, 12}}
	fwd := rec.Forward
	checked := map[int]int{}
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		br, ok := other[prev.Loc.Line]
		if prev.Event != grammar.EventLine || !ok {
			continue
		}
		for _, l := range br {
			if !slices.Contains(prog.Facts().Codes[code].AfterLine[prev.Loc.Line].Next, l) {
				t.Fatalf("line %d: the line facts do not allow %d", prev.Loc.Line, l)
			}
		}
		for _, kind := range []grammar.ActionKind{grammar.StepInto, grammar.StepOver} {
			a := grammar.Action{Kind: kind}
			j, exit, err := fwd.Do(i, a)
			if err != nil || exit {
				t.Fatalf("node %d: %v %v", i, err, exit)
			}
			next := fwd.Nodes[j].State()
			tg := prog.Targets(&prev, a)
			if !tg.BranchRule() {
				t.Fatalf("node %d (line %d, %v): no branch rule", i, prev.Loc.Line, prev.Locals)
			}
			wrong := br[0]
			if next.Loc.Line == br[0] {
				wrong = br[1]
			}
			if next.Event != grammar.EventLine || !tg.Has(grammar.EventLine, next.Loc.Line) {
				t.Fatalf("node %d: the truth %v is not allowed", i, next)
			}
			if tg.Has(grammar.EventLine, wrong) {
				t.Errorf("node %d (line %d, %v): line %d allowed (the truth is %d)", i, prev.Loc.Line, prev.Locals, wrong, next.Loc.Line)
			}
			// The automaton rejects the truth moved to the other line.
			bad := next
			bad.Loc.Line = wrong
			if text := stateText(t, rec.Context, fwd.Dir, prev, a, bad); accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
				t.Errorf("node %d: %q accepted", i, text)
			}
			if msg := acceptTransition(prog, rec.Context, fwd, i, j, exit, a); msg != "" {
				t.Errorf("node %d: %s", i, msg)
			}
			checked[prev.Loc.Line]++
		}
	}
	for l := range other {
		if checked[l] == 0 {
			t.Errorf("line %d: never checked", l)
		}
	}
}

// TestForEntryForce checks the loop rule's line (grammar/fors.go, forEntry): at a
// `for` header whose variable is unbound and whose iterable has a first element, a
// step goes into the body, never to the loop's exit; on later passes, and over an
// empty iterable, both stay allowed.
func TestForEntryForce(t *testing.T) {
	src := "def f(s, t):\n    n = 0\n    for c in s:\n        if c == t:\n            n += 1\n    for c in t[:0]:\n        n -= 1\n    return n\n"
	rec, prog := recordFacts(t, "for entry", src, "f('berry', 'r')")
	fwd := rec.Forward
	entered, later, empty := 0, 0, 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || prev.Loc.Line != 3 && prev.Loc.Line != 6 {
			continue
		}
		_, bound := prev.Locals.Get("c")
		for _, kind := range []grammar.ActionKind{grammar.StepInto, grammar.StepOver} {
			a := grammar.Action{Kind: kind}
			j, exit, err := fwd.Do(i, a)
			if err != nil || exit {
				t.Fatalf("node %d: %v %v", i, err, exit)
			}
			if msg := acceptTransition(prog, rec.Context, fwd, i, j, exit, a); msg != "" {
				t.Errorf("node %d: %s", i, msg)
			}
			tg := prog.Targets(&prev, a)
			switch {
			case prev.Loc.Line == 6:
				empty++
				if !tg.Has(grammar.EventLine, 8) {
					t.Errorf("node %d: the exit of the empty loop is refused", i)
				}
			case !bound:
				entered++
				if tg.Has(grammar.EventLine, 6) || !tg.Has(grammar.EventLine, 4) {
					t.Errorf("node %d: the loop's start allows the exit (6: %v) or not the body (4: %v)", i, tg.Has(grammar.EventLine, 6), tg.Has(grammar.EventLine, 4))
				}
			default:
				later++
				if !tg.Has(grammar.EventLine, 6) || !tg.Has(grammar.EventLine, 4) {
					t.Errorf("node %d: a later pass does not allow both the body and the exit", i)
				}
			}
		}
	}
	if entered == 0 || later == 0 || empty == 0 {
		t.Fatalf("checked %d starts, %d later passes, %d empty loops", entered, later, empty)
	}
}
