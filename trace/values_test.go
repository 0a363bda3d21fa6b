package trace

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// valuePrograms try to defeat the value facts: aliases changed in place, code run
// by an operator, a map callback, a cell set by an inner function, an except
// variable deleted, a new variable before an old one, a return through finally, a
// re-raise that returns None. TestValueFactsSound replays them like
// TestFactsAreSound.
var valuePrograms = []struct{ src, entry string }{
	// Loops the loop rule must not misread: the variable stored in the body, the
	// iterable rebound in it, a loop entered again by an outer one, a variable bound
	// before the loop, a range over a list the body grows, repeated elements.
	{"def f(k):\n    out = 0\n    for i in range(k):\n        i = i * 3\n        out += i\n    return out\n", "f(4)"},
	{"def f(s):\n    n = ''\n    for c in s:\n        s = s + 'x'\n        n += c\n    return n\n", "f('abc')"},
	{"def f(s, k):\n    n = 0\n    for j in range(k):\n        for c in s:\n            n += 1\n    return n\n", "f('ab', 3)"},
	{"def f(k):\n    i = 7\n    for i in range(2, k):\n        k = k\n    for i in range(i, 0, -2):\n        pass\n    return i\n", "f(5)"},
	{"def f(xs):\n    n = 0\n    for i in range(len(xs)):\n        if i < 3:\n            xs.append(i)\n        n += i\n    return n\n", "f([5, 6])"},
	{"def f(s):\n    n = 0\n    for c in s:\n        n += 1\n    for c in s + 'q':\n        n += 1\n    return n\n", "f('aabba')"},
	{"def f(k):\n    i = k\n    for i in range(0, i):\n        pass\n    return i\n", "f(5)"},
	// Loops that unpack (with iterators): repeated pairs, one variable bound before
	// the loop, a part stored in the body, an element that does not unpack, nested.
	{"def f(s):\n    n = 0\n    for i, c in enumerate(s + s):\n        n += i\n    return n\n", "f('ab')"},
	{"def f(d):\n    k = 'z'\n    t = 0\n    for k, v in d.items():\n        t += v\n    for k, v in d.items():\n        pass\n    return k\n", "f({'a': 1, 'b': 2})"},
	{"def f(s, t):\n    n = ''\n    for a, b in zip(s, t):\n        a = a + b\n        n += a\n    return n\n", "f('aab', 'xxy')"},
	{"def f(ps):\n    n = 0\n    for a, b in ps:\n        n += a\n    return n\n", "f([(1, 2), (1, 2), [3, 4], 'ab'])"},
	{"def f(s):\n    n = 0\n    for i, c in enumerate(s):\n        for j, e in enumerate(s):\n            n += i * j\n    return n\n", "f('aba')"},
	{`def f(n):
    a = [1]
    b = a
    a += [n]
    t = 5
    t += n
    s = 'x'
    s *= 2
    return b
`, "f(3)"},
	{`class V:
    def __init__(self):
        self.v = 0
    def __add__(self, o):
        self.v += 1
        return o
    def __repr__(self):
        return str(self.v)

def f(n):
    v = V()
    k = 0
    w = v + k
    x = v + k
    return x
`, "f(1)"},
	{`def f(n):
    seen = []
    def cb(x):
        seen.append(x)
        return x * 2
    m = map(cb, range(n))
    total = 0
    for y in m:
        total = total + y
    return total
`, "f(3)"},
	{`def f(n):
    c = 0
    def bump():
        nonlocal c
        c = c + 1
    k = 1
    bump()
    k = 2
    bump()
    return c
`, "f(2)"},
	{`def f(n):
    try:
        r = 1 // n
    except ZeroDivisionError as e:
        r = 0
    if n:
        z = 1
    a = 3
    if not n:
        z = 2
    return r
`, "f(0)"},
	{`def f(n):
    try:
        x = n
        return x
    finally:
        x = None

def g(n):
    try:
        return 1 // n
    finally:
        n = 3

def h(n):
    try:
        g(n)
    except ZeroDivisionError:
        return None
    return 0

def main():
    f(1)
    h(0)
    return h(1)
`, "main()"},
	{`def f(n):
    if n:
        x = 0
    x = 0
    for i in range(n):
        x = 0
        x = 1 if i else 0
    return 7
`, "f(2)"},
	// The inverse rules: a parameter changed in place through another name, by an
	// in-place operator, rebound late, deleted and bound again; a list grown by an
	// alias's += in a loop whose lines all come before each other; a cell parameter
	// set by an inner function; locals first bound by the previous line.
	{`def f(xs, n, s):
    ys = xs
    ys.append(n)
    zs = xs
    zs += [n]
    k = 0
    while k < n:
        ys += [k]
        k += 1
        if k == 2:
            s = s + 'a'
    del k
    k = 5
    n = 0
    return xs
`, "f([1], 3, 'q')"},
	{`def f(a, b):
    c = a
    for i in range(3):
        c = c + [i]
        d = c
        d += [b]
        e = len(d)
    return a
`, "f([0], 9)"},
	{`def f(m, n):
    def set_m(v):
        nonlocal m
        m = v
    set_m(n)
    x = m
    set_m(x + 1)
    return m
`, "f(1, 2)"},
	{`def f(n, t):
    r = []
    q = r
    for i in range(n):
        try:
            if i == 1:
                raise ValueError(i)
            q.append(i)
        except ValueError as e:
            r.append(str(e))
            del q
            q = r
    t.append(len(r))
    return r
`, "f(3, [])"},
	{`def g(v):
    v.append(1)
    return v

def f(p, q):
    w = p
    g(w)
    u = q
    return p
`, "f([], 2)"},
	{`def f(a, b, c):
    x = a
    y = x
    z = y
    w = z
    return w
`, "f(1, [2], {'k': 3})"},
	// Binding: names bound on some paths only, in a handler, by a loop that may not
	// run, deleted and bound again, bound after a break.
	{`def f(n, xs):
    if n > 1:
        a = 1
    for x in xs:
        if x == n:
            b = x
            break
        c = x
    else:
        b = -1
    try:
        d = 10 // (n - 2)
    except ZeroDivisionError as e:
        d = 0
        g = str(e)
    del a
    a = d
    while n > 0:
        n = n - 1
        h = n
    return a
`, "f(2, [1, 2, 3])"},
	{`def f(n, xs):
    if n > 1:
        a = 1
    for x in xs:
        c = x
    try:
        d = 10 // (n - 2)
    except ZeroDivisionError as e:
        d = 0
    while n > 0:
        n = n - 1
        h = n
    return n
`, "f(1, [])"},
	{`def f(s):
    k = 0
    k = k + len(s)
    m = [k]
    q = m
    q += [1]
    m = k * 2
    return m
`, "f('ab')"},
	// The step_return rule (retOnReturn): a loop reassigns the returned name after P;
	// an alias changes a returned list; a nonlocal and a global are returned; a
	// recursive frame returns its own parameter; try/finally and a re-raise.
	{`def f(n):
    x = 0
    k = 'a'
    for i in range(n):
        x = x + i
        k = k
    y = k
    return x

def g(n):
    a = [1]
    b = a
    z = 0
    b.append(n)
    w = (a, z)
    return a

def h(n):
    a = [n]
    c = 'x'
    a.append(1)
    return a, c

def main():
    f(3)
    g(2)
    return h(1)
`, "main()"},
	{`G = 1

def bump():
    global G
    G = G + 1

def f(n):
    c = n
    x = G
    def inc():
        nonlocal c
        c = c + 1
    inc()
    bump()
    return c

def k(n):
    x = G
    bump()
    return G

def main():
    return f(1) + k(2)
`, "main()"},
	{`def g(n, acc):
    if n > 0:
        g(n - 1, acc + 1)
    return acc

def r(n):
    v = n
    if n > 0:
        v = r(n - 1) + 1
    return v

def main():
    return g(3, 10) + r(3)
`, "main()"},
	{`def f(n):
    x = n
    try:
        return x
    finally:
        x = 0

def g(n):
    x = n
    try:
        y = 1 // n
    finally:
        x = -1
    return x

def h(n):
    x = n
    try:
        y = 1 // n
    except ZeroDivisionError:
        raise
    return x

def t(n):
    x = n
    s = 'q'
    try:
        y = 1 // n
    except ZeroDivisionError:
        x = 5
    return x, s

def main():
    f(1)
    g(1)
    t(0)
    t(2)
    try:
        g(0)
    except ZeroDivisionError:
        pass
    try:
        h(0)
    except ZeroDivisionError:
        pass
    return h(2)
`, "main()"},
	{`class Box:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return 'Box(%d)' % self.v

def f(n):
    b = Box(n)
    s = 'x'
    b.v = b.v + 1
    return b

def g(n):
    s = str(n)
    q = 1
    return s, q

def main():
    f(1)
    return g(2)
`, "main()"},
}

