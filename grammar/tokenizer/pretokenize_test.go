package tokenizer

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func pieces(k splitKind, s string) []string {
	var out []string
	k.split(s, func(p string) { out = append(out, p) })
	return out
}

func TestSplitExamples(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"  5|             n += 1\n  6|     return n",
			[]string{"  5|", "            ", " n", " +=", " 1", "\n", "  6|", "    ", " return", " n"}},
		{"a = 1|2 | 3", []string{"a", " =", " 1|", "2", " |", " 3"}},
		{`{"s": "'berry'", "t": "'r'"}`,
			[]string{`{"`, "s", `":`, ` "'`, "berry", `'",`, ` "`, "t", `":`, ` "'`, "r", `'"}`}},
		{`{"..": ".."}`, []string{`{"..":`, ` ".."}`}},
		{"self._data.append(x1)", []string{"self", "._data", ".append", "(x1", ")"}},
		{"12345 + 6", []string{"123", "45", " +", " 6"}},
		{"x  \n\n  y ", []string{"x", "  \n\n", " ", " y", " "}},
		{"a\t b", []string{"a", "\t", " b"}},
		{"", nil},
		{"\xff\xfeab", []string{"\xff\xfe", "ab"}},
		{"\xff\xfe ab", []string{"\xff\xfe", " ab"}},
	} {
		if got := pieces(splitNDB, c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSplitGPT2Examples(t *testing.T) {
	got := pieces(splitGPT2, "Hello world's  best_x 123!!\n\n  ok")
	want := []string{"Hello", " world", "'s", " ", " best", "_", "x", " 123", "!!", "\n\n ", " ok"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// randomSplitText draws strings from an alphabet that exercises every class boundary of
// the patterns, including non-ASCII letters, digits and spaces.
func randomSplitText(r *rand.Rand) string {
	alphabet := []string{" ", " ", " ", "  ", "\n", "\r", "\t", "\v", "a", "b", "Z", "_", "0", "7",
		"'", "'s", "'ll", "\"", "{", "}", ":", ",", ".", "|", "(", "<", "=", "+",
		"é", "ß", "中", "ª", "٣", "²", "Ⅻ", "\u00a0", "\u0085", "\u2028", "\u3000", "\u200b",
		"\u0301", "😀", "\x00", "\x1c"}
	var sb strings.Builder
	n := r.IntN(30)
	for range n {
		sb.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return sb.String()
}

// TestSplitMatchesPythonRegex checks the hand-written matchers against Python's regex
// module (which, like Oniguruma, supports \p{..} and lookahead) on random strings. It is
// skipped when python3 or its regex module is missing.
func TestSplitMatchesPythonRegex(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	r := rand.New(rand.NewPCG(1, 2))
	inputs := make([]string, 3000)
	for i := range inputs {
		inputs[i] = randomSplitText(r)
	}
	inputs = append(inputs, "  5|             n += 1\n", `{"s": "'berry'"}`, "x\r\n\r\n  y")
	in, err := json.Marshal(map[string]any{"ndb": Pattern, "gpt2": GPT2Pattern, "texts": inputs})
	if err != nil {
		t.Fatal(err)
	}
	const script = `
import json, sys
try:
    import regex
except ImportError:
    sys.exit(3)
d = json.load(sys.stdin)
out = {}
for k in ("ndb", "gpt2"):
    p = regex.compile(d[k])
    out[k] = [p.findall(s) for s in d["texts"]]
json.dump(out, sys.stdout)
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 3 {
		t.Skip("python3 regex module not installed")
	}
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var want map[string][][]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for name, k := range map[string]splitKind{"ndb": splitNDB, "gpt2": splitGPT2} {
		for i, s := range inputs {
			got := pieces(k, s)
			w := want[name][i]
			if len(w) == 0 {
				w = nil
			}
			if !reflect.DeepEqual(got, w) {
				if bad++; bad < 10 {
					t.Errorf("%s: split(%q) = %q, python regex %q", name, s, got, w)
				}
			}
		}
	}
}
