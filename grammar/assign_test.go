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
	want := pythonEvals(t, exprs)
	env := func(n string) (string, bool) { v, ok := branchEnv[n]; return v, ok }
	answered, methods := 0, 0
	for k, e := range exprs {
		got, ok := EvalValue(e, env)
		if !ok {
			continue
		}
		answered++
		if k%2 == 1 { // randomMethodExpr's
			methods++
		}
		if want[k] == nil {
			t.Errorf("%s = %s, but Python raises", e, got)
		} else if got != want[k].Repr {
			t.Errorf("%s = %s, Python %s", e, got, want[k].Repr)
		}
	}
	t.Logf("%d expressions: %d answered, %d of them with a method call", len(exprs), answered, methods)
	if answered < len(exprs)/5 {
		t.Errorf("only %d of %d answered", answered, len(exprs))
	}
}

// randomMethodExpr builds a method call on a str, list, tuple or dict value of the
// branch tests' frame, with str arguments.
func randomMethodExpr(r *rand.Rand) string {
	recv := []string{"s", "e", "q", "u", "l", "p", "d", "ed", "' a b '", "'A1'", "'12'", "'a,b,,c'", "'Ab'", "'\\x1c x'", "('a', 'b')", "['x', 'y', 'x']", "{'k': 1}"}
	args := []string{"'a'", "''", "','", "' '", "'b'", "s", "q", "u", "'k'", "1", "None", "('a', 'b')", "['x', 'y']"}
	name := []string{"copy", "upper", "lower", "isdigit", "isalpha", "isalnum", "isupper", "islower", "isspace",
		"strip", "lstrip", "rstrip", "split", "startswith", "endswith", "count", "find", "index", "join", "get", "replace"}[r.IntN(21)]
	e := recv[r.IntN(len(recv))] + "." + name + "("
	for k := range r.IntN(3) {
		if k > 0 {
			e += ", "
		}
		e += args[r.IntN(len(args))]
	}
	return e + ")"
}
