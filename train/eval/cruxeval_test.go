package eval

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// twoProblems is a CruxEval file of two problems; the second has many inputs that
// give its output, and returns an expression.
const twoProblems = `{"code": "def f(s, t):\n    n = 0\n    for c in s:\n        if c == t:\n            n += 1\n    return n", "input": "'berry', 'r'", "output": "2", "id": "sample_count"}
{"code": "def f(xs):\n    ys = sorted(xs)\n    return ys[0] * 2", "input": "[3, 1, 2]", "output": "2", "id": "sample_min"}
`

// oracle answers every prompt with the recorded outcome.
type oracle struct{ cases []CruxCase }

func (oracle) Name() string { return "oracle" }

func (o oracle) Predict(_ context.Context, p Prompt, n int) ([]Prediction, error) {
	for _, c := range o.cases {
		for task, q := range c.Prompts {
			if q.Context.Equal(p.Context) && q.Start.Equal(p.Start) && q.Action.Equal(p.Action) {
				return []Prediction{{Next: c.Targets[task]}}, nil
			}
		}
	}
	return []Prediction{{Undecoded: true}}, nil
}

// fixed answers every prompt with the same prediction.
type fixed struct {
	name string
	p    Prediction
}

func (f fixed) Name() string { return f.name }
func (f fixed) Predict(context.Context, Prompt, int) ([]Prediction, error) {
	return []Prediction{f.p}, nil
}

func newPool(t *testing.T) *trace.Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: 1})
	if err != nil {
		t.Skipf("no tracer: %v", err)
	}
	t.Cleanup(func() { pool.Close() })
	return pool
}

// TestCruxEvalScoresByExecution: an oracle scores 100% on every task; another input
// that gives the same output passes by execution without being an exact match; a
// model output that does not decode is a miss and is counted.
func TestCruxEvalScoresByExecution(t *testing.T) {
	ctx := context.Background()
	pool := newPool(t)
	problems, err := LoadProblems(strings.NewReader(twoProblems), 0)
	if err != nil || len(problems) != 2 {
		t.Fatalf("load: %v (%d problems)", err, len(problems))
	}
	cases, skipped, err := PrepareCrux(ctx, pool, problems, nil)
	if err != nil || len(cases) != 2 {
		t.Fatalf("prepare: %v, %d cases, skipped %v", err, len(cases), skipped)
	}
	if cases[1].ReturnExpr != "ys[0] * 2" {
		t.Errorf("return expression %q", cases[1].ReturnExpr)
	}
	other := Prediction{Next: Next{State: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1},
		Locals: grammar.Locals{{Name: "xs", Repr: "[1, 5]"}}}}}
	preds := []Predictor{oracle{cases}, fixed{"undecoded", Prediction{Undecoded: true}}, fixed{"other input", other}}
	res, err := RunCrux(ctx, pool, cases, preds, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Scores[:2] { // the recorded states and the oracle
		for _, task := range CruxTasks {
			if s.Pass[task] != 2 {
				t.Errorf("%s %s: %d of 2 pass", s.Name, task, s.Pass[task])
			}
		}
		if s.InputExact != 2 {
			t.Errorf("%s: input exact %d of 2", s.Name, s.InputExact)
		}
	}
	bad := res.Scores[2]
	for _, task := range CruxTasks {
		if bad.Pass[task] != 0 || bad.Undecoded[task] != 2 {
			t.Errorf("undecoded %s: %d pass, %d undecoded; want 0 and 2", task, bad.Pass[task], bad.Undecoded[task])
		}
	}
	alt := res.Scores[3]
	if alt.Pass[TaskInput] != 1 || alt.InputExact != 0 {
		t.Errorf("f([1, 5]) == 2 on the second problem only: pass %d, exact %d; want 1, 0", alt.Pass[TaskInput], alt.InputExact)
	}
	md := res.Table().Markdown()
	for _, want := range []string{"| oracle | 2 | 100.0 | 100.0 | 100.0 | 100.0 | 0/0/0 |", "| undecoded | 2 | 0.0 | 0.0 | 0.0 | 0.0 | 2/2/2 |", "paper: CWM 32B fine-tuned | 800 | 66.5 | 23.1 | 77.9 | 83.2"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if paths, err := res.Plot(t.TempDir()); err != nil || len(paths) != 1 {
		t.Errorf("plot: %v %v", paths, err)
	}
	// Every prediction is kept as scored: 4 predictors x 2 problems x 3 tasks.
	if len(res.Predictions) != 24 {
		t.Fatalf("%d predictions kept, want 24", len(res.Predictions))
	}
	for _, p := range res.Predictions {
		switch {
		case p.Predictor == "undecoded" && (p.Pass || !p.Undecoded || p.Call != ""):
			t.Errorf("an undecoded prediction kept as %+v", p)
		case p.Predictor == "oracle" && (!p.Pass || p.Call == ""):
			t.Errorf("an oracle prediction kept as %+v", p)
		case p.Predictor == "other input" && p.Task == TaskInput && p.Call != "f([1, 5])":
			t.Errorf("the other input kept as %+v, want the call f([1, 5])", p)
		}
	}
	path, err := WriteJSONL(t.TempDir(), "predictions.jsonl", res.Predictions)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(data), "\n"); lines != 24 || !strings.Contains(string(data), `"call":"f([1, 5])"`) {
		t.Errorf("predictions.jsonl has %d lines:\n%s", lines, data)
	}
}

