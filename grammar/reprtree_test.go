package grammar

import (
	"strings"
	"testing"
)

// shape writes a parsed repr compactly: kind, then items in brackets, keys before "=".
func shape(n *ReprNode) string {
	if n.Kind == ReprLeaf {
		return n.Text
	}
	var b strings.Builder
	b.WriteString(n.Kind.String())
	if n.Type != "" {
		b.WriteString(":" + n.Type)
	}
	b.WriteByte('[')
	for i, it := range n.Items {
		if i > 0 {
			b.WriteString(" | ")
		}
		if it.Key != "" {
			b.WriteString(it.Key + "=")
		}
		b.WriteString(shape(it.Value))
	}
	b.WriteByte(']')
	return b.String()
}

func TestParseRepr(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"3", "3"},
		{"'abc'", "'abc'"},
		{"None", "None"},
		{"[]", "list[]"},
		{"[1, 2, 3]", "list[1 | 2 | 3]"},
		{"[1, [2, [3, 4]], 5]", "list[1 | list[2 | list[3 | 4]] | 5]"},
		{"()", "tuple[]"},
		{"(1,)", "tuple[1]"},
		{"(1, 'a, b')", "tuple[1 | 'a, b']"},
		{"{}", "dict[]"},
		{"{'a': 1, 'b': [2]}", "dict['a'=1 | 'b'=list[2]]"},
		{`{"it's": 'x'}`, `dict["it's"='x']`},
		{"{1, 2}", "set[1 | 2]"},
		{"set()", "set[]"},
		{"frozenset({1})", "set:frozenset[1]"},
		{"frozenset()", "set:frozenset[]"},
		{"Point(x=1, y=[2, 3])", "object:Point[x=1 | y=list[2 | 3]]"},
		{"Account('ada', 30)", "Account('ada', 30)"},
		{"[<Foo object>, <Foo object>]", "list[<Foo object> | <Foo object>]"},
		{"<function rank.<locals>.<lambda>>", "<function rank.<locals>.<lambda>>"},
		{"[b'x', -1.5e3, True]", "list[b'x' | -1.5e3 | True]"},
		{"(Account('ada', 30), 1)", "tuple[Account('ada', 30) | 1]"},
		{"KeyError('c')", "KeyError('c')"},
		{"deque([1, 2])", "deque([1, 2])"},
		{"[1, [...]]", "list[1 | list[...]]"},
		// Not literals: leaves.
		{"[1, 2, 3, 4", "[1, 2, 3, 4"},
		{"[1, 2, 3, ...", "[1, 2, 3, ..."},
		{"'abc' + 1", "'abc' + 1"},
		{"[1 2]", "list[1 2]"}, // a custom repr with a space is one element
		{"(1)", "(1)"},
		{"{1: 2, 3}", "{1: 2, 3}"},
		{"[1,]", "list[1]"},
		{"", ""},
		{"]", "]"},
		{"'unterminated", "'unterminated"},
	} {
		if got := shape(ParseRepr(c.in)); got != c.want {
			t.Errorf("ParseRepr(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseReprTexts(t *testing.T) {
	n := ParseRepr("{'a': [1, 2], 'b': (3,)}")
	if n.Text != "{'a': [1, 2], 'b': (3,)}" || n.Items[0].Value.Text != "[1, 2]" || n.Items[1].Value.Text != "(3,)" {
		t.Errorf("texts: %q %q %q", n.Text, n.Items[0].Value.Text, n.Items[1].Value.Text)
	}
	if !n.Expandable() || ParseRepr("[]").Expandable() || ParseRepr("3").Expandable() {
		t.Error("Expandable")
	}
}

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[1,2 ,  "x"]`, `[1, 2, 'x']`},
		{`{"a":1}`, `{'a': 1}`},
		{`(1 ,)`, `(1,)`},
		{`"it's"`, `"it's"`},
		{`'a\tb'`, `'a\tb'`},
		{`"\x01"`, `'\x01'`},
		{`set()`, `set()`},
		{`frozenset({1,2})`, `frozenset({1, 2})`},
		{`P(x=1,y=2)`, `P(x=1, y=2)`},
	} {
		if got := ParseRepr(c.in).Canonical(); got != c.want {
			t.Errorf("Canonical(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPyStringValue(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`'abc'`, "abc", true},
		{`"a'b"`, "a'b", true},
		{`'a\'b'`, "a'b", true},
		{`'\n\\'`, "\n\\", true},
		{`'\u00e9'`, "é", true},
		{`'\x4'`, "", false},
		{`'\ud800'`, "", false}, // a lone surrogate: unknown, never U+FFFD
		{`'\U0001f600'`, "😀", true},
		{`'a'b'`, "", false},
		{`abc`, "", false},
		{`'`, "", false},
	} {
		got, ok := PyStringValue(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("PyStringValue(%s) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func FuzzParseRepr(f *testing.F) {
	for _, s := range []string{"[1, (2,), {'a': {3}}]", "P(x=[1])", "frozenset({1})", "<a <b>>", "'x\\'y'", "[1, 2, ..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := ParseRepr(s)
		if n == nil {
			t.Fatal("nil node")
		}
		_ = n.Canonical()
	})
}
