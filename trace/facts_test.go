package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/train/synth"
)

// hardPrograms defeat a static analysis: dynamic calls, generators, decorators,
// implicit dunder and property calls, every kind of control flow edge.
var hardPrograms = []struct{ src, entry string }{
	{`def a(x):
    return x + 1

def f(n):
    g = globals()["a"]
    exec("y = 2")
    return getattr(__builtins__, "abs")(g(n))
`, "f(-3)"},
	{`def gen(n):
    for i in range(n):
        x = yield i
        if x:
            return
    yield -1

def f(n):
    total = 0
    for v in gen(n):
        total += v
    g = gen(2)
    next(g)
    try:
        g.send(1)
    except StopIteration:
        total -= 1
    return total
`, "f(3)"},
	{`import functools

def trace(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args) * 2
    return wrapper

@trace
def double(x):
    return x + 1

def f(n):
    return [double(i) for i in range(n)]
`, "f(3)"},
	{`class P:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
    def __repr__(self):
        return "P(%d)" % self.v
    @property
    def half(self):
        return self.v // 2

def f(xs):
    ps = sorted(P(x) for x in xs)
    return [p.half for p in ps]
`, "f([3, 1, 2])"},
	{`def f(n):
    out = []
    i = 0
    while True:
        i += 1
        if i % 2:
            continue
        if i > n:
            break
        try:
            out.append(10 // (i - 4))
        except ZeroDivisionError as e:
            out.append(-1)
        finally:
            out.append(0)
    with open("/dev/null") as fh:
        pass
    for k in range(3):
        if k == 1:
            break
    else:
        out.append(9)
    return out
`, "f(8)"},
	{`def inner(x):
    if x > 2:
        raise ValueError(x)
    return x

def outer(xs):
    s = 0
    for x in xs:
        try:
            s += inner(x)
        except ValueError:
            s -= 1
            raise
    return s

def f(xs):
    try:
        return outer(xs)
    except ValueError as e:
        return str(e)
`, "f([1, 2, 3])"},
	{`def make(k):
    def add(x):
        return x + k
    return add

def f(n):
    g = make(n)
    h = lambda y: g(y) * 2
    return list(map(h, range(n))) + [g(1) for _ in range(2)]
`, "f(3)"},
	{`def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

class Acc:
    total = 0
    def add(self, v):
        self.total += v
        return self

def f(n):
    a = Acc()
    for i in range(n):
        a.add(fact(i)).add(1)
    return a.total
`, "f(4)"},
}

// factsPrograms are the soundness test's programs: the testdata programs, the hard
// programs above and n generated ones.
func factsPrograms(t *testing.T, n int) []struct{ name, src, entry string } {
	var out []struct{ name, src, entry string }
	for _, p := range testPrograms(t) {
		src, err := os.ReadFile(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct{ name, src, entry string }{p.Name, string(src), p.Entry})
	}
	for i, p := range hardPrograms {
		out = append(out, struct{ name, src, entry string }{"hard" + strconv.Itoa(i), p.src, p.entry})
	}
	g := synth.NewGenerator(12, synth.Options{})
	for i := 0; i < n; i++ {
		p := g.Next()
		out = append(out, struct{ name, src, entry string }{"synth" + strconv.Itoa(i), p.Source, p.Entry})
	}
	return out
}

