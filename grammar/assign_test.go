package grammar

import (
	"math/rand/v2"
	"testing"
)

// TestEvalValue checks the values the assignment rule computes, written as Python's
// repr writes them, and that it answers nothing where Python would raise or where the
// repr is not certain.
func TestEvalValue(t *testing.T) {
	env := map[string]string{
		"n": "3", "b": "True", "s": "'ab\\'c'", "xs": "[1, 'x', (2,)]", "d": "{'k': [1, 2], 3: None}",
		"e": "set()", "big": "9223372036854775807", "u": "'é'", "z": "0", "q": `'say "hi"'`, "em": "[]",
	}
	get := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for expr, want := range map[string]string{
		"n + 1":            "4",
		"n * -2 // 4":      "-2",
		"-7 % n":           "2",
		"b + b":            "2",
		"s + 'd'":          `"ab'cd"`,
		"s[-1]":            "'c'",
		"q":                `'say "hi"'`,
		"xs[2]":            "(2,)",
		"[n, xs[0], s]":    `[3, 1, "ab'c"]`,
		"(n,)":             "(3,)",
		"d['k']":           "[1, 2]",
		"d[3]":             "None",
		"d":                "{'k': [1, 2], 3: None}",
		"e":                "set()",
		"len(xs) + len(s)": "7",
		"n > 2 and s":      `"ab'c"`,
		"not n":            "False",
		"em * big":         "[]",
		"2 * 'ab'":         "'abab'",
		"(n,) * 2":         "(3, 3)",
		"xs[:1] + [n]":     "[1, 3]",
		"-1 * s":           "''",
	} {
		got, ok := EvalValue(expr, get)
		if !ok || got != want {
			t.Errorf("%s = %q (%v), want %q", expr, got, ok, want)
		}
	}
	for _, expr := range []string{
		"n // z",    // ZeroDivisionError
		"xs[3]",     // IndexError
		"d['x']",    // KeyError
		"big + 1",   // past what the evaluator holds exactly
		"u",         // a str Python may write with escapes
		"s / 2",     // outside the subset
		"m + 1",     // no such local
		"n + '1'",   // TypeError
		"n +",       // not an expression
		"s * big",   // past what the evaluator builds
		"xs + (1,)", // TypeError
	} {
		if got, ok := EvalValue(expr, get); ok {
			t.Errorf("%s = %q, want no answer", expr, got)
		}
	}
}

// TestEvalValueMatchesPython evaluates random expressions of the branch subset with
// EvalValue and with CPython: wherever EvalValue answers, Python must give a value
// without raising whose repr is the same; and it must answer for many of them.
func TestEvalValueMatchesPython(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	var exprs []string
	for len(exprs) < 3000 {
		exprs = append(exprs, randomBranchExpr(r, 1+r.IntN(3)), randomMethodExpr(r))
	}
	answered := evalsMatchPython(t, exprs)
	methods := 0
	for k := 1; k < len(exprs); k += 2 { // randomMethodExpr's
		if answered[k] {
			methods++
		}
	}
	n := count(answered)
	t.Logf("%d expressions: %d answered, %d of them with a method call", len(exprs), n, methods)
	if n < len(exprs)/5 {
		t.Errorf("only %d of %d answered", n, len(exprs))
	}
}

// evalsMatchPython evaluates each expression with EvalValue on branchEnv and with
// CPython: wherever EvalValue answers, Python must give the same repr without
// raising. It returns which expressions EvalValue answered.
func evalsMatchPython(t *testing.T, exprs []string) []bool {
	t.Helper()
	want := pythonEvals(t, exprs)
	env := func(n string) (string, bool) { v, ok := branchEnv[n]; return v, ok }
	answered := make([]bool, len(exprs))
	for k, e := range exprs {
		got, ok := EvalValue(e, env)
		if !ok {
			continue
		}
		answered[k] = true
		if want[k] == nil {
			t.Errorf("%s = %s, but Python raises", e, got)
		} else if got != want[k].Repr {
			t.Errorf("%s = %s, Python %s", e, got, want[k].Repr)
		}
	}
	return answered
}

