package trace_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ndb-project/ndb/trace"
)

// The spec's example program.
const tpCount = `def count(s, t):
    n = 0
    for c in s:
        if c == t:
            n += 1
    return n
`

// An exception raised in a callee and caught in its caller.
const tpCaught = `def inner(x):
    y = x + 1
    return y / 0

def outer():
    try:
        inner(1)
    except ZeroDivisionError:
        return "caught"
`

const tpNested = `def h(z):
    return z * 2

def g(y):
    return h(y) + 1

def f(x):
    a = g(x)
    b = g(a)
    return b
`

const tpGenerator = `def gen(n):
    for i in range(n):
        yield i * 10

def main():
    total = 0
    for v in gen(3):
        total += v
    return total
`

const tpClass = `class Counter:
    def __init__(self, start):
        self.n = start

    def bump(self, k):
        self.n += k
        return self.n

def main():
    c = Counter(1)
    c.bump(2)
    return c.bump(3)
`

const tpScript = `import math
from os import path
X = 3

def sq(v):
    return v * v

class K:
    kind = "k"

y = sq(X)
print(y)
`

// tpLast returns the last event of a trace (the zero Event if there is none).
func tpLast(res trace.TraceResult) trace.Event {
	if len(res.Events) == 0 {
		return trace.Event{}
	}
	return res.Events[len(res.Events)-1]
}

// tpShape writes an event compactly for comparisons and failure messages.
func tpShape(e trace.Event) string {
	s := fmt.Sprintf("%s %s@%d d%d #%d", e.Event, e.Func, e.Line, e.Depth, e.Frame)
	if e.Locals != nil {
		parts := make([]string, len(e.Locals))
		for i, p := range e.Locals {
			parts[i] = p[0] + "=" + p[1]
		}
		s += " {" + strings.Join(parts, " ") + "}"
	}
	if e.Arg != "" {
		s += " -> " + e.Arg
	}
	return s
}

func tpShapes(res trace.TraceResult) []string {
	out := make([]string, len(res.Events))
	for i, e := range res.Events {
		out[i] = tpShape(e)
	}
	return out
}

