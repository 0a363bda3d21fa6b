package synth

import (
	"strings"
	"testing"
)

func TestNormalizeEquivalentLayouts(t *testing.T) {
	base := "def f(text, n):\n    out = text[:n] + 'x'\n    return out\n"
	same := []string{
		base,
		"def f(text,n):\n  out=text[ : n]+\"x\"   # slice\n\n  return out",
		"# header\n\ndef f( text , n ) :\r\n\tout = text[:n] + 'x'\r\n\treturn out\r\n\r\n",
		"def f(text, n):\n    out = text[\n        :n] + 'x'\n    return out\n",
		"def f(text, n):\n    out = text[:n] \\\n        + 'x'\n    return out\n",
	}
	want := Normalize(base)
	for _, s := range same {
		if got := Normalize(s); got != want {
			t.Errorf("Normalize(%q) =\n%s\nwant\n%s", s, got, want)
		}
	}
	if want != "def f(text,n):\n    out=text[:n]+'x'\n    return out" {
		t.Errorf("unexpected canonical form:\n%s", want)
	}
}

func TestNormalizeKeepsDifferences(t *testing.T) {
	pairs := [][2]string{
		{"def f(x):\n    return x + 1\n", "def f(x):\n    return x + 2\n"},
		{"def f(s):\n    return s.split(' ')\n", "def f(s):\n    return s.split('  ')\n"},
		{"def f(s):\n    return s + '#x'\n", "def f(s):\n    return s\n"},
		{"def f(x):\n    if x:\n        return 1\n    return 2\n", "def f(x):\n    if x:\n        return 1\n        return 2\n"},
		{"def f(a):\n    return not a\n", "def f(a):\n    return nota\n"},
		{"def f(s):\n    return \"it's\"\n", "def f(s):\n    return 'its'\n"},
	}
	for _, p := range pairs {
		if Normalize(p[0]) == Normalize(p[1]) {
			t.Errorf("Normalize merged distinct sources:\n%s\n---\n%s", p[0], p[1])
		}
	}
}

func TestNormalizeStrings(t *testing.T) {
	cases := map[string]string{
		"x = 'a # not a comment'":       "x='a # not a comment'",
		`x = "a  b"`:                    "x='a  b'",
		`x = "it's"`:                    `x="it's"`,
		`x = r"\d"`:                     `x=r"\d"`,
		`x = f"{y}"  # c`:               `x=f"{y}"`,
		"x = '''a\n\n  b'''\ny = 1":     "x='''a\n\n  b'''\ny=1",
		"return  -x":                    "return-x",
		"a = b if c else d":             "a=b if c else d",
		"x = 'unterminated":             "x='unterminated",
		"f(1,\n  2,\n  # note\n  3)\nz": "f(1,2,3)\nz",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeIndentLevels(t *testing.T) {
	a := "def f(x):\n   if x:\n         return 1\n   return 0\n"
	b := "def f(x):\n    if x:\n        return 1\n    return 0\n"
	if Normalize(a) != Normalize(b) {
		t.Errorf("indent widths should not matter:\n%s\n---\n%s", Normalize(a), Normalize(b))
	}
}

func TestNormalizeIdempotentOnPrograms(t *testing.T) {
	for _, p := range generate(13, 3000, Options{}) {
		n := Normalize(p.Source)
		if Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on:\n%s\n---\n%s\n---\n%s", p.Source, n, Normalize(n))
		}
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add("def f(x):\n    return x + 1\n")
	f.Add("x = '''a\n  b'''  # c\ny = r'\\d' if z else \"q\"\n")
	f.Add("f(1,\n  [2,\n   3]) \\\n + 4\n\tz = 'a")
	f.Fuzz(func(t *testing.T, src string) {
		n := Normalize(src)
		if m := Normalize(n); m != n {
			t.Errorf("not idempotent:\n%q\n%q\n%q", src, n, m)
		}
		r := NormalizeNames(src)
		if m := NormalizeNames(r); m != r {
			t.Errorf("NormalizeNames not idempotent:\n%q\n%q\n%q", src, r, m)
		}
	})
}

func TestNormalizeNames(t *testing.T) {
	a := "def f(text):\n    n = 0\n    for ch in text:\n        if ch.isupper():\n            n += 1\n    return n\n"
	b := "def count_caps(s):\n    total = 0\n    for c in s:  # scan\n        if c.isupper():\n            total += 1\n    return total\n"
	want := "def _0(_1):\n    _2=0\n    for _3 in _1:\n        if _3.isupper():\n            _2+=1\n    return _2"
	if got := NormalizeNames(a); got != want {
		t.Errorf("NormalizeNames = %q, want %q", got, want)
	}
	if NormalizeNames(a) != NormalizeNames(b) {
		t.Errorf("renamed copies differ:\n%s\n---\n%s", NormalizeNames(a), NormalizeNames(b))
	}
	for _, c := range []string{
		strings.Replace(b, "isupper", "islower", 1), // a different method
		strings.Replace(b, "+= 1", "+= 2", 1),       // a different constant
		strings.Replace(b, "return total", "return total, s", 1),
	} {
		if NormalizeNames(c) == NormalizeNames(a) {
			t.Errorf("NormalizeNames merged a different function:\n%s", c)
		}
	}
	if Normalize(a) == Normalize(b) {
		t.Errorf("Normalize must not rename")
	}
	if got := NormalizeNames("x = len(obj.items) + self.n"); got != "_0=len(_1.items)+self.n" {
		t.Errorf("keywords, built-ins and attributes must be kept: %q", got)
	}
}
