package grammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// trickyStrings are reprs that stress the canonical JSON form.
var trickyStrings = []string{
	"", "plain", `'it''s'`, `"quoted"`, `back\slash`, `\\n`, "new\nline", "cr\rlf\r\n",
	"tab\there", "\b\f", "\x00\x01\x1f\x7f", " ~", "</script>", "a & b < c > d", "a/b",
	"café", "naïve ß", "日本語", "😀", "a\U0001F600b\U0010FFFF", "\u2028\u2029", "\ufeff",
	"\ufffd", "\u00a0", "{\"..\": \"..\"}", "<|frame_sep|>", `'\x00'`, "\u007f\u0080\u009f",
	"\uffff", "\U00010000",
}

// randomString returns a string mixing ASCII, control characters, escapes, BMP and
// astral characters, and special-token text.
func randomString(r *rand.Rand) string {
	pieces := []string{"'", "\"", "\\", "\n", "\t", "<|src_sep|>", "..", ", ", ": ", "{", "}", "é", "😀", "\u0000", "\u007f", "\ufffd"}
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		switch r.IntN(5) {
		case 0:
			b.WriteString(pieces[r.IntN(len(pieces))])
		case 1:
			b.WriteByte(byte(r.IntN(0x80)))
		case 2:
			c := rune(0x80 + r.IntN(0xd800-0x80))
			b.WriteRune(c)
		case 3:
			b.WriteRune(rune(0x10000 + r.IntN(0x100000)))
		default:
			b.WriteString("abc xyz"[r.IntN(4):])
		}
	}
	return b.String()
}

// TestQuoteJSONMatchesPython checks byte equality with Python's json.dumps on tricky and
// random strings, and on a dict of them (separators).
func TestQuoteJSONMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	r := rand.New(rand.NewPCG(1, 2))
	strs := append([]string(nil), trickyStrings...)
	for range 2000 {
		strs = append(strs, randomString(r))
	}
	in, err := json.Marshal(strs) // valid UTF-8 only, so Go's JSON carries them exactly
	if err != nil {
		t.Fatal(err)
	}
	const script = `import json, sys
strs = json.load(sys.stdin)
for s in strs:
    print(json.dumps(s))
print(json.dumps({s: s for s in strs[:40]}))
print(json.dumps({}))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(strs)+2 {
		t.Fatalf("python printed %d lines, want %d", len(lines), len(strs)+2)
	}
	for i, s := range strs {
		if got := QuoteJSON(s); got != lines[i] {
			t.Errorf("QuoteJSON(%q) = %s, python: %s", s, got, lines[i])
		}
	}
	var l Locals
	seen := map[string]bool{}
	for _, s := range strs[:40] {
		if !seen[s] {
			seen[s] = true
			l = append(l, Var{s, s})
		}
	}
	if got, err := EncodeLocals(l); err != nil || got != lines[len(strs)] {
		t.Errorf("EncodeLocals = %s (%v)\npython:        %s", got, err, lines[len(strs)])
	}
	if got, _ := EncodeLocals(nil); got != lines[len(strs)+1] {
		t.Errorf("EncodeLocals(nil) = %s, python %s", got, lines[len(strs)+1])
	}
}

func TestQuoteJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	strs := append([]string(nil), trickyStrings...)
	for range 5000 {
		strs = append(strs, randomString(r))
	}
	for _, s := range strs {
		q := QuoteJSON(s)
		for i := 0; i < len(q); i++ {
			if q[i] >= 0x80 {
				t.Fatalf("QuoteJSON(%q) = %q is not ASCII", s, q)
			}
		}
		got, err := UnquoteJSON(q)
		if err != nil || got != s {
			t.Fatalf("UnquoteJSON(%s) = %q, %v; want %q", q, got, err, s)
		}
		var std string
		if err := json.Unmarshal([]byte(q), &std); err != nil || std != s {
			t.Fatalf("encoding/json reads %s as %q, %v", q, std, err)
		}
	}
}

func TestQuoteJSONInvalidUTF8(t *testing.T) {
	s := "a\xffb\xe2\x82"
	q := QuoteJSON(s)
	if q != `"a\ufffdb\ufffd\ufffd"` {
		t.Fatalf("QuoteJSON(%q) = %s", s, q)
	}
	got, err := UnquoteJSON(q)
	if err != nil || got != "a\ufffdb\ufffd\ufffd" || !utf8.ValidString(got) {
		t.Fatalf("UnquoteJSON = %q, %v", got, err)
	}
}

// TestUnquoteJSONRejectsNonCanonical checks that every other spelling of a string is
// refused, with the offset of the problem and the canonical form expected.
func TestUnquoteJSONRejectsNonCanonical(t *testing.T) {
	cases := []struct {
		in       string
		off      int
		expected string
	}{
		{`"\/"`, 1, `one of`},
		{`"\u0041"`, 1, `"A"`},
		{`"\u000a"`, 1, `"\\n"`},
		{`"\u0022"`, 1, `"\\\""`},
		{`"\u00E9"`, 5, `lower-case hex`},
		{"\"é\"", 1, `"\\u00e9"`},
		{"\"\x01\"", 1, `"\\u0001"`},
		{"\"\x7f\"", 1, `"\\u007f"`},
		{"\"\t\"", 1, `"\\t"`},
		{`"\ud83d"`, 7, `low half`},
		{`"\ud83d\u0041"`, 7, `low surrogate`},
		{`"\ude00"`, 1, `high one`},
		{`"abc`, 4, `end of the JSON string`},
		{`"\`, 2, `escape`},
		{`"\u12`, 5, `hex`},
		{`abc`, 0, `JSON string`},
		{`"a"b`, 3, `end of text`},
		{``, 0, `JSON string`},
	}
	for _, c := range cases {
		_, err := UnquoteJSON(c.in)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("UnquoteJSON(%q): err = %v, want a *DecodeError", c.in, err)
			continue
		}
		if de.Offset != c.off || !strings.Contains(de.Expected, c.expected) {
			t.Errorf("UnquoteJSON(%q): %v; want offset %d, expected containing %s", c.in, err, c.off, c.expected)
		}
	}
}

func TestLocalsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		var l Locals
		seen := map[string]bool{}
		for n := r.IntN(6); n > 0; n-- {
			name := randomString(r)
			if name == DiffMarkerKey || seen[name] {
				continue
			}
			seen[name] = true
			l = append(l, Var{name, randomString(r)})
		}
		for _, marker := range []bool{false, true} {
			b, err := AppendLocals(nil, l, marker)
			if err != nil {
				t.Fatal(err)
			}
			got, mk, err := ParseLocals(string(b))
			if err != nil || mk != marker || !got.Equal(l) {
				t.Fatalf("ParseLocals(%s) = %v %v %v; want %v %v", b, got, mk, err, l, marker)
			}
		}
	}
}

func TestLocalsForms(t *testing.T) {
	b, _ := AppendLocals(nil, nil, true)
	if string(b) != `{"..": ".."}` {
		t.Fatalf("marker alone = %s", b)
	}
	b, _ = AppendLocals(nil, Locals{{"n", "0"}}, true)
	if string(b) != `{"n": "0", "..": ".."}` {
		t.Fatalf("marker last = %s", b)
	}
	if _, err := EncodeLocals(Locals{{"..", "1"}}); err == nil {
		t.Fatal("a variable named .. must be refused")
	}
	if _, err := EncodeLocals(Locals{{"a", "1"}, {"a", "2"}}); err == nil {
		t.Fatal("a repeated variable must be refused")
	}
	bad := []struct {
		in  string
		off int
	}{
		{`{"a":"1"}`, 4},
		{`{"a": "1","b": "2"}`, 9},
		{`{"a": "1", "a": "2"}`, 11},
		{`{"..": "..", "a": "1"}`, 11},
		{`{"..": "x"}`, 7},
		{`{ }`, 1},
		{`{"a": 1}`, 6},
		{`{"a": "1"`, 9},
		{`[]`, 0},
		{`{"a": "1"} `, 10},
	}
	for _, c := range bad {
		_, _, err := ParseLocals(c.in)
		var de *DecodeError
		if !errors.As(err, &de) || de.Offset != c.off {
			t.Errorf("ParseLocals(%s) = %v; want a DecodeError at %d", c.in, err, c.off)
		}
	}
}
