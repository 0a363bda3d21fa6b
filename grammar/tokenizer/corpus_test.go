package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// specExample is the trajectory of spec section 5 (count("berry", "r")).
const specExample = `<|trace_context_start|>  1| def count(s, t):
  2|     n = 0
  3|     for c in s:
  4|         if c == t:
  5|             n += 1
  6|     return n
<|forward|><|call_sep|>{"s": "'berry'", "t": "'r'"}<|src_sep|>  1| def count(s, t):<|frame_sep|><|action_sep|><|step_into|><|line_sep|>{"..": ".."}<|src_sep|>  2|     n = 0<|frame_sep|><|action_sep|><|step_return|><|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|>`

// handExamples are trajectory-like texts written by hand: the spec's example, an
// inverse trajectory, a breakpoint with several lines, an exception, a two-file context
// and an exit state.
var handExamples = []string{
	specExample,
	`<|trace_context_start|>  1| def count(s, t):
  2|     n = 0
  3|     for c in s:
  4|         if c == t:
  5|             n += 1
  6|     return n
<|inverse|><|return_sep|><|src_sep|>  6|     return n<|arg_sep|>"2"<|frame_sep|><|action_sep|><|inv_step_over|><|line_sep|>{"s": "'berry'", "t": "'r'", "n": "2", "c": "'y'"}<|src_sep|>  3|     for c in s:<|frame_sep|><|action_sep|><|inv_step_call|><|inv_line_call_sep|><|src_sep|>  1| def count(s, t):<|frame_sep|>`,
	`<|trace_context_start|>  1| def f(xs):
  2|     total = 0.0
  3|     for i, x in enumerate(xs):
  4|         total += x * 1.5
  5|     return {"total": total, 'n': len(xs)}
<|forward|><|call_sep|>{"xs": "[1, 2, 3, 40000000]"}<|src_sep|>  1| def f(xs):<|frame_sep|><|action_sep|><|breakpoint|>  4|         total += x * 1.5<|src_sep|>  5|     return {"total": total, 'n': len(xs)}<|line_sep|>{"xs": "[1, 2, 3, 40000000]", "total": "0.0", "i": "0", "x": "1"}<|src_sep|>  4|         total += x * 1.5<|frame_sep|><|action_sep|><|continue|><|exit_sep|>normal<|frame_sep|>`,
	`<|trace_context_start|># file: pkg/util.py
  1| def parse(s):
  2|     return int(s)
# file: main.py
 10| from pkg.util import parse
 11| def main():
 12|     v = parse("x\t\"y\"")
<|forward|><|call_sep|>{}<|src_sep|>main.py: 11| def main():<|frame_sep|><|action_sep|><|step_into|><|call_sep|>{"s": "'x\\t\"y\"'"}<|src_sep|>pkg/util.py:  1| def parse(s):<|frame_sep|><|action_sep|><|step_over|><|exception_sep|><|src_sep|>pkg/util.py:  2|     return int(s)<|arg_sep|>"ValueError(\"invalid literal for int() with base 10: 'x\\\\t\\\"y\\\"'\")"<|frame_sep|><|action_sep|><|step_over|><|exit_sep|>error<|frame_sep|>`,
	"<|trace_context_start|>  1| s = 'caf\u00e9 \u4e2d\u6587 \U0001F600'\n<|forward|><|line_sep|>{\"s\": \"'caf\\u00e9 \\u4e2d\\u6587 \\ud83d\\ude00'\"}<|src_sep|>  1| s = 'caf\u00e9 \u4e2d\u6587 \U0001F600'<|frame_sep|>",
}