// TestFactsAreSound replays every transition of every recorded node through the
// constrained automaton: each forward action from each forward node (a breakpoint on
// all executable lines and on single lines), each inverse action from each inverse
// node. The state the real run reaches must always be accepted.
func TestFactsAreSound(t *testing.T) {
	n := 170 // over 10,000 transitions of each action
	if testing.Short() {
		n = 30
	}
	if s := os.Getenv("NDB_FACTS_PROGRAMS"); s != "" {
		n, _ = strconv.Atoi(s) // a longer run by hand
	}
	counts := map[grammar.ActionKind]int{}
	rejected := 0
	var ruled, marked int // transitions under a locals rule, and a forced marker
	branched := 0         // transitions whose successors the branch rule chose
	returned := 0         // step_returns whose return value the value facts forced
	assigned := 0         // steps whose assignment the value facts computed
	inverseRules := ruleCounts{}
	rng := rand.New(rand.NewPCG(12, 12))
	for _, p := range factsPrograms(t, n) {
		rec, prog := recordFacts(t, p.name, p.src, p.entry)
		var all []grammar.Loc
		for _, l := range rec.Parsed.Executable {
			all = append(all, grammar.Loc{Line: l})
		}
		check := func(tr *Tree, i int, a grammar.Action) {
			counts[a.Kind]++
			prev := tr.Nodes[i].State()
			tg := prog.Targets(&prev, a)
			if tg.BranchRule() {
				branched++
			}
			if a.Kind == grammar.StepReturn && tg.ReturnRule() {
				returned++
			}
			if tg.AssignRule() {
				assigned++
			}
			if l, m := tg.ValueRule(); l && !a.Kind.Inverse() {
				ruled++
				if m {
					marked++
				}
			}
			j, exit, err := tr.Do(i, a)
			if err == ErrAtStart {
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			if a.Kind.Inverse() && !exit {
				inverseRules.note(a.Kind, tg, tr.Nodes[j].Event)
			}
			if msg := acceptTransition(prog, rec.Context, tr, i, j, exit, a); msg != "" {
				rejected++
				if rejected <= 10 {
					t.Errorf("%s: node %d (%s %d) %s -> %s", p.name, i, tr.Nodes[i].Event, tr.Nodes[i].Loc.Line, a.Kind, msg)
				}
			}
		}
		fwd := rec.Forward
		for i := range fwd.Nodes {
			for _, k := range []grammar.ActionKind{grammar.StepInto, grammar.StepOver, grammar.StepReturn, grammar.Continue} {
				check(fwd, i, grammar.Action{Kind: k})
			}
			if len(all) > 0 {
				check(fwd, i, grammar.Action{Kind: grammar.Breakpoint, Lines: all})
				for k := 0; k < 2; k++ {
					check(fwd, i, grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{all[rng.IntN(len(all))]}})
				}
			}
		}
		inv := fwd.Inverse()
		for i := range inv.Nodes {
			for _, k := range []grammar.ActionKind{grammar.InvStepInto, grammar.InvStepOver, grammar.InvStepCall} {
				check(inv, i, grammar.Action{Kind: k})
			}
		}
	}
	t.Logf("transitions replayed: %v; rejected %d; under a locals rule %d (marker forced %d); under the branch rule %d; step_returns under the return rule %d; steps under the assignment rule %d", counts, rejected, ruled, marked, branched, returned, assigned)
	t.Logf("inverse value rules (transitions whose real target they narrowed): %s", inverseRules)
	if rejected > 0 {
		t.Fatalf("%d real transitions rejected by the facts", rejected)
	}
	for _, k := range []string{"inv_step_into/locals", "inv_step_into/marker", "inv_step_over/locals", "inv_step_call/call", "inv_step_into/entry"} {
		if inverseRules[k] == 0 {
			t.Errorf("the inverse value rule %s never applied", k)
		}
	}
	if ruled == 0 || marked == 0 {
		t.Errorf("the value facts never narrowed a line state (%d, %d)", ruled, marked)
	}
	if branched == 0 {
		t.Errorf("the branch rule never chose a branch")
	}
	if returned == 0 {
		t.Errorf("the return rule never forced a step_return's value")
	}
	if !testing.Short() {
		for _, k := range grammar.AllActions {
			if counts[k] < 10000 {
				t.Errorf("%s: only %d transitions replayed (want 10,000)", k, counts[k])
			}
		}
	}
}

// acceptTransition feeds the text of the state reached (j, or the exit) after action
// a from node i to the automaton under the program's targets; "" when accepted.
func acceptTransition(prog *grammar.Program, ctx grammar.Context, tr *Tree, i, j int, exit bool, a grammar.Action) string {
	prev := tr.Nodes[i].State()
	e := grammar.NewEncoder(ctx, tr.Dir)
	if _, err := e.Start(prev); err != nil {
		return "encode: " + err.Error()
	}
	if _, err := e.Action(a); err != nil {
		return "encode: " + err.Error()
	}
	var text string
	var err error
	what := "exit"
	if exit {
		text, err = e.Exit(tr.Exit)
	} else {
		next := tr.Nodes[j].State()
		what = fmt.Sprintf("%s %d %v", next.Event, next.Loc.Line, next.Locals)
		text, err = e.State(next)
	}
	if err != nil {
		return "encode: " + err.Error()
	}
	if !accepts(prog, ctx, tr.Dir, prev, a, text) {
		return what + ": rejected"
	}
	return ""
}