// TestValueFactsForce checks what the value facts force on count.py-like code: the
// first line after the call shows only the marker, `n = 0` shows n as 0 with the
// marker, and `return n` returns n's value.
func TestValueFactsForce(t *testing.T) {
	src := `def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n
`
	rec, prog := recordFacts(t, "count", src, "count('berry', 'r')")
	fwd := rec.Forward
	checked := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		a := grammar.Action{Kind: grammar.StepOver}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			continue
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
		accepts := func(text string) bool { return accepts(prog, rec.Context, fwd.Dir, prev, a, text) }
		if !accepts(text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		var wrong []string
		switch {
		case prev.Event == grammar.EventCall:
			wrong = []string{
				strings.Replace(text, `{"..": ".."}`, `{}`, 1),
				strings.Replace(text, `{"..": ".."}`, `{"s": "'berry'", "..": ".."}`, 1),
				strings.Replace(text, `{"..": ".."}`, `{"n": "0", "..": ".."}`, 1),
			}
		case prev.Event == grammar.EventLine && prev.Loc.Line == 2:
			wrong = []string{
				strings.Replace(text, `{"n": "0", "..": ".."}`, `{"n": "1", "..": ".."}`, 1),
				strings.Replace(text, `{"n": "0", "..": ".."}`, `{"n": "0"}`, 1),
				strings.Replace(text, `{"n": "0", "..": ".."}`, `{"n": "0", "t": "'r'", "..": ".."}`, 1),
				strings.Replace(text, `{"n": "0", "..": ".."}`, `{"c": "'b'", "..": ".."}`, 1),
			}
		case prev.Event == grammar.EventLine && prev.Loc.Line == 6:
			wrong = []string{strings.Replace(text, `"2"`, `"3"`, 1), strings.Replace(text, `"2"`, `"None"`, 1)}
		case prev.Event == grammar.EventLine && prev.Loc.Line == 4 && fwd.Nodes[j].Event == grammar.EventLine:
			// c == t changes nothing: only the marker.
			wrong = []string{strings.Replace(text, `{"..": ".."}`, `{"c": "'b'", "..": ".."}`, 1)}
		}
		for _, w := range wrong {
			if w == text {
				t.Fatalf("node %d: %q: no wrong variant made", i, text)
			}
			if accepts(w) {
				t.Errorf("node %d (%s %d): %q is accepted (the truth is %q)", i, prev.Event, prev.Loc.Line, w, text)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d wrong states checked", checked)
	}
}

// TestReturnFactsForce checks that a step_return forces what a `return NAME` or
// `return a, b` line returns when nothing the frame can still run changes the names:
// the recorded return is accepted and a different value is not.
func TestReturnFactsForce(t *testing.T) {
	src := `def f(s, t):
    m = len(s)
    for c in s:
        if c == t:
            m = m
    return m

def g(a, b):
    q = a * 2
    w = b
    return q, b

def h(a):
    r = [a]
    z = 1
    return r

def main():
    f('berry', 'r')
    g(3, 'y')
    return h(4)
`
	rec, prog := recordFacts(t, "rets", src, "main()")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepReturn}
	forced := map[int]int{} // return line -> line states whose step_return forced it
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			continue
		}
		next := fwd.Nodes[j].State()
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		accepts := func(text string) bool { return accepts(prog, rec.Context, fwd.Dir, prev, a, text) }
		if !accepts(text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		want := map[int]string{6: `"5"`, 11: `"(6, 'y')"`, 16: `"[4]"`}[next.Loc.Line]
		wrong := map[int]string{6: `"4"`, 11: `"(6, 'y', 1)"`, 16: `"[4, 1]"`}[next.Loc.Line]
		if next.Event != grammar.EventReturn || want == "" {
			continue
		}
		// From the lines after the last store of the names (m is stored in the loop).
		if next.Loc.Line == 6 && prev.Loc.Line < 6 || next.Loc.Line == 11 && prev.Loc.Line < 10 || next.Loc.Line == 16 && prev.Loc.Line < 15 {
			continue
		}
		if !strings.Contains(text, want) {
			t.Fatalf("node %d: %q does not return %s", i, text, want)
		}
		if w := strings.Replace(text, want, wrong, 1); accepts(w) {
			t.Errorf("node %d (line %d): %q is accepted (the truth is %q)", i, prev.Loc.Line, w, text)
		}
		forced[next.Loc.Line]++
	}
	// f: from line 6; g: from lines 10 and 11; h: from lines 15 and 16 (a list, kept
	// because nothing after line 15 can change an object).
	for line, n := range map[int]int{6: 1, 11: 2, 16: 2} {
		if forced[line] != n {
			t.Errorf("return at line %d forced from %d line states, want %d", line, forced[line], n)
		}
	}
}