// goldenTexts returns the repository's golden trajectories (testdata/golden), or nil
// when they are not there.
func goldenTexts(tb testing.TB) []string {
	files, _ := filepath.Glob("../../testdata/golden/*.txt")
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		// Lines starting with "###" are headers of the golden files, not trajectories.
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if !strings.HasPrefix(line, "###") {
				out = append(out, line)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []string{strings.Join(out, "")}
}

// synth generates trajectory-like text: random small Python functions as the context,
// then forward or inverse walks through them with locals, actions and values in the
// byte form of spec section 5. It is deterministic for a seed.
type synth struct {
	r *rand.Rand
}

func newSynth(seed uint64) *synth { return &synth{r: rand.New(rand.NewPCG(seed, 0x5eed))} }

var synthNames = []string{"n", "i", "j", "k", "x", "y", "s", "t", "c", "xs", "ys", "acc", "total",
	"count", "result", "items", "item", "key", "value", "node", "left", "right", "data",
	"self", "buf", "out", "seen", "stack", "queue", "lo", "hi", "mid", "word", "words",
	"line", "parts", "idx", "cur", "prev", "nxt", "_tmp", "max_len", "num2", "res", "memo"}

var synthFuncs = []string{"count", "flatten", "fib", "merge_sort", "binary_search", "parse",
	"walk", "reverse_words", "is_prime", "gcd", "solve", "helper", "dfs", "bfs", "tokenize",
	"normalize", "apply", "update", "__init__", "push", "pop", "main"}

var synthWords = []string{"berry", "apple", "hello", "world", "foo", "bar", "baz", "spam",
	"eggs", "abc", "xyz", "error", "ok", "data", "a", "b", "r", "the quick brown fox"}

func (g *synth) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *synth) repr() string {
	switch g.r.IntN(12) {
	case 0, 1, 2:
		return fmt.Sprint(g.r.IntN(20))
	case 3:
		return fmt.Sprint(g.r.IntN(100000) - 500)
	case 4, 5:
		return "'" + g.pick(synthWords) + "'"
	case 6:
		n := g.r.IntN(6)
		var parts []string
		for range n {
			parts = append(parts, fmt.Sprint(g.r.IntN(50)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 7:
		return fmt.Sprintf("{'%s': %d, '%s': %d}", g.pick(synthWords), g.r.IntN(9), g.pick(synthWords), g.r.IntN(99))
	case 8:
		return g.pick([]string{"None", "True", "False"})
	case 9:
		return fmt.Sprintf("%.4g", g.r.Float64()*100)
	case 10:
		return fmt.Sprintf("('%s', %d)", g.pick(synthWords), g.r.IntN(9))
	}
	return fmt.Sprintf("<__main__.Node object at 0x7f%010x>", g.r.Uint64()&0xffffffffff)
}

func (g *synth) expr(vars []string) string {
	v := g.pick(vars)
	switch g.r.IntN(8) {
	case 0:
		return fmt.Sprint(g.r.IntN(10))
	case 1:
		return v + " + " + fmt.Sprint(1+g.r.IntN(3))
	case 2:
		return "len(" + v + ")"
	case 3:
		return v + "[" + g.pick(vars) + "]"
	case 4:
		return g.pick(synthFuncs) + "(" + v + ")"
	case 5:
		return "[]"
	case 6:
		return v + " * " + g.pick(vars)
	}
	return "'" + g.pick(synthWords) + "'"
}

// function returns the lines of a random function.
func (g *synth) function() []string {
	params := []string{g.pick(synthNames)}
	for g.r.IntN(2) == 0 && len(params) < 4 {
		params = append(params, g.pick(synthNames))
	}
	vars := append([]string(nil), params...)
	lines := []string{"def " + g.pick(synthFuncs) + "(" + strings.Join(params, ", ") + "):"}
	depth := 1
	for n := 3 + g.r.IntN(10); n > 0; n-- {
		ind := strings.Repeat("    ", depth)
		v := g.pick(synthNames)
		switch g.r.IntN(9) {
		case 0:
			lines = append(lines, ind+"for "+v+" in "+g.pick(vars)+":")
			vars = append(vars, v)
			depth++
		case 1:
			lines = append(lines, ind+"if "+g.pick(vars)+" == "+g.expr(vars)+":")
			depth++
		case 2:
			lines = append(lines, ind+"while "+g.pick(vars)+" < "+g.expr(vars)+":")
			depth++
		case 3:
			lines = append(lines, ind+g.pick(vars)+" += "+g.expr(vars))
		case 4:
			lines = append(lines, ind+g.pick(vars)+".append("+g.expr(vars)+")")
		default:
			lines = append(lines, ind+v+" = "+g.expr(vars))
			vars = append(vars, v)
		}
		if depth > 1 && g.r.IntN(3) == 0 {
			depth--
		}
	}
	return append(lines, "    return "+g.pick(vars))
}

func (g *synth) locals(vars []string, diff bool) string {
	var parts []string
	for _, v := range vars {
		if diff && g.r.IntN(3) != 0 {
			continue
		}
		parts = append(parts, `"`+v+`": `+grammar.QuoteJSON(g.repr()))
	}
	if diff {
		parts = append(parts, `"..": ".."`)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// trajectory returns one random trajectory.
func (g *synth) trajectory() string {
	lines := g.function()
	src := make([]string, len(lines))
	var b strings.Builder
	b.WriteString(grammar.TokenTraceContextStart)
	for i, l := range lines {
		src[i] = fmt.Sprintf("%3d| %s", i+1, l)
		b.WriteString(src[i] + "\n")
	}
	vars := []string{g.pick(synthNames), g.pick(synthNames)}
	line := func() string { return src[1+g.r.IntN(len(src)-1)] }
	if g.r.IntN(4) == 0 {
		b.WriteString(grammar.TokenInverse + grammar.TokenReturnSep + grammar.TokenSrcSep + src[len(src)-1] +
			grammar.TokenArgSep + grammar.QuoteJSON(g.repr()) + grammar.TokenFrameSep)
		for n := g.r.IntN(8); n > 0; n-- {
			b.WriteString(grammar.TokenActionSep + g.pick([]string{grammar.TokenInvStepInto, grammar.TokenInvStepOver}) +
				grammar.TokenLineSep + g.locals(vars, false) + grammar.TokenSrcSep + line() + grammar.TokenFrameSep)
		}
		b.WriteString(grammar.TokenActionSep + grammar.TokenInvStepCall + grammar.TokenInvLineCallSep +
			grammar.TokenSrcSep + src[0] + grammar.TokenFrameSep)
		return b.String()
	}
	b.WriteString(grammar.TokenForward + grammar.TokenCallSep + g.locals(vars, false) + grammar.TokenSrcSep + src[0] + grammar.TokenFrameSep)
	for n := g.r.IntN(12); n > 0; n-- {
		switch g.r.IntN(6) {
		case 0:
			b.WriteString(grammar.TokenActionSep + grammar.TokenBreakpoint + line())
			for g.r.IntN(3) == 0 {
				b.WriteString(grammar.TokenSrcSep + line())
			}
			b.WriteString(grammar.TokenLineSep + g.locals(vars, false))
		default:
			b.WriteString(grammar.TokenActionSep + g.pick([]string{grammar.TokenStepInto, grammar.TokenStepOver}) +
				grammar.TokenLineSep + g.locals(vars, true))
		}
		b.WriteString(grammar.TokenSrcSep + line() + grammar.TokenFrameSep)
		if g.r.IntN(4) == 0 {
			vars = append(vars, g.pick(synthNames))
		}
	}
	switch g.r.IntN(3) {
	case 0:
		b.WriteString(grammar.TokenActionSep + grammar.TokenContinue + grammar.TokenExitSep +
			g.pick([]string{"normal", "error", "never"}) + grammar.TokenFrameSep)
	default:
		b.WriteString(grammar.TokenActionSep + grammar.TokenStepReturn + grammar.TokenReturnSep + grammar.TokenSrcSep +
			src[len(src)-1] + grammar.TokenArgSep + grammar.QuoteJSON(g.repr()) + grammar.TokenFrameSep)
	}
	return b.String()
}

// synthCorpus returns trajectories of about n bytes in all.
func synthCorpus(seed uint64, n int) []string {
	g := newSynth(seed)
	var out []string
	for size := 0; size < n; {
		t := g.trajectory()
		out = append(out, t)
		size += len(t)
	}
	return out
}

func totalLen(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}
