package trace

import (
	"slices"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// breakpointPrograms try to defeat the rules of a function with a single frame: the
// breakpoint rule (values_breakpoint.go), where another frame of the function, or of
// another code object, could stop at the breakpoint first, and the parameters it only
// reads (values.go, untouched), where another name could reach the object or an
// element could change. entryCode says whether the facts may still name the entry's
// function as having a single frame.
var breakpointPrograms = []struct {
	name, src, entry string
	entryCode        bool
}{
	{"single frame", "def f(s, xs):\n    n = 0\n    for c in s:\n        if c in xs:\n            n += 1\n    xs.append(n)\n    return s.upper() + str(n)\n", "f('abca', ['a'])", true},
	{"keyword literals", "def f(a, b=2):\n    c = a + b\n    return c\n", "f(1, b=-3)", true},
	{"two calls in the entry", "def f(n):\n    if n > 1:\n        m = n * 2\n    return n\n", "f(1) + f(2)", false},
	{"an entry argument that calls", "def g(n):\n    return n + 1\n\ndef f(n):\n    k = n\n    return k\n", "f(g(1))", false},
	{"a starred entry argument", "def f(n, m):\n    return n + m\n", "f(*[1, 2])", false},
	{"recursion", "def f(n):\n    if n > 0:\n        return f(n - 1)\n    k = n\n    return k\n", "f(3)", false},
	{"a call at module level", "def f(n):\n    k = n * 2\n    return k\n\nx = f(5)\n", "f(1)", false},
	{"a callback", "def f(n):\n    k = n * 2\n    return k\n\ndef g(xs):\n    return sorted(xs, key=f)\n", "f(1)", false},
	{"a call by another function", "def f(n):\n    if n > 2:\n        k = n\n    return n\n\ndef g(n):\n    return f(n + 5)\n", "f(1)", false},
	{"rebound", "def f(n):\n    return n\n\nf = lambda n: n + 1\n", "f(1)", false},
	{"rebound in a function", "def f(n):\n    g()\n    return n\n\ndef g():\n    global f\n    f = abs\n", "f(1)", false},
	{"decorated", "def d(fn):\n    return fn\n\n@d\ndef f(n):\n    k = n\n    return k\n", "f(1)", false},
	{"a method of the same name", "def f(n):\n    k = n\n    return k\n\nclass A:\n    def f(self):\n        return 1\n", "f(1)", false},
	{"a generator", "def f(n):\n    for i in range(n):\n        yield i\n", "f(2)", false},
	{"a lambda on a line", "def f(s):\n    k = s\n    key = lambda v: -v\n    return sorted(k, key=key)\n", "f([3, 1, 2])", true},
	{"a comprehension on a line", "def f(s):\n    t = [c * 2 for c in s]\n    return t\n", "f('ab')", true},
	{"a caught exception", "def f(xs):\n    out = []\n    for x in xs:\n        try:\n            out.append(10 // x)\n        except ZeroDivisionError:\n            out.append(0)\n    return out\n", "f([2, 0, 5])", true},
	{"read only", "def f(nums, t):\n    out = []\n    for n in nums:\n        if nums.count(n) > 1 and n != t:\n            out.append(n)\n    return sorted(out) + nums[:1]\n", "f([3, 1, 3], 1)", true},
	{"an alias", "def f(nums):\n    a = nums\n    a.append(len(nums))\n    return nums\n", "f([1, 2])", true},
	{"an alias through or", "def f(nums):\n    a = nums or [0]\n    a.append(1)\n    return nums\n", "f([1, 2])", true},
	{"an alias through max", "def f(nums):\n    a = max(nums, [0])\n    a.append(1)\n    return nums\n", "f([1, 2])", true},
	{"an alias through a default", "def f(d, xs):\n    a = d.get('k', xs)\n    a.append(1)\n    return xs\n", "f({}, [1])", true},
	{"an alias through a conditional", "def f(xs, k):\n    a = xs if k else []\n    a.append(1)\n    return xs\n", "f([1], 1)", true},
	{"a mutating method", "def f(xs):\n    n = len(xs)\n    xs.sort()\n    return n\n", "f([2, 1])", true},
	{"a slice store", "def f(xs):\n    xs[0:1] = [9]\n    return xs\n", "f([2, 1])", true},
	{"a callee", "def g(ys):\n    ys.pop()\n\ndef f(xs):\n    g(xs)\n    return xs\n", "f([2, 1])", true},
	{"a nested element", "def f(xs):\n    for x in xs:\n        x.append(0)\n    return xs\n", "f([[1], [2]])", true},
	{"a closure", "def f(xs):\n    def g():\n        xs.append(1)\n    g()\n    return xs\n", "f([2])", true},
	{"a shadowed builtin", "def len(ys):\n    ys.append(1)\n    return 1\n\ndef f(xs):\n    n = len(xs)\n    return xs\n", "f([2])", true},
	{"a dict read", "def f(d, k):\n    total = 0\n    for key, v in d.items():\n        if key != k:\n            total += d[key]\n    return total\n", "f({'a': 1, 'b': 2}, 'a')", true},
	{"min with a default", "def f(nums, s):\n    lo = min(nums, default=0)\n    hi = max(nums, key=abs)\n    it = iter(nums)\n    q, r = divmod(len(nums), 2)\n    b = s.encode()\n    return lo + hi + next(it) + q + len(b)\n", "f([3, -5, 2], 'ab')", true},
	{"an alias through min's default", "def f(xs, ys):\n    a = min(xs, default=ys)\n    a.append(1)\n    return ys\n", "f([], [1])", true},
	{"a generator expression on the return line", "def f(s, words):\n    n = len(words)\n    return ', '.join(w for w in words if w != s) + str(n)\n", "f('b', ['a', 'b', 'c'])", true},
	{"a comprehension on a loop's line", "def f(xs):\n    out = []\n    for x in xs:\n        out.append(sum([y for y in xs if y > x]))\n    return out\n", "f([3, 1, 2])", true},
	{"a lambda made on the line before its body", "def f(xs):\n    key = (lambda v:\n           -v)\n    k = sorted(xs, key=key)\n    return k\n", "f([3, 1, 2])", true},
	{"nested comprehensions on the return line", "def f(m, t):\n    return [[v * t for v in row] for row in m]\n", "f([[1, 2], [3]], 2)", true},
	{"a nonlocal store", "def f(n, s):\n    def g():\n        nonlocal n\n        n += 1\n    g()\n    k = n\n    return k + len(s)\n", "f(1, 'ab')", true},
	{"a nonlocal delete", "def f(n):\n    def g():\n        nonlocal n\n        del n\n    k = n\n    g()\n    return k\n", "f(1)", true},
	{"a cell a lambda reads", "def f(s, xs):\n    key = lambda v: v != s\n    ys = sorted(xs, key=key)\n    return s + str(len(ys))\n", "f('a', ['a', 'b'])", true},
	{"bound later", "def f(n):\n    k = n * 2\n    if k > 4:\n        m = k + 1\n    else:\n        m = 0\n    return m + k\n", "f(3)", true},
	{"bound on every path", "def f(sentence, values):\n    final = ''\n    for part in sentence.split():\n        final += part[0]\n    return final * len(values)\n", "f('ab cd', [1])", true},
	{"deleted and caught names", "def f(xs):\n    t = 0\n    for x in xs:\n        t += x\n        del x\n    try:\n        k = 1 // t\n    except ZeroDivisionError as e:\n        k = 2\n    if t:\n        m = k\n    return t + k\n", "f([0, 0])", true},
}

// TestBreakpointFactsSound checks which entries give a single frame, and replays a
// breakpoint on every single line, and every step, from every node of each program:
// the state the run reaches is always accepted.
func TestBreakpointFactsSound(t *testing.T) {
	ruled := 0
	for _, p := range breakpointPrograms {
		rec, prog := recordFacts(t, p.name, p.src, p.entry)
		if got := rec.Parsed.Facts.EntryCode != nil; got != p.entryCode {
			t.Errorf("%s: entry code %v, want %v", p.name, got, p.entryCode)
		}
		replaySteps(t, p.name, rec, prog, nil)
		fwd := rec.Forward
		for i := range fwd.Nodes {
			for _, l := range rec.Parsed.Executable {
				a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: l}}}
				j, exit, err := fwd.Do(i, a)
				if err != nil {
					t.Fatal(err)
				}
				prev := fwd.Nodes[i].State()
				if r, _ := prog.Targets(&prev, a).ValueRule(); r {
					ruled++
				}
				if msg := acceptTransition(prog, rec.Context, fwd, i, j, exit, a); msg != "" {
					t.Errorf("%s: node %d (%s %d) breakpoint %d -> %s", p.name, i, prev.Event, prev.Loc.Line, l, msg)
				}
			}
		}
	}
	if ruled == 0 {
		t.Fatal("the breakpoint rule never applied")
	}
	t.Logf("breakpoints under the rule: %d", ruled)
}