func tpEqualShapes(t *testing.T, got trace.TraceResult, want []string) {
	t.Helper()
	shapes := tpShapes(got)
	if !reflect.DeepEqual(shapes, want) {
		t.Fatalf("events differ\n got:\n  %s\nwant:\n  %s", strings.Join(shapes, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestTraceCount(t *testing.T) {
	res := tpTrace(t, tpCount, `count("berry", "r")`, trace.Limits{})
	if res.Status != trace.StatusNormal || res.Exception != "" || res.Setup != nil {
		t.Fatalf("status %s %q %+v", res.Status, res.Exception, res.Setup)
	}
	st := "s='berry' t='r'"
	tpEqualShapes(t, res, []string{
		"call count@1 d0 #1 {" + st + "}",
		"line count@2 d0 #1 {" + st + "}",
		"line count@3 d0 #1 {" + st + " n=0}",
		"line count@4 d0 #1 {" + st + " n=0 c='b'}",
		"line count@3 d0 #1 {" + st + " n=0 c='b'}",
		"line count@4 d0 #1 {" + st + " n=0 c='e'}",
		"line count@3 d0 #1 {" + st + " n=0 c='e'}",
		"line count@4 d0 #1 {" + st + " n=0 c='r'}",
		"line count@5 d0 #1 {" + st + " n=0 c='r'}",
		"line count@3 d0 #1 {" + st + " n=1 c='r'}",
		"line count@4 d0 #1 {" + st + " n=1 c='r'}",
		"line count@5 d0 #1 {" + st + " n=1 c='r'}",
		"line count@3 d0 #1 {" + st + " n=2 c='r'}",
		"line count@4 d0 #1 {" + st + " n=2 c='y'}",
		"line count@3 d0 #1 {" + st + " n=2 c='y'}",
		"line count@6 d0 #1 {" + st + " n=2 c='y'}",
		"return count@6 d0 #1 -> 2",
	})
	for _, e := range res.Events {
		if e.File != "" {
			t.Errorf("program events carry no file name, got %q", e.File)
		}
	}
}

func TestTraceNestedCallsDepthAndFrames(t *testing.T) {
	res := tpTrace(t, tpNested, "f(1)", trace.Limits{})
	if res.Status != trace.StatusNormal || tpLast(res).Arg != "7" {
		t.Fatalf("status %s, last %s", res.Status, tpShape(tpLast(res)))
	}
	wantDepth := map[string]int{"f": 0, "g": 1, "h": 2}
	calls := map[string][]int{}
	seen := map[int]string{}
	for _, e := range res.Events {
		if e.Depth != wantDepth[e.Func] {
			t.Errorf("%s: depth %d, want %d", tpShape(e), e.Depth, wantDepth[e.Func])
		}
		if f, ok := seen[e.Frame]; ok && f != e.Func {
			t.Errorf("frame %d used by %s and %s", e.Frame, f, e.Func)
		}
		seen[e.Frame] = e.Func
		if e.Event == "call" {
			calls[e.Func] = append(calls[e.Func], e.Frame)
		}
	}
	if fmt.Sprint(calls) != "map[f:[1] g:[2 4] h:[3 5]]" {
		t.Errorf("frames by call: %v", calls)
	}
}

func TestTraceRecursionFrames(t *testing.T) {
	src := "def fact(n):\n    if n == 0:\n        return 1\n    return n * fact(n - 1)\n"
	res := tpTrace(t, src, "fact(3)", trace.Limits{})
	var returns []string
	for _, e := range res.Events {
		if e.Depth != e.Frame-1 {
			t.Errorf("%s: frame ids follow the recursion depth here", tpShape(e))
		}
		if e.Event == "call" && e.Locals[0][1] != fmt.Sprint(3-e.Depth) {
			t.Errorf("%s: wrong n", tpShape(e))
		}
		if e.Event == "return" {
			returns = append(returns, fmt.Sprintf("#%d->%s", e.Frame, e.Arg))
		}
	}
	if got := strings.Join(returns, " "); got != "#4->1 #3->1 #2->2 #1->6" {
		t.Errorf("returns %s", got)
	}
}

// tpCheckCaught asserts the events of tpCaught traced with entry outer().
func tpCheckCaught(t *testing.T, res trace.TraceResult) {
	t.Helper()
	if res.Status != trace.StatusNormal {
		t.Fatalf("status %s %q", res.Status, res.Exception)
	}
	zde := "ZeroDivisionError('division by zero')"
	tpEqualShapes(t, res, []string{
		"call outer@5 d0 #1 {}",
		"line outer@6 d0 #1 {}",
		"line outer@7 d0 #1 {}",
		"call inner@1 d1 #2 {x=1}",
		"line inner@2 d1 #2 {x=1}",
		"line inner@3 d1 #2 {x=1 y=2}",
		"exception inner@3 d1 #2 -> " + zde, // no "return None" after it
		"exception outer@7 d0 #1 -> " + zde, // at the line of the call
		"line outer@8 d0 #1 {}",
		"line outer@9 d0 #1 {}",
		"return outer@9 d0 #1 -> 'caught'",
	})
}

func TestTraceExceptionCaughtInCaller(t *testing.T) {
	tpCheckCaught(t, tpTrace(t, tpCaught, "outer()", trace.Limits{}))
}

func TestTraceUncaughtException(t *testing.T) {
	src := "def f(a):\n    b = [a]\n    return b[5]\n\ndef main():\n    return f(1)\n"
	res := tpTrace(t, src, "main()", trace.Limits{})
	want := "IndexError('list index out of range')"
	if res.Status != trace.StatusError || res.Exception != want {
		t.Fatalf("status %s %q, want error %q", res.Status, res.Exception, want)
	}
	n := len(res.Events)
	if n < 2 || tpShape(res.Events[n-2]) != "exception f@3 d1 #2 -> "+want || tpShape(res.Events[n-1]) != "exception main@6 d0 #1 -> "+want {
		t.Fatalf("the trace does not end with the exception unwinding:\n%s", strings.Join(tpShapes(res), "\n"))
	}
}

func TestTraceInfiniteLoopIsNever(t *testing.T) {
	// A busy loop outside the program's code gives no events, and a sleep is
	// one long call: both end by the wall-clock limit.
	for _, src := range []string{"exec('while True: pass')\n", "import time\ntime.sleep(60)\n"} {
		res := tpTrace(t, src, "", trace.Limits{WallSecs: 0.5})
		if res.Status != trace.StatusNever || res.Exception != "time limit" {
			t.Fatalf("%q: status %s %q, want never (time limit)", src, res.Status, res.Exception)
		}
	}
	src := "def spin():\n    i = 0\n    while True:\n        i += 1\n"
	res := tpTrace(t, src, "spin()", trace.Limits{MaxEvents: 500})
	if res.Status != trace.StatusNever || res.Exception != "event limit" || len(res.Events) != 500 {
		t.Fatalf("status %s %q with %d events, want never (event limit) with 500", res.Status, res.Exception, len(res.Events))
	}
}

func TestTraceSwallowedLimitsStillEnd(t *testing.T) {
	// A bare except catches the tracer's own interruptions; the run must end
	// anyway, at worst by the pool's hard deadline.
	src := "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except:\n            pass\n"
	p := tpNew(t, trace.PoolOptions{Workers: 1, Grace: 500 * time.Millisecond})
	res, err := p.Trace(tpCtx(t), trace.TraceRequest{Source: src, Entry: "f()", Limits: trace.Limits{WallSecs: 0.3}})
	if res.Status != trace.StatusNever {
		t.Fatalf("status %s, err %v; want never", res.Status, err)
	}
}

func TestTraceOutputCapturedAndBounded(t *testing.T) {
	src := `import sys
def noisy():
    print("to stderr", file=sys.stderr)
    for i in range(2000):
        print("spam", i)
    return 1
`
	res := tpTrace(t, src, "noisy()", trace.Limits{MaxOutput: 1000})
	if res.Status != trace.StatusNormal {
		t.Fatalf("status %s %q", res.Status, res.Exception)
	}
	if !strings.HasPrefix(res.Output, "to stderr\nspam 0\nspam 1\n") {
		t.Errorf("output starts %q", res.Output[:min(60, len(res.Output))])
	}
	if !strings.Contains(res.Output, "[ndb: output truncated") || len(res.Output) > 1100 {
		t.Errorf("output not bounded: %d characters, tail %q", len(res.Output), res.Output[max(0, len(res.Output)-80):])
	}
	data, _ := json.Marshal(res.Events)
	if strings.Contains(string(data), "spam") {
		t.Error("program output leaked into the events")
	}
}

func TestTraceHugeValuesAreBounded(t *testing.T) {
	src := `def f():
    s = 'x' * 10**7
    xs = list(range(10**6))
    d = dict(zip(range(10**5), map(str, range(10**5))))
    n = 10**5000
    return xs
`
	res := tpTrace(t, src, "f()", trace.Limits{WallSecs: 10})
	if res.Status != trace.StatusNormal {
		t.Fatalf("status %s %q", res.Status, res.Exception)
	}
	var last trace.Event
	for _, e := range res.Events {
		if e.Event == "line" {
			last = e
		}
	}
	vals := map[string]string{}
	for _, p := range last.Locals {
		vals[p[0]] = p[1]
	}
	check := func(name, prefix string) {
		v := vals[name]
		if len(v) != trace.DefaultMaxRepr+3 || !strings.HasPrefix(v, prefix) || !strings.HasSuffix(v, "...") {
			t.Errorf("%s = %q (%d chars), want %q... cut at %d", name, v, len(v), prefix, trace.DefaultMaxRepr)
		}
	}
	check("s", "'xxxxxxxx")
	check("xs", "[0, 1, 2, 3, ")
	check("d", "{0: '0', 1: '1', ")
	if vals["n"] != "<int with 5001 digits>" {
		t.Errorf("n = %q", vals["n"])
	}
	if ret := tpLast(res); !strings.HasPrefix(ret.Arg, "[0, 1, 2") || len(ret.Arg) != trace.DefaultMaxRepr+3 {
		t.Errorf("return %q", ret.Arg)
	}
	res = tpTrace(t, src, "f()", trace.Limits{MaxRepr: 10, WallSecs: 10})
	if ret := tpLast(res); ret.Arg != "[0, 1, 2, ..." {
		t.Errorf("MaxRepr 10: return %q", ret.Arg)
	}
}

func TestTraceGeneratorKeepsItsFrame(t *testing.T) {
	res := tpTrace(t, tpGenerator, "main()", trace.Limits{})
	if res.Status != trace.StatusNormal || tpLast(res).Arg != "30" {
		t.Fatalf("status %s, last %s", res.Status, tpShape(tpLast(res)))
	}
	var calls, yields []string
	for _, e := range res.Events {
		if e.Func != "gen" {
			continue
		}
		if e.Frame != 2 || e.Depth != 1 {
			t.Errorf("%s: a resumed generator keeps frame 2 at depth 1", tpShape(e))
		}
		switch e.Event {
		case "call":
			calls = append(calls, fmt.Sprint(e.Line))
		case "return":
			yields = append(yields, e.Arg)
		}
	}
	if got := strings.Join(calls, " "); got != "1 3 3 3" {
		t.Errorf("gen entered at lines %s, want 1 3 3 3", got)
	}
	if got := strings.Join(yields, " "); got != "0 10 20 None" {
		t.Errorf("gen returned %s", got)
	}
}

func TestTraceComprehensions(t *testing.T) {
	src := "def f(xs):\n    ys = [x * 2 for x in xs]\n    return sum(y for y in ys)\n"
	res := tpTrace(t, src, "f([1, 2])", trace.Limits{})
	if res.Status != trace.StatusNormal || tpLast(res).Arg != "6" {
		t.Fatalf("status %s, last %s", res.Status, tpShape(tpLast(res)))
	}
	frames := map[string]int{}
	for _, e := range res.Events {
		if e.Event == "call" {
			frames[e.Func]++
		}
		if e.Func != "f" && e.Depth != 1 {
			t.Errorf("%s: comprehension frames are one level below f", tpShape(e))
		}
		for _, p := range e.Locals {
			if strings.HasPrefix(p[0], ".") {
				t.Errorf("%s: compiler-made local %q shown", tpShape(e), p[0])
			}
		}
	}
	// List comprehensions have their own frame up to Python 3.11 (PEP 709
	// inlines them from 3.12); generator expressions always do.
	wantList := 1
	if !strings.HasPrefix(tpShared(t).Version(), "3.10.") && !strings.HasPrefix(tpShared(t).Version(), "3.11.") {
		wantList = 0
	}
	if frames["<listcomp>"] != wantList || frames["<genexpr>"] < 1 {
		t.Errorf("frames %v", frames)
	}
}

func TestTraceClassMethods(t *testing.T) {
	res := tpTrace(t, tpClass, "main()", trace.Limits{})
	if res.Status != trace.StatusNormal || tpLast(res).Arg != "6" {
		t.Fatalf("status %s, last %s", res.Status, tpShape(tpLast(res)))
	}
	var calls []string
	for _, e := range res.Events {
		if e.Event == "call" {
			calls = append(calls, fmt.Sprintf("%s#%d/d%d", e.Func, e.Frame, e.Depth))
			if e.Func == "bump" && e.Locals[0] != (trace.Pair{"self", "<__main__.Counter object>"}) {
				t.Errorf("self shown as %q (addresses are stripped)", e.Locals[0][1])
			}
		}
	}
	if got := strings.Join(calls, " "); got != "main#1/d0 __init__#2/d1 bump#3/d1 bump#4/d1" {
		t.Errorf("calls %s", got)
	}
	again := tpTrace(t, tpClass, "main()", trace.Limits{})
	if !reflect.DeepEqual(res, again) {
		t.Error("two runs of the same program give different traces")
	}
}

func TestTraceWholeScript(t *testing.T) {
	res := tpTrace(t, tpScript, "", trace.Limits{})
	if res.Status != trace.StatusNormal || res.Output != "9\n" {
		t.Fatalf("status %s %q, output %q", res.Status, res.Exception, res.Output)
	}
	first := res.Events[0]
	if tpShape(first) != "call <module>@1 d0 #1 {}" {
		t.Errorf("first event %s", tpShape(first))
	}
	var lastModuleLine trace.Event
	funcs := map[string]int{}
	for _, e := range res.Events {
		funcs[e.Func] = e.Depth
		if e.Func == "<module>" && e.Event == "line" {
			lastModuleLine = e
		}
	}
	// Module-level locals are the script's data: no modules, functions,
	// classes or dunder names.
	if got := tpShape(lastModuleLine); got != "line <module>@12 d0 #1 {X=3 y=9}" {
		t.Errorf("last module line %s", got)
	}
	if funcs["sq"] != 1 || funcs["K"] != 1 {
		t.Errorf("function and class-body frames: %v", funcs)
	}
	if tpShape(tpLast(res)) != "return <module>@12 d0 #1 -> None" {
		t.Errorf("last event %s", tpShape(tpLast(res)))
	}
}

func TestTraceMainGuard(t *testing.T) {
	src := "def f():\n    return 1\n\nif __name__ == \"__main__\":\n    print(\"main ran\")\n"
	if res := tpTrace(t, src, "f()", trace.Limits{}); res.Output != "" || res.Status != trace.StatusNormal {
		t.Errorf("with an entry the main block must not run: %q %s", res.Output, res.Status)
	}
	if res := tpTrace(t, src, "", trace.Limits{}); res.Output != "main ran\n" {
		t.Errorf("without an entry the main block runs: %q", res.Output)
	}
}

func TestTraceSetupErrors(t *testing.T) {
	cases := []struct {
		name, src, entry, kind, msg string
		line                        int
	}{
		{"syntax", "x = 1\nif x\n    pass\n", "", "syntax", "expected ':'", 2},
		{"indentation", "def f():\nreturn 1\n", "f()", "syntax", "indented block", 2},
		{"module", "def f():\n    return 1\nx = 1 / 0\n", "f()", "module", "ZeroDivisionError('division by zero')", 3},
		{"undefined entry", "def f():\n    return 1\n", "g()", "entry", "'g' is not defined", 0},
		{"undefined argument", "def f(a):\n    return a\n", "f(nope)", "entry", "'nope' is not defined", 0},
		{"entry syntax", "def f():\n    return 1\n", "f(", "entry", "does not parse", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := tpTrace(t, c.src, c.entry, trace.Limits{})
			if res.Setup == nil {
				t.Fatalf("no setup error: %+v", res)
			}
			if res.Setup.Kind != c.kind || !strings.Contains(res.Setup.Message, c.msg) || res.Setup.Line != c.line {
				t.Errorf("setup %+v, want kind %s, message with %q, line %d", *res.Setup, c.kind, c.msg, c.line)
			}
			if len(res.Events) != 0 || res.Status != trace.StatusError {
				t.Errorf("a program that cannot start has no events: %d, status %s", len(res.Events), res.Status)
			}
		})
	}
}

func TestTraceSystemExit(t *testing.T) {
	src := "import sys\ndef f(code):\n    sys.exit(code)\n"
	if res := tpTrace(t, src, "f(0)", trace.Limits{}); res.Status != trace.StatusNormal {
		t.Errorf("exit(0): %s %q", res.Status, res.Exception)
	}
	if res := tpTrace(t, src, "f(None)", trace.Limits{}); res.Status != trace.StatusNormal {
		t.Errorf("exit(None): %s %q", res.Status, res.Exception)
	}
	if res := tpTrace(t, src, "f(3)", trace.Limits{}); res.Status != trace.StatusError || res.Exception != "SystemExit(3)" {
		t.Errorf("exit(3): %s %q", res.Status, res.Exception)
	}
}

func TestTraceDeepRecursionIsRecursionError(t *testing.T) {
	src := "def down(n):\n    return down(n + 1)\n"
	res := tpTrace(t, src, "down(0)", trace.Limits{WallSecs: 20})
	if res.Status != trace.StatusError || !strings.HasPrefix(res.Exception, "RecursionError(") {
		t.Fatalf("status %s %q", res.Status, res.Exception)
	}
	// Every frame is left by the exception, innermost first, down to depth 0.
	ended := map[int]bool{}
	calls := 0
	for _, e := range res.Events {
		switch e.Event {
		case "call":
			calls++
		case "return":
			t.Fatalf("unexpected %s", tpShape(e))
		case "exception":
			ended[e.Frame] = true
		}
	}
	if calls < 100 || len(ended) != calls {
		t.Errorf("%d calls, %d frames ended by the exception", calls, len(ended))
	}
	if e := tpLast(res); e.Event != "exception" || e.Depth != 0 || e.Frame != 1 {
		t.Errorf("last event %s", tpShape(e))
	}
}

func TestTraceRequestsDoNotLeak(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	ctx := tpCtx(t)
	poison := `import sys, signal, os, builtins
sys.setrecursionlimit(60)
sys.stdout = None
signal.signal(signal.SIGALRM, signal.SIG_IGN)
os.chdir("/")
sys.path.insert(0, "/nonexistent")
shared = 42
`
	if _, err := p.Trace(ctx, trace.TraceRequest{Source: poison}); err != nil {
		t.Fatal(err)
	}
	src := "def deep(n):\n    return 0 if n == 0 else 1 + deep(n - 1)\n\ndef main():\n    print('ok')\n    return deep(150)\n"
	res, err := p.Trace(ctx, trace.TraceRequest{Source: src, Entry: "main()", Limits: trace.Limits{MaxEvents: 100000}})
	if err != nil || res.Status != trace.StatusNormal || res.Output != "ok\n" || tpLast(res).Arg != "150" {
		t.Fatalf("after a poisoning request: %s %q, output %q, %v", res.Status, res.Exception, res.Output, err)
	}
	res, err = p.Trace(ctx, trace.TraceRequest{Source: "x = shared\n"})
	if err != nil || res.Status != trace.StatusError || !strings.HasPrefix(res.Exception, "NameError") {
		t.Errorf("globals leaked between requests: %s %q %v", res.Status, res.Exception, err)
	}
	res, err = p.Trace(ctx, trace.TraceRequest{Source: tpBusy, Limits: trace.Limits{WallSecs: 0.3}})
	if err != nil || res.Status != trace.StatusNever || res.Exception != "time limit" {
		t.Errorf("the alarm was disabled by an earlier request: %s %v", res.Status, err)
	}
}

func TestTraceLinesAreExecutable(t *testing.T) {
	programs := []struct{ src, entry string }{
		{tpCount, `count("berry", "r")`},
		{tpCaught, "outer()"},
		{tpNested, "f(2)"},
		{tpGenerator, "main()"},
		{tpClass, "main()"},
		{tpScript, ""},
		{"def f(xs):\n    ys = [x * 2\n          for x in xs]\n    return {y: y for y in ys}\n", "f([1, 2])"},
	}
	p := tpShared(t)
	for i, prog := range programs {
		res := tpTrace(t, prog.src, prog.entry, trace.Limits{})
		parsed, err := p.Parse(tpCtx(t), trace.ParseRequest{Source: prog.src})
		if err != nil {
			t.Fatal(err)
		}
		exe := map[int]bool{}
		for _, l := range parsed.Executable {
			exe[l] = true
		}
		for _, e := range res.Events {
			if e.Event == "line" && !exe[e.Line] {
				t.Errorf("program %d: line event at %d, not in Executable %v", i, e.Line, parsed.Executable)
			}
		}
	}
}

func TestParse(t *testing.T) {
	src := `import functools

def top(a, b=1, *args, c, **kw):
    def inner(x):
        return x
    return inner(a)

class Shape:
    @functools.lru_cache
    def area(self):
        return 0

    class Inner:
        async def run(self, /, q):
            pass
`
	res, err := tpShared(t).Parse(tpCtx(t), trace.ParseRequest{Source: src})
	if err != nil || res.Syntax != nil {
		t.Fatalf("Parse: %+v, %v", res, err)
	}
	want := []trace.Function{
		{Name: "top", QualName: "top", FirstLine: 3, LastLine: 6, Params: []string{"a", "b", "args", "c", "kw"}},
		{Name: "inner", QualName: "top.<locals>.inner", FirstLine: 4, LastLine: 5, Params: []string{"x"}},
		{Name: "area", QualName: "Shape.area", FirstLine: 10, LastLine: 11, Params: []string{"self"}},
		{Name: "run", QualName: "Shape.Inner.run", FirstLine: 14, LastLine: 15, Params: []string{"self", "q"}},
	}
	if !reflect.DeepEqual(res.Functions, want) {
		t.Errorf("functions\n got %+v\nwant %+v", res.Functions, want)
	}
	// def lines are executable at module level only, never inside their body;
	// the decorator line is executable (the module evaluates it).
	if got := fmt.Sprint(res.Executable); got != "[1 3 4 5 6 8 9 10 11 13 14 15]" {
		t.Errorf("executable %s", got)
	}
}

func TestParseNeverRunsTheProgram(t *testing.T) {
	p := tpNew(t, trace.PoolOptions{Workers: 1})
	res, err := p.Parse(tpCtx(t), trace.ParseRequest{Source: "import os\nos._exit(1)\n"})
	if err != nil || fmt.Sprint(res.Executable) != "[1 2]" {
		t.Fatalf("Parse: %+v, %v", res, err)
	}
	if p.Restarts() != 0 {
		t.Error("parsing ran the program")
	}
}

func TestParseSyntaxError(t *testing.T) {
	res, err := tpShared(t).Parse(tpCtx(t), trace.ParseRequest{Source: "def f():\n    return (1,\n\nx = 2\n"})
	if err != nil || res.Syntax == nil || res.Syntax.Kind != "syntax" || res.Syntax.Line != 2 {
		t.Fatalf("Parse: %+v (%+v), %v", res, res.Syntax, err)
	}
}

func TestCheck(t *testing.T) {
	src := tpCount + `
from dataclasses import dataclass

@dataclass
class Point:
    x: int
    y: int

def mid(a, b):
    return Point((a.x + b.x) // 2, (a.y + b.y) // 2)

def boom():
    return 1 / 0

def spin():
    while True:
        pass
`
	cases := []struct {
		call, expected string
		ok             bool
		actual, err    string
	}{
		{`count("berry", "r")`, "2", true, "2", ""},
		{`count("berry", "r")`, "3", false, "2", ""},
		{`[count(w, "e") for w in ["tree", "x"]]`, "[2, 0]", true, "[2, 0]", ""},
		{`mid(Point(0, 0), Point(4, 2))`, "Point(x=2, y=1)", true, "Point(x=2, y=1)", ""},
		{`boom()`, "1", false, "", "ZeroDivisionError('division by zero')"},
		{`spin()`, "1", false, "", "time limit"},
		{`nothing()`, "1", false, "", "'nothing' is not defined"},
		{`count("a", "a")`, "[1", false, "", "expected does not parse"},
	}
	p := tpShared(t)
	for _, c := range cases {
		wall := 20.0 // generous on a loaded machine; only spin() reaches it
		if c.call == "spin()" {
			wall = 0.5
		}
		res, err := p.Check(tpCtx(t), trace.CheckRequest{Source: src, Call: c.call, Expected: c.expected, Limits: trace.Limits{WallSecs: wall}})
		if err != nil {
			t.Fatalf("%s: %v", c.call, err)
		}
		if res.OK != c.ok || res.Actual != c.actual || !strings.Contains(res.Error, c.err) || (c.err == "") != (res.Error == "") {
			t.Errorf("%s == %s: %+v, want ok=%v actual=%q error with %q", c.call, c.expected, res, c.ok, c.actual, c.err)
		}
	}
	res, err := p.Check(tpCtx(t), trace.CheckRequest{Source: "def f(:\n", Call: "f()", Expected: "1"})
	if err != nil || res.OK || !strings.Contains(res.Error, "syntax") {
		t.Errorf("syntax error: %+v, %v", res, err)
	}
}

// TestBoundedReprIsAPrefixOfRepr checks the tracer's bounded repr against
// Python's own repr on values where they must agree exactly.
func TestBoundedReprIsAPrefixOfRepr(t *testing.T) {
	python := tpShared(t).Python()
	script := `
import json, sys
ns = {"__name__": "ndb_tracer_under_test"}
exec(compile(sys.stdin.read(), "<ndb-tracer>", "exec"), ns)
brepr = ns["brepr"]
rec = [1]; rec.append(rec)
drec = {}; drec["me"] = drec
class Bad:
    def __repr__(self):
        raise ValueError("no")
class Plain:
    pass
values = ["", "abc", "it's", 'say "hi"', "both ' and \"", "a" * 300 + "'", "a" * 300 + "'" + '"',
          "x\n\t\\" * 100, "\u00e9\u4e2d" * 200, "\ud800", b"", b"bytes'", b"a" * 300 + b"'",
          b"\x00\xff" * 200, bytearray(b"ab'" * 100), bytearray(), [], [1, [2, [3]]], (), (1,), (1, 2),
          ((1,), [()]), {}, {1: "a", "b": [1, 2], (1, 2): {3}}, set(), {1, 2, 3}, frozenset(),
          frozenset({1}), rec, drec, [rec, drec], 10**300, -10**300, True, None, 1.5, range(10),
          list(range(1000)), {i: [i] * 3 for i in range(200)}, tuple("abc" * 100), [[[[[[]]]]]] * 50]
nested = []
for _ in range(500):
    nested = [nested]
values.append(nested)
fails = []
for v in values:
    for n in (1, 2, 5, 20, 200, 10000):
        want = repr(v)
        if len(want) > n:
            want = want[:n] + "..."
        got = brepr(v, n)
        if got != want:
            fails.append([repr(v)[:60], n, got[:80], want[:80]])
extra = {
    "huge int": (brepr(10**5000, 200), "<int with 5001 digits>"),
    "huge negative int": (brepr(-(10**6000), 200), "<negative int with 6001 digits>"),
    "failing repr": (brepr(Bad(), 200), "<repr failed: Bad>"),
    "failing element": (brepr([1, Bad()], 200), "[1, <repr failed: Bad>]"),
    "address": (brepr(Plain(), 200), "<__main__.Plain object>"),
    "huge str": (brepr("ab'" * 10**6, 8), "\"ab'ab'a..."),
}
for k, (got, want) in extra.items():
    if got != want:
        fails.append([k, 0, got, want])
print(json.dumps(fails))
`
	cmd := exec.Command(python, "-I", "-S", "-c", script)
	cmd.Stdin = strings.NewReader(trace.TracerSource())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var fails [][]any
	if err := json.Unmarshal(out, &fails); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, f := range fails {
		t.Errorf("value %v, limit %v:\n got %q\nwant %q", f[0], f[1], f[2], f[3])
	}
}