// replaySteps replays every step (step_into, step_over, step_return, and the inverse
// ones) from every node of rec's trees through prog's facts: the state the run
// reaches must be accepted. each, when set, sees every step replayed.
func replaySteps(t *testing.T, name string, rec *Recording, prog *grammar.Program, each func(prev grammar.State, a grammar.Action)) {
	t.Helper()
	fwd := rec.Forward
	inv := fwd.Inverse()
	for _, tr := range []*Tree{fwd, inv} {
		kinds := []grammar.ActionKind{grammar.StepInto, grammar.StepOver, grammar.StepReturn}
		if tr == inv {
			kinds = []grammar.ActionKind{grammar.InvStepInto, grammar.InvStepOver, grammar.InvStepCall}
		}
		for i := range tr.Nodes {
			for _, kind := range kinds {
				a := grammar.Action{Kind: kind}
				j, exit, err := tr.Do(i, a)
				if err == ErrAtStart {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if msg := acceptTransition(prog, rec.Context, tr, i, j, exit, a); msg != "" {
					t.Errorf("%s: node %d (%s %d) %s -> %s", name, i, tr.Nodes[i].Event, tr.Nodes[i].Loc.Line, kind, msg)
				}
				if each != nil {
					each(tr.Nodes[i].State(), a)
				}
			}
		}
	}
}

// TestValueFactsSound replays every step of the value programs through the facts.
func TestValueFactsSound(t *testing.T) {
	ruled := 0
	for k, p := range valuePrograms {
		name := fmt.Sprintf("program %d", k)
		rec, prog := recordFacts(t, name, p.src, p.entry)
		replaySteps(t, name, rec, prog, func(prev grammar.State, a grammar.Action) {
			if a.Kind == grammar.StepReturn && prog.Targets(&prev, a).ReturnRule() {
				ruled++
			}
		})
	}
	t.Logf("step_returns under the return rule: %d", ruled)
	if ruled == 0 {
		t.Errorf("the step_return rule never applied")
	}
}

// TestReturnFactsForceFromCall checks the step_return rule from a call state (the
// CruxEval output task's start): a `return NAME` of a parameter that no instruction
// of the function stores returns the value it was called with, an immutable one or
// any one in a pure function; a list the function may change is left free.
func TestReturnFactsForceFromCall(t *testing.T) {
	src := `def f(s, n):
    k = n * 2
    return s

def h(xs, k):
    t = 0
    for x in xs:
        t = t + x * k
    return xs

def g(xs):
    xs.append(1)
    return xs

def main():
    f('abc', 3)
    h([1, 2], 3)
    return g([5])
`
	rec, prog := recordFacts(t, "rets", src, "main()")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepReturn}
	forced := map[int]bool{}
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventCall || prev.Loc.Line == 15 {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: step_return: %v (exit %v)", i, err, exit)
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		forced[prev.Loc.Line] = prog.Targets(&prev, a).ReturnRule()
		want := map[int]string{1: `"'abc'"`, 5: `"[1, 2]"`}[prev.Loc.Line]
		if want == "" {
			continue
		}
		if wrong := strings.Replace(text, want, `"'abd'"`, 1); accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("from the call at line %d: %q is accepted (the truth is %q)", prev.Loc.Line, wrong, text)
		}
	}
	if want := map[int]bool{1: true, 5: true, 11: false}; !maps.Equal(forced, want) {
		t.Errorf("return rule from the call state by function line: %v, want %v", forced, want)
	}
}