// TestHorizonFractions: jumps from the call skip the whole function (fraction 1),
// the oracle matches at every k, and the table has a row per task and bin.
func TestHorizonFractions(t *testing.T) {
	ctx := context.Background()
	pool := newPool(t)
	problems, _ := LoadProblems(strings.NewReader(twoProblems), 1)
	cases, err := PrepareHorizon(ctx, pool, problems, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if c.Fraction < 0 || c.Fraction > 1 {
			t.Errorf("%s: fraction %v", c.Task, c.Fraction)
		}
		seen[c.Task] = true
	}
	if len(seen) != 3 {
		t.Fatalf("tasks %v, want input, step_return and breakpoint", seen)
	}
	truth := horizonOracle{cases}
	res, err := RunHorizon(ctx, cases, truth, Baseline{}, []int{1, 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for task, cells := range res.Cells {
		for i, c := range cells {
			if c.Hits[1] != c.N || c.Hits[5] != c.N {
				t.Errorf("%s bin %d: oracle hits %v of %d", task, i, c.Hits, c.N)
			}
		}
	}
	if len(res.Table().Rows) != len(cases) { // one problem: one case per task and bin
		t.Errorf("%d rows for %d cases", len(res.Table().Rows), len(cases))
	}
	if paths, err := res.Plot(t.TempDir()); err != nil || len(paths) != 3 {
		t.Errorf("plots: %v %v", paths, err)
	}
}

type horizonOracle struct{ cases []HorizonCase }

func (horizonOracle) Name() string { return "oracle" }

func (o horizonOracle) Predict(_ context.Context, p Prompt, n int) ([]Prediction, error) {
	for _, c := range o.cases {
		if c.Prompt.Start.Equal(p.Start) && c.Prompt.Action.Equal(p.Action) && c.Prompt.Direction == p.Direction {
			out := make([]Prediction, n)
			for i := range out {
				out[i] = Prediction{Next: c.Target}
			}
			return out, nil
		}
	}
	return make([]Prediction, n), nil
}

// The breakpoint task evaluates the return expression on the locals it names: a local
// it does not read, whose recorded repr is no Python (`<map object>`), leaves the
// recorded state passing, where a wrong value of a local it reads still fails.
func TestCruxEvalBreakpointReadsTheNamedLocals(t *testing.T) {
	ctx := context.Background()
	pool := newPool(t)
	const problem = `{"code": "def f(s, k):\n    it = map(str.upper, s)\n    sk = s * k\n    return s.lower() + f'{k}'", "input": "'AbC', 2", "output": "'abc2'", "id": "sample_map"}` + "\n"
	problems, err := LoadProblems(strings.NewReader(problem), 0)
	if err != nil {
		t.Fatal(err)
	}
	cases, skipped, err := PrepareCrux(ctx, pool, problems, nil)
	if err != nil || len(cases) != 1 {
		t.Fatalf("prepare: %v, %d cases, skipped %v", err, len(cases), skipped)
	}
	truth := cases[0].Targets[TaskBreakpoint].State
	if got := evalOn(cases[0].ReturnExpr, truth.Locals); got != "(lambda s, k: (s.lower() + f'{k}'))('AbC', 2)" {
		t.Errorf("the recorded stop is evaluated as %s", got)
	}
	wrongK := truth
	wrongK.Locals = slices.Clone(truth.Locals)
	for i := range wrongK.Locals {
		if wrongK.Locals[i].Name == "k" {
			wrongK.Locals[i].Repr = "3"
		}
	}
	res, err := RunCrux(ctx, pool, cases, []Predictor{fixed{"k wrong", Prediction{Next: Next{State: wrongK}}}}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec := res.Scores[0]; rec.Pass[TaskBreakpoint] != 1 {
		t.Errorf("the recorded states pass %d of 1 breakpoints", rec.Pass[TaskBreakpoint])
	}
	if bad := res.Scores[1]; bad.Pass[TaskBreakpoint] != 0 {
		t.Errorf("k = 3, read inside the f-string, passes the breakpoint")
	}
}
