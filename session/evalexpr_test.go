package session

import (
	"strings"
	"testing"

	"github.com/ndb-project/ndb/internal/fuzzwatch"
)

func TestEvalExpr(t *testing.T) {
	locals := map[string]string{
		"n":     "3",
		"x":     "2.5",
		"s":     "'berry'",
		"xs":    "[1, 2, [3, 4]]",
		"d":     "{'a': 1, 2: 'two', (1, 2): [5]}",
		"p":     "Point(x=1, y=[2, 3])",
		"st":    "{1, 2}",
		"t":     "(7,)",
		"obj":   "<Foo object>",
		"big":   "[1, 2, 3, ...",
		"empty": "[]",
		"none":  "None",
	}
	env := func(name string) (string, bool) { v, ok := locals[name]; return v, ok }
	for _, c := range []struct{ expr, want string }{
		{"n", "3"},
		{"  n  ", "3"},
		{"-n", "-3"},
		{"--n", "3"},
		{"-x", "-2.5"},
		{"n == 3", "True"},
		{"n == 3.0", "True"},
		{"n != 3", "False"},
		{"1 < n <= 3", "True"},
		{"1 < n < 3", "False"},
		{"x > n", "False"},
		{"s == 'berry'", "True"},
		{`s == "berry"`, "True"},
		{"s < 'c'", "True"},
		{"s[0]", "'b'"},
		{"s[-1]", "'y'"},
		{"len(s)", "5"},
		{"'rr' in s", "True"},
		{"'z' not in s", "True"},
		{"xs[2]", "[3, 4]"},
		{"xs[2][-1]", "4"},
		{"xs[-3]", "1"},
		{"len(xs)", "3"},
		{"4 in xs[2]", "True"},
		{"xs == [1, 2, [3, 4]]", "True"},
		{"xs == [1,2,[3,4]]", "True"},
		{"d['a']", "1"},
		{"d[2]", "'two'"},
		{"d[(1, 2)]", "[5]"},
		{"'a' in d", "True"},
		{"p.x", "1"},
		{"p.y[1]", "3"},
		{"2 in st", "True"},
		{"t[0]", "7"},
		{"t == (7,)", "True"},
		{"(n)", "3"},
		{"none == None", "True"},
		{"not empty", "True"},
		{"empty or n", "3"},
		{"n and s", "'berry'"},
		{"n > 1 and s[0] == 'b'", "True"},
		{"[n, s]", "[3, 'berry']"},
		{"{'k': n}", "{'k': 3}"},
		{"{n}", "{3}"},
		{"True", "True"},
		{"1_000", "1000"},
		{"obj", "<Foo object>"},
		{"big", "[1, 2, 3, ..."},
	} {
		v, err := Eval(c.expr, env)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if v.Text != c.want {
			t.Errorf("%s = %s, want %s", c.expr, v.Text, c.want)
		}
	}
	for _, c := range []struct{ expr, msg string }{
		{"nosuch", "not a local"},
		{"n +", "unsupported character"},
		{"n(", "unexpected"},
		{"xs[5]", "out of range"},
		{"xs['a']", "integers"},
		{"d['zz']", "not in the dict"},
		{"p.z", "no field"},
		{"obj.x", "no field"},
		{"big[0]", "truncated"},
		{"len(big)", "truncated"},
		{"len(n)", "not known"},
		{"xs < 3", "compares numbers and strings only"},
		{"s < 3", "cannot compare"},
		{"'unterminated", "unterminated"},
		{"", "ends too early"},
		{"n n", "unexpected"},
		{"__import__('os').system('x')", "not a local"},
		{strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200), "nested too deeply"},
		{strings.Repeat("-", 200) + "1", "nested too deeply"},
	} {
		if v, err := Eval(c.expr, env); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: got %v, %v; want an error saying %q", c.expr, v, err, c.msg)
		}
	}
}

func TestExprPath(t *testing.T) {
	for in, want := range map[string]string{"xs": "xs", "d['a'][0]": "d['a'][0]", "p.y": "p.y", "a and b": "(a and b)", "-n": "(-n)", "'x' +": ""} {
		if got := ExprPath(in); got != want {
			t.Errorf("ExprPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// The text of a literal built by the evaluator is its canonical repr, exactly as
// grammar writes it.
func TestLiteralTextIsCanonical(t *testing.T) {
	env := func(name string) (string, bool) {
		return map[string]string{"xs": "[1, 2, [3, 4]]", "d": "{'a': 1, \"b\": (2,)}"}[name], name == "xs" || name == "d"
	}
	for _, expr := range []string{
		"[1, 'a', \"b\", (2,), (), {}, {1}, {'k': [xs, d]}]",
		"{(1, 2): {'x': {3: 4}}, \"y\": d['b']}",
		"({1: 2}: 3)", "((1,),)", "[xs[2], d]",
		strings.Repeat("{", 20) + "1: 2" + strings.Repeat("}: 1", 19) + "}",
	} {
		v, err := Eval(expr, env)
		if err != nil {
			if strings.HasPrefix(expr, "({") {
				continue // not an expression
			}
			t.Fatalf("%q: %v", expr, err)
		}
		if v.Text != v.Canonical() {
			t.Errorf("%q: text %q, canonical %q", expr, v.Text, v.Canonical())
		}
	}
}

func FuzzEvalExpr(f *testing.F) {
	for _, s := range []string{"xs[2][-1] == 4", "d['a'] in [1, 2]", "not p.y or len(s) > 3", "{1: [2, (3,)]}", "-(-1.5e3)",
		// Super-linear once (dict keys re-parsed at every level; fuzzwatch found it).
		strings.Repeat("{", 60) + "1: 2" + strings.Repeat("}: 1", 59) + "}",
	} {
		f.Add(s)
	}
	env := func(name string) (string, bool) {
		return map[string]string{"xs": "[1, 2, [3, 4]]", "d": "{'a': 1}", "p": "P(y=[])", "s": "'ab'"}[name], name != ""
	}
	f.Fuzz(func(t *testing.T, expr string) {
		defer fuzzwatch.Watch(func() string { return expr })()
		_, _ = Eval(expr, env)
	})
}