// TestAssignFactsForce checks the assignment rule: a step over a line that is one
// assignment writes the value it stores (`n += 1`, `k = n * 2 + len(s)`), and no other,
// and cannot leave the changed variable out.
func TestAssignFactsForce(t *testing.T) {
	src := `def f(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    k = n * 2 + len(s)
    return k
`
	rec, prog := recordFacts(t, "assign", src, "f('berry', 'r')")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	checked := map[int]int{}
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || (prev.Loc.Line != 5 && prev.Loc.Line != 6) {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		next := fwd.Nodes[j].State()
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		if !prog.Targets(&prev, a).AssignRule() {
			t.Errorf("node %d (line %d): no assignment rule", i, prev.Loc.Line)
		}
		name := map[int]string{5: "n", 6: "k"}[prev.Loc.Line]
		v, _ := next.Locals.Get(name)
		right := `"` + name + `": "` + v + `"`
		wrong := strings.Replace(text, right, `"`+name+`": "`+v+`0"`, 1)
		if wrong == text {
			t.Fatalf("node %d: %q lacks %s", i, text, right)
		}
		if accepts(prog, rec.Context, fwd.Dir, prev, a, wrong) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, wrong, text)
		}
		// Nor can the state leave out the variable the line changed.
		if left := strings.Replace(text, right+", ", "", 1); left == text {
			t.Errorf("node %d: %q: no variant without %s made", i, text, name)
		} else if accepts(prog, rec.Context, fwd.Dir, prev, a, left) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, left, text)
		}
		checked[prev.Loc.Line]++
	}
	if checked[5] != 2 || checked[6] != 1 {
		t.Errorf("checked steps by line: %v, want 2 at line 5 and 1 at line 6", checked)
	}
}

