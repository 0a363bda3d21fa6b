package grammar

import "testing"

// TestEvalValue checks the values the assignment rule computes, written as Python's
// repr writes them, and that it answers nothing where Python would raise or where the
// repr is not certain.
func TestEvalValue(t *testing.T) {
	env := map[string]string{
		"n": "3", "b": "True", "s": "'ab\\'c'", "xs": "[1, 'x', (2,)]", "d": "{'k': [1, 2], 3: None}",
		"e": "set()", "big": "9223372036854775807", "u": "'é'", "z": "0", "q": `'say "hi"'`,
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
	} {
		got, ok := EvalValue(expr, get)
		if !ok || got != want {
			t.Errorf("%s = %q (%v), want %q", expr, got, ok, want)
		}
	}
	for _, expr := range []string{
		"n // z",  // ZeroDivisionError
		"xs[3]",   // IndexError
		"d['x']",  // KeyError
		"big + 1", // past what the evaluator holds exactly
		"u",       // a str Python may write with escapes
		"s * 2",   // outside the subset
		"m + 1",   // no such local
		"n + '1'", // TypeError
		"n +",     // not an expression
	} {
		if got, ok := EvalValue(expr, get); ok {
			t.Errorf("%s = %q, want no answer", expr, got)
		}
	}
}