// count is how many of bs are true.
func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// randomMethodExpr builds a method call on a str, list, tuple or dict value of the
// branch tests' frame, with str arguments.
func randomMethodExpr(r *rand.Rand) string {
	recv := []string{"s", "e", "q", "u", "l", "p", "d", "ed", "' a b '", "'A1'", "'12'", "'a,b,,c'", "'Ab'", "'\\x1c x'", "('a', 'b')", "['x', 'y', 'x']", "{'k': 1}"}
	args := []string{"'a'", "''", "','", "' '", "'b'", "s", "q", "u", "'k'", "1", "None", "('a', 'b')", "['x', 'y']"}
	name := []string{"copy", "upper", "lower", "isdigit", "isalpha", "isalnum", "isupper", "islower", "isspace",
		"strip", "lstrip", "rstrip", "split", "startswith", "endswith", "count", "find", "index", "join", "get", "replace",
		"partition", "rpartition", "isascii", "removeprefix", "removesuffix", "ljust", "rjust", "center", "zfill",
		"capitalize", "swapcase", "title"}[r.IntN(33)]
	e := recv[r.IntN(len(recv))] + "." + name + "("
	for k := range r.IntN(3) {
		if k > 0 {
			e += ", "
		}
		e += args[r.IntN(len(args))]
	}
	return e + ")"
}

// TestEvalComps checks comprehensions, generator expressions consumed whole and dict
// displays: their values as Python writes them, and no answer where Python would
// raise, where the order is a hash table's, or where a generator would be kept.
func TestEvalComps(t *testing.T) {
	env := map[string]string{"ns": "[3, -1, 2]", "s": "'ab\\'c'", "d": "{'k': 1, 3: 2}", "e": "set()", "n": "3", "b": "True"}
	get := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for expr, want := range map[string]string{
		"[x * 2 for x in ns if x > 0]":                     "[6, 4]",
		"[c for c in s]":                                   `['a', 'b', "'", 'c']`,
		"{k: len(v) for k, v in [('a', 'xy'), ('b', '')]}": "{'a': 2, 'b': 0}",
		"{n: 1, 'a': b, True: 0}":                          "{3: 1, 'a': True, True: 0}",
		"{1: 'a', True: 'b'}":                              "{1: 'b'}",
		"{}":                                               "{}",
		"sum((x for x in ns))":                             "4",
		"sum(ns) + sum({1: 'a'})":                          "5",
		"sum([])":                                          "0",
		"any((x < 0 for x in ns))":                         "True",
		"all(ns) and not all([0])":                         "True",
		"list(s)":                                          `['a', 'b', "'", 'c']`,
		"tuple(d)":                                         "('k', 3)",
		"''.join((c.upper() for c in s if c != 'b'))":   `"A'C"`,
		"[a for a, in [(1,), (2,)]]":                    "[1, 2]",
		"[(i, j) for i, j in ['ab', 'cd']]":             "[('a', 'b'), ('c', 'd')]",
		"[i * x for i, x in enumerate(ns, 1)]":          "[3, -2, 6]",
		"dict(zip(s, ns))":                              "{'a': 3, 'b': -1, \"'\": 2}",
		"list(reversed(s))":                             `['c', "'", 'b', 'a']`,
		"sum(range(1, 5))":                              "10",
		"[k for k, v in d.items() if v > 1]":            "[3]",
		"sorted(d.values())":                            "[1, 2]",
		"int('-07') + int(b)":                           "-6",
		"str(ns) + str(n)":                              "'[3, -1, 2]3'",
		"s.replace('b', '', 0) + s.replace('', '-', 2)": `"ab'c-a-b'c"`,
		"list(range(n, 0, -1))":                         "[3, 2, 1]",
		"dict()":                                        "{}",
		"divmod(-7, 2) + divmod(n, -2)":                 "(-4, 1, -2, -1)",
		"s.rpartition('b') + 'x'.partition('y')":        `('a', 'b', "'c", 'x', '', '')`,
		"[n for n in ns if n > 2] + [n]":                "[3, 3]",
		"max((x for x in ns)) if b else 0":              "3",
	} {
		got, ok := EvalValue(expr, get)
		if !ok || got != want {
			t.Errorf("%s = %q (%v), want %q", expr, got, ok, want)
		}
	}
	for _, expr := range []string{
		"(x for x in ns)",      // a generator object, kept
		"len((x for x in ns))", // TypeError: len of a generator
		"sum((x for x in ns)) + (y for y in ns)",
		"(x for x in ns)[0]",          // TypeError
		"[x for x in e]",              // a set's order
		"{[1]: 2}",                    // TypeError: unhashable
		"[x for x in ns for y in ns]", // two for clauses: not read
		"[x for x in n]",              // TypeError: not iterable
		"[x for x, y in ns]",          // TypeError: cannot unpack
		"{1, 2}",                      // a set display
		"sum(d)",                      // TypeError: a str key
		"sum(['a'])",                  // TypeError
		"sum(ns, (x for x in ns))",    // not the only argument
		"[x for x in ns if x > 'a']",  // TypeError
		"enumerate(ns)",               // an iterator, kept
		"d.items()",                   // a view, kept
		"d.keys() == ['k', 3]",        // a view compared
		"range(3)[0]",                 // a range indexed
		"len(range(3))",               // not read here
		"reversed(enumerate(ns))",     // TypeError: not reversible
		"int(' 1')",                   // spaces: left to the model
		"dict([1, 2])",                // TypeError: not pairs
		"[for x in ns]",               // not Python
	} {
		if got, ok := EvalValue(expr, get); ok {
			t.Errorf("%s = %q, want no answer", expr, got)
		}
	}
}

