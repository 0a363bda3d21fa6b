package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// Runner runs programs: *trace.Pool, whose workers trace and check under their limits.
type Runner interface {
	Record(ctx context.Context, path, source, entry string, limits trace.Limits) (*trace.Recording, error)
	Check(ctx context.Context, req trace.CheckRequest) (trace.CheckResult, error)
}

// The CruxEval tasks (the paper's Table 1 and Table A.2).
const (
	TaskInput      = "input"       // inv_step_call from the return state
	TaskStepReturn = "step_return" // step_return from the entry
	TaskBreakpoint = "breakpoint"  // breakpoint on the return line from the entry
)

// CruxTasks lists the tasks in table order.
var CruxTasks = []string{TaskInput, TaskStepReturn, TaskBreakpoint}

// CruxCase is one problem's three prompts and what the recorded run gave.
type CruxCase struct {
	Problem Problem
	Prompts map[string]Prompt
	Targets map[string]Next
	// ReturnExpr is the expression of the return statement the run ended with, which
	// the breakpoint task evaluates on the predicted locals.
	ReturnExpr string
}

// PrepareCrux traces every problem's entry call and builds its prompts: the entry's
// call state, the entry frame's return state, and the line of the return statement
// that ran. A problem that cannot be posed (its run does not return normally, its
// return line is not a plain `return EXPR`) is skipped and its reason returned.
func PrepareCrux(ctx context.Context, r Runner, problems []Problem, step func()) ([]CruxCase, map[string]string, error) {
	var cases []CruxCase
	skipped := map[string]string{}
	for _, p := range problems {
		c, why, err := prepareOne(ctx, r, p)
		if err != nil {
			return cases, skipped, err
		}
		if why != "" {
			skipped[p.ID] = why
		} else {
			cases = append(cases, c)
		}
		if step != nil {
			step()
		}
	}
	return cases, skipped, nil
}

func prepareOne(ctx context.Context, r Runner, p Problem) (CruxCase, string, error) {
	rec, err := r.Record(ctx, p.ID, p.Source, p.Entry, trace.Limits{})
	if err != nil {
		if ctx.Err() != nil {
			return CruxCase{}, "", err
		}
		return CruxCase{}, "cannot run: " + err.Error(), nil
	}
	fwd := rec.Forward
	if fwd.Nodes[0].Event != grammar.EventCall {
		return CruxCase{}, "the run does not start with a call", nil
	}
	ret, exit, err := fwd.Do(0, grammar.Action{Kind: grammar.StepReturn})
	if err != nil || exit || fwd.Nodes[ret].Event != grammar.EventReturn || fwd.Nodes[ret].Depth != 0 {
		return CruxCase{}, "the entry call does not return", nil
	}
	line := -1
	for i := ret - 1; i > 0; i-- {
		if n := fwd.Nodes[i]; n.Depth == 0 && n.Event == grammar.EventLine {
			line = i
			break
		}
	}
	if line < 0 {
		return CruxCase{}, "no line ran before the return", nil
	}
	src, _ := rec.Context.Src(fwd.Nodes[line].Loc)
	expr, ok := returnExpr(src)
	if !ok {
		return CruxCase{}, "the return line is not a plain return statement", nil
	}
	bp := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{fwd.Nodes[line].Loc}}
	bj, bexit, err := fwd.Do(0, bp)
	if err != nil || bexit {
		return CruxCase{}, "the breakpoint is not reached", nil
	}
	inv := fwd.Inverse()
	if inv.Nodes[0].Event != grammar.EventReturn {
		return CruxCase{}, "the inverse tree does not start at the return", nil
	}
	cj, _, err := inv.Do(0, grammar.Action{Kind: grammar.InvStepCall})
	if err != nil {
		return CruxCase{}, "inv_step_call: " + err.Error(), nil
	}
	call := fwd.Nodes[0].State()
	c := CruxCase{
		Problem:    p,
		ReturnExpr: expr,
		Prompts: map[string]Prompt{
			TaskInput:      {Context: rec.Context, Entry: p.Entry, Direction: grammar.Inverse, Start: inv.Nodes[0].State(), Action: grammar.Action{Kind: grammar.InvStepCall}},
			TaskStepReturn: {Context: rec.Context, Entry: p.Entry, Direction: grammar.Forward, Start: call, Action: grammar.Action{Kind: grammar.StepReturn}},
			TaskBreakpoint: {Context: rec.Context, Entry: p.Entry, Direction: grammar.Forward, Start: call, Action: bp},
		},
		Targets: map[string]Next{
			TaskInput:      {State: inv.Nodes[cj].State()},
			TaskStepReturn: {State: fwd.Nodes[ret].State()},
			TaskBreakpoint: {State: fwd.Nodes[bj].State()},
		},
	}
	return c, "", nil
}