// TestForFactsForce checks the loop rule: the step from a `for` header whose
// variable is unbound enters the body with the first element (of a str, and of a
// range), and no other; a later pass has the next element (or the first, or the
// value kept) and no other.
func TestForFactsForce(t *testing.T) {
	src := `def f(s, k):
    n = 0
    for c in s:
        n += 1
    for i in range(k, 0, -1):
        n += i
    return n
`
	rec, prog := recordFacts(t, "for", src, "f('berry', 2)")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	want := map[int]string{3: `"c": "'b'"`, 5: `"i": "2"`}
	wrong := map[int]string{3: `"c": "'e'"`, 5: `"i": "1"`}
	forced, later := map[int]int{}, map[int]int{}
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || want[prev.Loc.Line] == "" {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		name := map[int]string{3: "c", 5: "i"}[prev.Loc.Line]
		if cur, bound := prev.Locals.Get(name); bound {
			// A later pass: the next element, the first or the value kept; never another.
			v, shown := fwd.Nodes[j].State().Locals.Get(name)
			if !strings.Contains(text, `"`+name+`": "`+v+`"`) {
				if shown && v != cur {
					t.Fatalf("node %d: %q lacks %s's new value %s", i, text, name, v)
				}
				continue // left out of the diff form: unchanged
			}
			w := strings.Replace(text, `"`+name+`": "`+v+`"`, `"`+name+`": "`+map[int]string{3: "'x'", 5: "7"}[prev.Loc.Line]+`"`, 1)
			if accepts(prog, rec.Context, fwd.Dir, prev, a, w) {
				t.Errorf("node %d: %q is accepted (the truth is %q)", i, w, text)
			}
			later[prev.Loc.Line]++
			continue
		}
		if !strings.Contains(text, want[prev.Loc.Line]) {
			t.Fatalf("node %d: %q lacks %s", i, text, want[prev.Loc.Line])
		}
		if w := strings.Replace(text, want[prev.Loc.Line], wrong[prev.Loc.Line], 1); accepts(prog, rec.Context, fwd.Dir, prev, a, w) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, w, text)
		}
		// Nor can the loop's first state leave the variable out.
		if w := strings.Replace(text, want[prev.Loc.Line]+", ", "", 1); w == text {
			t.Errorf("node %d: %q: no variant without %s", i, text, name)
		} else if accepts(prog, rec.Context, fwd.Dir, prev, a, w) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, w, text)
		}
		forced[prev.Loc.Line]++
	}
	if forced[3] != 1 || forced[5] != 1 {
		t.Errorf("loop starts checked by line: %v, want one each at lines 3 and 5", forced)
	}
	if later[3] != 3 || later[5] != 1 {
		t.Errorf("later passes checked by line: %v, want 3 at line 3 (r to r shows no change) and 1 at line 5", later)
	}
}