// TestEvalCompsMatchPython evaluates random comprehensions, consumed generator
// expressions and dict displays with EvalValue and with CPython: wherever EvalValue
// answers, Python must give the same repr without raising.
func TestEvalCompsMatchPython(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	var exprs []string
	for len(exprs) < 2000 {
		exprs = append(exprs, randomCompExpr(r))
	}
	n := count(evalsMatchPython(t, exprs))
	t.Logf("%d expressions: %d answered", len(exprs), n)
	if n < len(exprs)/5 {
		t.Errorf("only %d of %d answered", n, len(exprs))
	}
}

// randomCompExpr builds a comprehension over a value of branchEnv (or a literal),
// whose element and conditions read its variable, or a dict display.
func randomCompExpr(r *rand.Rand) string {
	iters := []string{"l", "m", "p", "o", "s", "e", "q", "u", "d", "ed", "st", "a", "'a,b'", "[1, 2, 3]", "[(1, 'a'), (2, 'b')]", "['ab', 'c']", "{'x': 1, 'y': 2}", "[[1], [2, 3]]", "[True, 0, -2]",
		"enumerate(s)", "enumerate(l, 1)", "zip(s, l)", "zip(p, o, s)", "reversed(l)", "reversed(d)", "range(3)", "range(a, -3, -2)", "d.items()", "d.keys()", "d.values()", "ed.items()", "range(len(s))", "reversed(zip(s, s))"}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	it := pick(iters)
	target, uses := "i", []string{"i"}
	if r.IntN(4) == 0 {
		target, uses = "i, j", []string{"i", "j"}
	} else if r.IntN(6) == 0 {
		target, uses = "a", []string{"a"} // shadows the frame's a
	}
	part := func() string {
		v := pick(uses)
		switch r.IntN(9) {
		case 0:
			return v
		case 1:
			return v + " * 2"
		case 2:
			return "len(" + v + ")"
		case 3:
			return "(" + v + ", " + randomBranchExpr(r, 1) + ")"
		case 4:
			return v + " + " + randomBranchExpr(r, 0)
		case 5:
			return v + "[0]"
		case 6:
			return pick([]string{"str", "int", "bool"}) + "(" + v + ")"
		case 7:
			return v + ".upper()"
		}
		return randomBranchExpr(r, 1)
	}
	cond := func() string {
		switch r.IntN(4) {
		case 0:
			return ""
		case 1:
			return " if " + pick(uses) + " " + pick([]string{">", "!=", "in", "=="}) + " " + randomBranchExpr(r, 0)
		case 2:
			return " if " + pick(uses)
		}
		return " if not " + part()
	}
	comp := " for " + target + " in " + it + cond()
	switch r.IntN(8) {
	case 0:
		return "[" + part() + comp + "]"
	case 1:
		return "{" + part() + ": " + part() + comp + "}"
	case 2:
		return pick([]string{"sum", "any", "all", "list", "tuple", "sorted", "min", "max"}) + "((" + part() + comp + "))"
	case 3:
		return "''.join((" + part() + comp + "))"
	case 4:
		return "{" + randomBranchExpr(r, 1) + ": " + randomBranchExpr(r, 1) + ", " + randomBranchExpr(r, 0) + ": " + part() + "}"
	case 5:
		return pick([]string{"sum", "any", "all", "list", "tuple", "dict", "sorted", "len", "str"}) + "(" + it + ")"
	case 6:
		return pick([]string{"dict", "list", "str", "int"}) + "(" + pick(iters) + ")"
	}
	return "[" + part() + comp + "] + " + randomBranchExpr(r, 1)
}