// TestBreakpointFactsForce checks what the rule forces: from the entry call (the
// CruxEval breakpoint task's start), a breakpoint on the return line keeps the string
// parameter nothing stores; the list that a method call changes is left free.
func TestBreakpointFactsForce(t *testing.T) {
	p := breakpointPrograms[0]
	text, accepts := breakpointFromCall(t, p.name, p.src, p.entry, 7)
	if !strings.Contains(text, `"xs": "['a', 2]"`) {
		t.Fatalf("%q: the list is not written as changed", text)
	}
	for _, w := range []string{
		strings.Replace(text, `"s": "'abca'"`, `"s": "'abcb'"`, 1),
		strings.Replace(text, `"xs": "['a', 2]"`, `"xs": "['a', 3]"`, 1),
		strings.Replace(text, `"s": "'abca'", `, ``, 1), // the full form without s, still bound
	} {
		if w == text {
			t.Fatalf("%q: no variant made", text)
		}
		if got, want := accepts(w), strings.Contains(w, "3]"); got != want { // (the list is free)
			t.Errorf("%q accepted %v, want %v (the truth is %q)", w, got, want, text)
		}
	}
}

// TestBreakpointFactsForceBesideAGenerator checks the breakpoint rule on a return
// line that makes a generator expression: from the entry call, the function's frame
// stops there before the generator's frame exists, so the string parameter is still
// forced; the facts name the function as the generator's maker at that line.
func TestBreakpointFactsForceBesideAGenerator(t *testing.T) {
	p := breakpointPrograms[len(breakpointPrograms)-10]
	if p.name != "a generator expression on the return line" {
		t.Fatalf("program is %q", p.name)
	}
	rec, _ := recordFacts(t, p.name, p.src, p.entry)
	f := rec.Parsed.Facts
	gen := slices.IndexFunc(f.Codes, func(c grammar.CodeFacts) bool { return c.Name == "<genexpr>" })
	if gen < 0 || f.Codes[gen].Parent != *f.EntryCode || !slices.Equal(f.Codes[gen].MadeLines, []int{3}) {
		t.Fatalf("the generator's facts: %+v (entry code %d)", f.Codes[max(gen, 0)], *f.EntryCode)
	}
	text, accepts := breakpointFromCall(t, p.name, p.src, p.entry, 3)
	wrong := strings.Replace(text, `"s": "'b'"`, `"s": "'c'"`, 1)
	if wrong == text {
		t.Fatalf("%q: no variant made", text)
	}
	if accepts(wrong) {
		t.Errorf("%q is accepted (the truth is %q)", wrong, text)
	}
}