// returnExpr is the expression of a source line `NNN|     return EXPR` ("None" for a
// bare return).
func returnExpr(src string) (string, bool) {
	if i := strings.Index(src, "| "); i >= 0 {
		src = src[i+2:]
	}
	s := strings.TrimSpace(src)
	if s == "return" {
		return "None", true
	}
	if !strings.HasPrefix(s, "return ") && !strings.HasPrefix(s, "return(") && !strings.HasPrefix(s, "return[") {
		return "", false
	}
	return strings.TrimSpace(s[len("return"):]), true
}

// CruxScore is one predictor's results on the problems.
type CruxScore struct {
	Name       string
	N          int
	Pass       map[string]int // passes by execution, per task
	InputExact int            // input predictions equal to the recorded input
	Undecoded  map[string]int // per task
	Invented   int            // predictions naming a line or local the program does not have
}

func newCruxScore(name string) *CruxScore {
	return &CruxScore{Name: name, Pass: map[string]int{}, Undecoded: map[string]int{}}
}

// CruxResult holds every predictor's scores, the recorded states' scores first when
// asked for (how many problems the scoring itself can pass), every prediction as
// scored, and the skipped problems.
type CruxResult struct {
	Scores      []*CruxScore
	Predictions []CruxPrediction
	Skipped     map[string]string
	Total       int // problems read
}

// CruxPrediction is one prediction of one task as it was scored (a line of
// predictions.jsonl): the expression run against the problem's output.
type CruxPrediction struct {
	Predictor string `json:"predictor"`
	Problem   string `json:"problem"`
	Task      string `json:"task"`
	// Call is the expression compared with the output: f(predicted input), the
	// predicted return value, or the return expression on the predicted locals; ""
	// when the prediction gave nothing to run (undecoded, another event, an exit).
	Call      string `json:"call"`
	Pass      bool   `json:"pass"`
	Undecoded bool   `json:"undecoded,omitempty"`
}

// RecordedName labels the row that scores the recorded states themselves.
const RecordedName = "recorded states (the scoring's upper bound)"

// RunCrux predicts the three tasks of every case greedily with every predictor and
// scores them by execution through r; with recorded, a first row scores the recorded
// states. step is called after each problem and predictor.
func RunCrux(ctx context.Context, r Runner, cases []CruxCase, preds []Predictor, recorded bool, step func()) (*CruxResult, error) {
	res := &CruxResult{}
	if recorded {
		s := newCruxScore(RecordedName)
		res.Scores = append(res.Scores, s)
		for _, c := range cases {
			for _, task := range CruxTasks {
				if err := res.score(ctx, r, c, task, Prediction{Next: c.Targets[task]}, s); err != nil {
					return res, err
				}
			}
			s.N++
		}
	}
	for _, p := range preds {
		s := newCruxScore(p.Name())
		res.Scores = append(res.Scores, s)
		for _, c := range cases {
			for _, task := range CruxTasks {
				out, err := p.Predict(ctx, c.Prompts[task], 1)
				if err != nil {
					return res, fmt.Errorf("%s: %w", p.Name(), err)
				}
				if err := res.score(ctx, r, c, task, out[0], s); err != nil {
					return res, err
				}
			}
			s.N++
			if step != nil {
				step()
			}
		}
	}
	return res, nil
}