// TestMutate checks the values a method that changes a list or dict in place leaves
// (assign_methods.go), as CPython leaves them, and no answer where Python raises.
func TestMutate(t *testing.T) {
	env := map[string]string{"xs": "[3, 1, 2]", "ys": "[1, True, 1]", "em": "[]", "d": "{'k': 1, 'j': 2}", "n": "7", "nest": "[[1]]"}
	get := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cases := []struct {
		name, method string
		args         []string
		want         string // "" for no answer
	}{
		{"xs", "insert", []string{"-9", "n"}, "[7, 3, 1, 2]"},
		{"xs", "insert", []string{"10", "n"}, "[3, 1, 2, 7]"},
		{"xs", "insert", []string{"-1", "n"}, "[3, 1, 7, 2]"},
		{"ys", "remove", []string{"True"}, "[True, 1]"},
		{"xs", "pop", []string{"-1"}, "[3, 1]"},
		{"xs", "pop", nil, "[3, 1]"},
		{"xs", "sort", nil, "[1, 2, 3]"},
		{"xs", "reverse", nil, "[2, 1, 3]"},
		{"xs", "extend", []string{"'ab'"}, "[3, 1, 2, 'a', 'b']"},
		{"xs", "extend", []string{"xs"}, "[3, 1, 2, 3, 1, 2]"},
		{"d", "pop", []string{"'k'"}, "{'j': 2}"},
		{"d", "clear", nil, "{}"},
		{"em", "pop", nil, ""},                      // IndexError
		{"xs", "pop", []string{"3"}, ""},            // IndexError
		{"xs", "remove", []string{"9"}, ""},         // ValueError
		{"d", "pop", []string{"'x'"}, ""},           // KeyError
		{"xs", "extend", []string{"nest"}, ""},      // a list put in
		{"xs", "insert", []string{"0", "nest"}, ""}, // a list put in
		{"ys", "sort", nil, "[1, True, 1]"},
		{"nest", "sort", nil, ""}, // not known to compare
	}
	for _, c := range cases {
		as := AssignFact{Name: c.name, Method: c.method, Args: c.args}
		v, ok := as.value(get)
		got := ""
		if ok {
			got, ok = v.repr()
		}
		if got != c.want {
			t.Errorf("%s.%s(%v) = %q (%v), want %q", c.name, c.method, c.args, got, ok, c.want)
		}
	}
}

// TestEvalStrMethodsMatchPython checks the padding, prefix, case and search methods
// on chosen cases (CPython's center rounding, a sign before zfill's zeros, title
// after non-letters, a start past the end) against CPython, on branchEnv (s is 'ab',
// a is 1, u is not ASCII).
func TestEvalStrMethodsMatchPython(t *testing.T) {
	exprs := []string{
		"'ab'.center(5, '*')", "'abc'.center(6)", "'a'.center(4)", "'ab'.center(7, '-')", "'-42'.zfill(6)", "'+7'.zfill(1)",
		"'x'.ljust(3, '.')", "'x'.rjust(3)", "s.ljust(5)", "'Hello wORLD 1a'.title()", "\"they're\".title()",
		"'aBc'.swapcase()", "'hELLO wOrld'.capitalize()", "'abc'.removeprefix('ab')", "'abc'.removesuffix('bc')",
		"u.isascii()", "s.isascii()", "'x'.ljust(3, 'ab')", "'x'.center(5, '')", "'12'.zfill(-3)", "u.title()",
		"'banana'.find('a', 2)", "'banana'.find('a', -2)", "'banana'.index('n', 3)", "'banana'.rfind('an')",
		"'banana'.count('a', 2)", "'ab'.find('', 5)", "'ab'.find('', 2)", "'ab'.count('', 9)", "'ab'.index('x', 0)",
		"'\\xe9ab'.find('b', a)", "'banana'.rfind('a', -3)", "'ab'.find('a', -9)",
	}
	if n := count(evalsMatchPython(t, exprs)); n < len(exprs)-6 {
		t.Errorf("only %d of %d answered", n, len(exprs))
	}
}