// TestItemFactsForce checks the rules of a line that changes a list or dict in place:
// `d[c] = d.get(c, 0) + 1` and `out.append(c.upper())` leave the values Python gives,
// and a list that holds itself is left to the model.
func TestItemFactsForce(t *testing.T) {
	src := `def f(s):
    d = dict()
    out = []
    for c in s:
        d[c] = d.get(c, 0) + 1
        out.append(c.upper())
    out.append(out)
    return d
`
	rec, prog := recordFacts(t, "items", src, "f('aba')")
	fwd := rec.Forward
	a := grammar.Action{Kind: grammar.StepOver}
	checked := map[int]int{}
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || prev.Loc.Line < 5 || prev.Loc.Line > 7 {
			continue
		}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			t.Fatalf("node %d: %v %v", i, err, exit)
		}
		next := fwd.Nodes[j].State()
		text := stateText(t, rec.Context, fwd.Dir, prev, a, next)
		if !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
			t.Fatalf("node %d: the truth %q is rejected", i, text)
		}
		ruled := prog.Targets(&prev, a).AssignRule()
		if ruled != (prev.Loc.Line != 7) {
			t.Errorf("node %d (line %d): assignment rule %v", i, prev.Loc.Line, ruled)
		}
		if !ruled {
			continue
		}
		name := map[int]string{5: "d", 6: "out"}[prev.Loc.Line]
		v, _ := next.Locals.Get(name)
		right := `"` + name + `": ` + grammar.QuoteJSON(v)
		if !strings.Contains(text, right) {
			t.Fatalf("node %d: %q lacks %s", i, text, right)
		}
		w := strings.Replace(text, right, `"`+name+`": "[]"`, 1)
		if accepts(prog, rec.Context, fwd.Dir, prev, a, w) {
			t.Errorf("node %d: %q is accepted (the truth is %q)", i, w, text)
		}
		checked[prev.Loc.Line]++
	}
	if checked[5] != 3 || checked[6] != 3 {
		t.Errorf("checked steps by line: %v, want 3 each at lines 5 and 6", checked)
	}
}

// TestReturnExprFactsForce checks that a step from a line that is one `return EXPR`
// (EXPR in the evaluator's subset) gives EXPR's value, and no other.
func TestReturnExprFactsForce(t *testing.T) {
	src := `def f(s, n):
    k = n + 1
    return s[:k].upper() + s[k:]
`
	rec, prog := recordFacts(t, "ret", src, "f('abc', 1)")
	fwd := rec.Forward
	checked := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		if prev.Event != grammar.EventLine || prev.Loc.Line != 3 {
			continue
		}
		for _, kind := range []grammar.ActionKind{grammar.StepOver, grammar.StepReturn} {
			a := grammar.Action{Kind: kind}
			j, exit, err := fwd.Do(i, a)
			if err != nil || exit {
				t.Fatalf("node %d: %v %v", i, err, exit)
			}
			text := stateText(t, rec.Context, fwd.Dir, prev, a, fwd.Nodes[j].State())
			if !strings.Contains(text, `"'ABc'"`) || !accepts(prog, rec.Context, fwd.Dir, prev, a, text) {
				t.Fatalf("node %d %s: the truth %q is rejected or not 'ABc'", i, kind, text)
			}
			if w := strings.Replace(text, `"'ABc'"`, `"'AB'"`, 1); accepts(prog, rec.Context, fwd.Dir, prev, a, w) {
				t.Errorf("node %d %s: %q is accepted (the truth is %q)", i, kind, w, text)
			}
			checked++
		}
	}
	if checked != 2 {
		t.Errorf("%d steps checked, want step_over and step_return from line 3", checked)
	}
}