// score scores one prediction of one task into s and keeps it.
func (res *CruxResult) score(ctx context.Context, r Runner, c CruxCase, task string, p Prediction, s *CruxScore) error {
	call, pass, err := scoreCrux(ctx, r, c, task, p, s)
	res.Predictions = append(res.Predictions, CruxPrediction{
		Predictor: s.Name, Problem: c.Problem.ID, Task: task, Call: call, Pass: pass, Undecoded: p.Undecoded,
	})
	return err
}

// scoreCrux scores one prediction of one task into s: the expression it ran against
// the output, and whether they were equal.
func scoreCrux(ctx context.Context, r Runner, c CruxCase, task string, p Prediction, s *CruxScore) (string, bool, error) {
	if p.Invented {
		s.Invented++
	}
	if p.Undecoded {
		s.Undecoded[task]++
		return "", false, nil
	}
	st := p.State
	var call string
	switch task {
	case TaskInput:
		if p.Exit != "" || st.Event != grammar.EventCall {
			return "", false, nil
		}
		if st.Locals.Equal(c.Targets[task].State.Locals) {
			s.InputExact++
		}
		args := make([]string, len(st.Locals))
		for i, v := range st.Locals {
			args[i] = v.Repr
		}
		call = c.Problem.Func() + "(" + strings.Join(args, ", ") + ")"
	case TaskStepReturn:
		if p.Exit != "" || st.Event != grammar.EventReturn {
			return "", false, nil
		}
		call = st.Value
	case TaskBreakpoint:
		if p.Exit != "" || !st.Event.HasLocals() {
			return "", false, nil
		}
		call = evalOn(c.ReturnExpr, st.Locals)
	}
	ok, err := check(ctx, r, c.Problem, call)
	if err != nil {
		return call, false, err
	}
	if ok {
		s.Pass[task]++
	}
	return call, ok, nil
}

// evalOn is a Python expression that evaluates expr with the given locals bound:
// (lambda a, b: expr)(repr_a, repr_b). Variables whose name is not an identifier, or
// that expr does not name, are left out: a local the return does not read cannot
// change its value, and its repr need not be Python (`<map object>` stands for the
// recorded value of `m = map(str.upper, s)` too). A name is kept wherever it stands
// as a word in expr, strings (f-strings) included, so no local expr reads is lost.
func evalOn(expr string, locals grammar.Locals) string {
	var names, vals []string
	for _, v := range locals {
		if isIdent(v.Name) && namesWord(expr, v.Name) {
			names = append(names, v.Name)
			vals = append(vals, v.Repr)
		}
	}
	return "(lambda " + strings.Join(names, ", ") + ": (" + expr + "))(" + strings.Join(vals, ", ") + ")"
}

