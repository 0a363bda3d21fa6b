package trace

import (
	"context"
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
	pool := testPool(t)
	rec, err := pool.Record(context.Background(), "count", src, "count('berry', 'r')", Limits{MaxEvents: 2000})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := grammar.NewProgram(rec.Context, rec.Parsed.Facts)
	if err != nil {
		t.Fatal(err)
	}
	fwd := rec.Forward
	checked := 0
	for i, nd := range fwd.Nodes {
		prev := nd.State()
		a := grammar.Action{Kind: grammar.StepOver}
		j, exit, err := fwd.Do(i, a)
		if err != nil || exit {
			continue
		}
		e := grammar.NewEncoder(rec.Context, fwd.Dir)
		e.Start(prev)
		e.Action(a)
		text, err := e.State(fwd.Nodes[j].State())
		if err != nil {
			t.Fatal(err)
		}
		accepts := func(text string) bool {
			au := grammar.NewAutomaton(rec.Context, fwd.Dir, &prev, a.Kind, prog.Targets(&prev, a), grammar.Limits{})
			return au.FeedText(text) && au.Done()
		}
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

// TestValueFactsSound replays every step of the value programs through the facts.
func TestValueFactsSound(t *testing.T) {
	pool := testPool(t)
	for k, p := range valuePrograms {
		rec, err := pool.Record(context.Background(), "values", p.src, p.entry, Limits{MaxEvents: 2000})
		if err != nil {
			t.Fatalf("program %d: %v", k, err)
		}
		prog, err := grammar.NewProgram(rec.Context, rec.Parsed.Facts)
		if err != nil {
			t.Fatalf("program %d: %v", k, err)
		}
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
						t.Errorf("program %d: node %d (%s %d) %s -> %s", k, i, tr.Nodes[i].Event, tr.Nodes[i].Loc.Line, kind, msg)
					}
				}
			}
		}
	}
}