// TestFactsAcceptCorpus replays the held-out trajectories of a corpus (the file in
// NDB_FACTS_CORPUS, a corpus's eval.jsonl; skipped without it) through the automaton
// under each trajectory's program facts: every recorded next state must be accepted.
// Contexts of several files and files of a repository (excerpts of modules, with a
// path) have no facts and are counted apart.
func TestFactsAcceptCorpus(t *testing.T) {
	path := os.Getenv("NDB_FACTS_CORPUS")
	if path == "" {
		t.Skip("NDB_FACTS_CORPUS names no corpus eval.jsonl")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pool := testPool(t)
	entries := corpusEntries(t, filepath.Join(filepath.Dir(path), "eval_programs.jsonl"))
	progs := map[string]*grammar.Program{}
	counts := map[grammar.ActionKind]int{}
	rejected, noFacts, branched, returned, stopped, assigned := 0, 0, 0, 0, 0, 0
	inverseRules := ruleCounts{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			Program string `json:"program"`
			Text    string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		tr, err := grammar.DecodeTrajectory(rec.Text)
		if err != nil {
			continue
		}
		entry := entries[rec.Program]
		key := tr.Context.Text() + "\x00" + entry
		prog, seen := progs[key]
		if !seen && len(tr.Context.Files) == 1 && tr.Context.Files[0].Path == "" {
			var src strings.Builder
			n := 1
			for _, l := range tr.Context.Files[0].Lines {
				for ; n < l.N; n++ {
					src.WriteByte('\n')
				}
				src.WriteString(l.Text + "\n")
				n++
			}
			parsed, err := pool.Parse(context.Background(), ParseRequest{Source: src.String(), Entry: entry})
			if err == nil && parsed.Facts != nil {
				prog, _ = grammar.NewProgram(tr.Context, parsed.Facts)
			}
			progs[key] = prog
		}
		if prog == nil {
			noFacts++
			continue
		}
		prev := tr.Start
		for _, st := range tr.Steps {
			counts[st.Action.Kind]++
			e := grammar.NewEncoder(tr.Context, tr.Direction)
			e.Start(prev)
			e.Action(st.Action)
			var text string
			if st.Exit != "" {
				text, err = e.Exit(st.Exit)
			} else {
				text, err = e.State(st.State)
			}
			if err != nil {
				t.Fatal(err)
			}
			tg := prog.Targets(&prev, st.Action)
			if tg.BranchRule() {
				branched++
			}
			if st.Action.Kind == grammar.StepReturn && tg.ReturnRule() {
				returned++
			}
			if l, _ := tg.ValueRule(); st.Action.Kind == grammar.Breakpoint && l {
				stopped++
			}
			if tg.AssignRule() {
				assigned++
			}
			if st.Action.Kind.Inverse() && st.Exit == "" {
				inverseRules.note(st.Action.Kind, tg, st.State.Event)
			}
			au := grammar.NewAutomaton(tr.Context, tr.Direction, &prev, st.Action.Kind, tg, grammar.Limits{MaxRepr: 1 << 20, MaxVars: 1 << 10, MaxKey: 1 << 10})
			if !au.FeedText(text) || !au.Done() {
				rejected++
				if rejected <= 10 {
					t.Errorf("%s from %s %d: %q rejected", st.Action.Kind, prev.Event, prev.Loc.Line, text)
				}
			}
			if st.Exit != "" {
				break
			}
			prev = st.State
		}
	}
	t.Logf("corpus transitions replayed: %v; rejected %d; %d trajectories without facts; %d under the branch rule; %d step_returns under the return rule; %d breakpoints under the locals rule (%d programs' entries known); %d steps under the assignment rule", counts, rejected, noFacts, branched, returned, stopped, len(entries), assigned)
	t.Logf("inverse value rules (transitions whose real target they narrowed): %s", inverseRules)
	if rejected > 0 {
		t.Fatalf("%d recorded transitions rejected", rejected)
	}
}

// corpusEntries reads the entry of each program of a corpus's programs file (a
// missing file gives none: the facts then know no entry).
func corpusEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var p struct {
			ID    string `json:"id"`
			Entry string `json:"entry"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		out[p.ID] = p.Entry
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// ruleCounts counts, per inverse action and value rule, the transitions whose real
// target the rule narrowed: "locals" (a line state under the locals rule), "marker"
// (the marker forced too) or "full" (the full form certain), "call", "entry" and
// "return" (a call state's values).
type ruleCounts map[string]int

func (rc ruleCounts) note(k grammar.ActionKind, tg *grammar.Targets, ev grammar.Event) {
	switch l, m := tg.ValueRule(); {
	case ev == grammar.EventLine && l:
		rc[k.String()+"/locals"]++
		if m {
			rc[k.String()+"/marker"]++
		}
		if tg.FullForm() {
			rc[k.String()+"/full"]++
		}
	case ev == grammar.EventCall && tg.CallRule() == "inv_step_call":
		rc[k.String()+"/call"]++
	case ev == grammar.EventCall && tg.CallRule() != "":
		rc[k.String()+"/"+tg.CallRule()]++ // "entry", or "return" (from a return state)
	}
}

func (rc ruleCounts) String() string {
	keys := make([]string, 0, len(rc))
	for k := range rc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", k, rc[k])
	}
	return b.String()
}