// namesWord reports whether name stands in expr as a whole word: not inside a longer
// identifier.
func namesWord(expr, name string) bool {
	for i := 0; ; {
		j := strings.Index(expr[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !identByte(expr[start-1])) && (end == len(expr) || !identByte(expr[end])) {
			return true
		}
		i = start + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// check runs `expected == call` in the problem's program through the workers: a
// program or call that fails, or a prediction that is not Python, is a miss.
func check(ctx context.Context, r Runner, p Problem, call string) (bool, error) {
	res, err := r.Check(ctx, trace.CheckRequest{Source: p.Source, Call: call, Expected: p.Output})
	if err != nil {
		if ctx.Err() != nil {
			return false, err
		}
		return false, nil // a worker that died or overran: the prediction fails
	}
	return res.OK && res.Error == "", nil
}

// Paper is a published row of Table 1 and Table A.2 (percent).
type Paper struct {
	Name                                          string
	InputPass, InputExact, StepReturn, Breakpoint float64
}

// PaperCrux are the paper's CruxEval results (greedy, pass@1; input exact@1 from
// Table A.2), on all 800 problems.
var PaperCrux = []Paper{
	{"paper: 1.8B trace-only, 50B tokens", 40.7, 14.3, 34.4, 44.9},
	{"paper: 1.8B trace-only, 150B tokens", 53.6, 17.7, 48.0, 57.7},
	{"paper: CWM 32B fine-tuned", 66.5, 23.1, 77.9, 83.2},
}

// Table is the CruxEval table: a row per predictor, then the paper's rows.
func (r *CruxResult) Table() *Table {
	t := &Table{
		Title:  "CruxEval input and output prediction: pass@1 % (greedy)",
		Header: []string{"predictor", "n", "input pass@1", "input exact@1", "output step_return pass@1", "output breakpoint pass@1", "undecoded (in/ret/bp)", "invented"},
	}
	for _, s := range r.Scores {
		t.Rows = append(t.Rows, []string{
			s.Name, fmt.Sprint(s.N),
			ratio(s.Pass[TaskInput], s.N), ratio(s.InputExact, s.N),
			ratio(s.Pass[TaskStepReturn], s.N), ratio(s.Pass[TaskBreakpoint], s.N),
			fmt.Sprintf("%d/%d/%d", s.Undecoded[TaskInput], s.Undecoded[TaskStepReturn], s.Undecoded[TaskBreakpoint]),
			fmt.Sprint(s.Invented),
		})
	}
	for _, p := range PaperCrux {
		t.Rows = append(t.Rows, []string{p.Name, "800",
			fmt.Sprintf("%.1f", p.InputPass), fmt.Sprintf("%.1f", p.InputExact),
			fmt.Sprintf("%.1f", p.StepReturn), fmt.Sprintf("%.1f", p.Breakpoint), "", ""})
	}
	t.Notes = append(t.Notes,
		"input: inv_step_call from the return state, passes when f(predicted input) == output;",
		"exact@1: the predicted input equals the recorded one; step_return: the predicted return",
		"value == output; breakpoint: the return expression evaluated on the locals predicted at",
		"the return line (those it names) == output. Undecoded predictions count as misses. invented: predictions",
		"(of the three tasks) with a line or local name the program does not have.")
	if len(r.Skipped) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d of %d problems skipped (cannot be posed): %s", len(r.Skipped), r.Total, skippedList(r.Skipped)))
	}
	return t
}

func skippedList(m map[string]string) string {
	var parts []string
	for id, why := range m {
		parts = append(parts, id+": "+why)
	}
	sortStrings(parts)
	if len(parts) > 5 {
		parts = append(parts[:5], "...")
	}
	return strings.Join(parts, "; ")
}

// Plot draws crux.png: the tasks' scores per predictor beside the paper's.
func (r *CruxResult) Plot(dir string) ([]string, error) {
	cats := []string{"input pass@1", "input exact@1", "step_return", "breakpoint"}
	var ss []series
	for _, s := range r.Scores {
		if s.N == 0 || s.Name == RecordedName {
			continue
		}
		f := func(k int) float64 { return 100 * float64(k) / float64(s.N) }
		ss = append(ss, series{shortName(s.Name), []float64{f(s.Pass[TaskInput]), f(s.InputExact), f(s.Pass[TaskStepReturn]), f(s.Pass[TaskBreakpoint])}})
	}
	for _, p := range []Paper{PaperCrux[0], PaperCrux[2]} {
		ss = append(ss, series{p.Name, []float64{p.InputPass, p.InputExact, p.StepReturn, p.Breakpoint}})
	}
	p, err := barChart("CruxEval: input and output prediction (greedy)", "%", cats, ss)
	if err != nil {
		return nil, err
	}
	path, err := savePNG(p, dir, "cruxeval.png")
	if err != nil {
		return nil, err
	}
	return []string{path}, nil
}