// TestUntouchedFactsForce checks the parameters a single-frame function only reads: a
// list the function never changes nor lets another name reach keeps its value at a
// breakpoint (and before it, at inv_step_call), where one changed through an alias is
// no parameter the facts call unescaped.
func TestUntouchedFactsForce(t *testing.T) {
	unescaped := map[string][]string{"read only": {"nums", "t"}, "an alias": nil, "a callee": nil, "a dict read": {"d", "k"},
		"min with a default": {"nums", "s"}, "an alias through min's default": {"xs"}}
	for _, p := range breakpointPrograms {
		want, ok := unescaped[p.name]
		if !ok {
			continue
		}
		rec, _ := recordFacts(t, p.name, p.src, p.entry)
		f := rec.Parsed.Facts
		if got := f.Codes[*f.EntryCode].Values.Unescaped; !slices.Equal(got, want) {
			t.Errorf("%s: unescaped %v, want %v", p.name, got, want)
		}
	}
	p := breakpointPrograms[17]
	if p.name != "read only" {
		t.Fatalf("program 17 is %q", p.name)
	}
	text, accepts := breakpointFromCall(t, p.name, p.src, p.entry, 6)
	var wrong string
	if strings.Contains(text, `"nums": "[3, 1, 3]"`) {
		wrong = strings.Replace(text, `"nums": "[3, 1, 3]"`, `"nums": "[3, 1]"`, 1)
	} else {
		wrong = strings.Replace(text, `{"`, `{"nums": "[3, 1]", "`, 1)
	}
	if wrong == text {
		t.Fatalf("%q: no variant made", text)
	}
	if accepts(wrong) {
		t.Errorf("%q is accepted (the truth is %q)", wrong, text)
	}
}

// TestBreakpointAtFirstLineForce checks a breakpoint on a function's first line from
// its call (grammar/values_breakpoint.go, breakpointFirst): nothing runs in between,
// so the stop shows the call's locals, every one, even a list in a function called
// twice; a changed value is rejected.
func TestBreakpointAtFirstLineForce(t *testing.T) {
	src := "def f(xs, n):\n    return xs[::-1] * n\n"
	rec, prog := recordFacts(t, "first line", src, "f([1, 2], 2) + f([3], 1)")
	a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: 2}}}
	n := forceValue(t, rec, prog, a, func(_ int, prev grammar.State) (string, bool) {
		return "xs", prev.Event == grammar.EventCall
	}, func(string) string { return "[0]" })
	if n != 2 {
		t.Fatalf("%d of 2 calls checked", n)
	}
}

// TestBreakpointUnboundFactsForce checks the names that no path has bound yet at a
// breakpoint's line (LineValues.Unbound): from the entry call, a stop at the if shows
// n and k, and a state that also shows m, which a later line stores, is rejected.
func TestBreakpointUnboundFactsForce(t *testing.T) {
	p := breakpointPrograms[len(breakpointPrograms)-3]
	if p.name != "bound later" {
		t.Fatalf("program is %q", p.name)
	}
	text, accepts := breakpointFromCall(t, p.name, p.src, p.entry, 3)
	wrong := strings.Replace(text, `}<|src_sep|>`, `, "m": "7"}<|src_sep|>`, 1)
	if wrong == text {
		t.Fatalf("%q: no variant made", text)
	}
	if accepts(wrong) {
		t.Errorf("%q is accepted (the truth is %q)", wrong, text)
	}
}

// TestBreakpointBoundFactsForce checks the names bound on every path to a breakpoint's
// line (LineValues.Bound): from the entry call, a stop in the loop's body shows the
// accumulator and the loop variable; the state without either is rejected, and at
// the return line, after a loop that may not run, the loop variable stays optional.
func TestBreakpointBoundFactsForce(t *testing.T) {
	p := breakpointPrograms[len(breakpointPrograms)-2]
	if p.name != "bound on every path" {
		t.Fatalf("program is %q", p.name)
	}
	rec, prog := recordFacts(t, p.name, p.src, p.entry)
	fwd := rec.Forward
	prev := fwd.Nodes[0].State()
	for _, tc := range []struct {
		line     int
		drop     string
		rejected bool
	}{
		{4, `, "part": "'ab'"`, true},
		{4, `, "final": "''"`, true},
		{5, `, "part": "'cd'"`, false},
	} {
		a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{{Line: tc.line}}}
		j, exit, err := fwd.Do(0, a)
		if err != nil || exit {
			t.Fatalf("breakpoint %d: %v (exit %v)", tc.line, err, exit)
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("line %d: the truth %q is rejected", tc.line, text)
		}
		wrong := strings.Replace(text, tc.drop, "", 1)
		if wrong == text {
			t.Fatalf("line %d: %q has no %q", tc.line, text, tc.drop)
		}
		if got := accepts(prog, rec.Context, fwd.Dir, prev, a, wrong); got == tc.rejected {
			t.Errorf("line %d: %q accepted %v (the truth is %q)", tc.line, wrong, got, text)
		}
	}
}
