package eval

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// HorizonBins is the number of bins of the skipped fraction: [0, 0.2), ..., [0.8, 1].
const HorizonBins = 5

// HorizonKs are the paper's sampling budgets (Figure 8).
var HorizonKs = []int{1, 5, 10, 20, 50}

// HorizonCase is one jump to predict: from a state of the entry call to the task's
// target, skipping Fraction of the call's intermediate states.
type HorizonCase struct {
	Task     string
	Fraction float64
	Prompt   Prompt
	Target   Next
}

// Bin is the case's bin of the skipped fraction.
func (c HorizonCase) Bin() int { return min(int(c.Fraction*HorizonBins), HorizonBins-1) }

// PrepareHorizon traces every problem and draws, for each task and each bin of the
// skipped fraction, one starting state of the entry call (seeded): the jump from it
// skips that fraction of the states between the call and its return. Tasks:
// step_return (to the entry's return), breakpoint on the return line, and input
// (inv_step_call back to the call, in the inverse tree). The fraction is the number of
// states strictly between start and target over the number between the call and the
// return (in the inverse tree for input), so 1 is a jump across the whole function
// (the CruxEval prompts) and near 0 a single step. Problems that cannot be posed are
// left out.
func PrepareHorizon(ctx context.Context, r Runner, problems []Problem, seed uint64, step func()) ([]HorizonCase, error) {
	rng := rand.New(rand.NewPCG(seed, 0x686f72))
	var cases []HorizonCase
	for _, p := range problems {
		if step != nil {
			step()
		}
		rec, err := r.Record(ctx, p.ID, p.Source, p.Entry, trace.Limits{})
		if err != nil {
			if ctx.Err() != nil {
				return cases, err
			}
			continue
		}
		fwd := rec.Forward
		ret, exit, err := fwd.Do(0, grammar.Action{Kind: grammar.StepReturn})
		if err != nil || exit || fwd.Nodes[0].Event != grammar.EventCall || fwd.Nodes[ret].Event != grammar.EventReturn || fwd.Nodes[ret].Depth != 0 || ret < 2 {
			continue
		}
		total := float64(ret - 1)
		line := -1
		for i := ret - 1; i > 0; i-- {
			if n := fwd.Nodes[i]; n.Depth == 0 && n.Event == grammar.EventLine {
				line = i
				break
			}
		}
		bins := func(cands []HorizonCase) {
			var byBin [HorizonBins][]HorizonCase
			for _, c := range cands {
				byBin[c.Bin()] = append(byBin[c.Bin()], c)
			}
			for _, b := range byBin {
				if len(b) > 0 {
					cases = append(cases, b[rng.IntN(len(b))])
				}
			}
		}
		var sr, bp []HorizonCase
		for s := 0; s < ret; s++ {
			n := fwd.Nodes[s]
			if n.Depth != 0 {
				continue
			}
			start := n.State()
			sr = append(sr, HorizonCase{Task: TaskStepReturn, Fraction: float64(ret-s-1) / total,
				Prompt: Prompt{Context: rec.Context, Entry: p.Entry, Direction: grammar.Forward, Start: start, Action: grammar.Action{Kind: grammar.StepReturn}},
				Target: Next{State: fwd.Nodes[ret].State()}})
			if line > s {
				a := grammar.Action{Kind: grammar.Breakpoint, Lines: []grammar.Loc{fwd.Nodes[line].Loc}}
				if t, x, err := fwd.Do(s, a); err == nil && !x && fwd.Nodes[t].Event.HasLocals() {
					bp = append(bp, HorizonCase{Task: TaskBreakpoint, Fraction: float64(t-s-1) / total,
						Prompt: Prompt{Context: rec.Context, Entry: p.Entry, Direction: grammar.Forward, Start: start, Action: a},
						Target: Next{State: fwd.Nodes[t].State()}})
				}
			}
		}
		var in []HorizonCase
		inv := fwd.Inverse()
		if cj, _, err := inv.Do(0, grammar.Action{Kind: grammar.InvStepCall}); err == nil && cj > 1 && inv.Nodes[0].Event == grammar.EventReturn {
			for s := 0; s < cj; s++ {
				if inv.Nodes[s].Depth != 0 {
					continue
				}
				in = append(in, HorizonCase{Task: TaskInput, Fraction: float64(cj-s-1) / float64(cj-1),
					Prompt: Prompt{Context: rec.Context, Entry: p.Entry, Direction: grammar.Inverse, Start: inv.Nodes[s].State(), Action: grammar.Action{Kind: grammar.InvStepCall}},
					Target: Next{State: inv.Nodes[cj].State()}})
			}
		}
		bins(in)
		bins(sr)
		bins(bp)
	}
	return cases, nil
}

// horizonHit reports whether a prediction matches the task's scored component: the
// locals for input and breakpoint, the return value for step_return.
func horizonHit(c HorizonCase, p Prediction) bool {
	s := Score(c.Target, p)
	if c.Task == TaskStepReturn {
		return s[ValueC] == Hit
	}
	return s[LocalsC] == Hit
}

// HorizonCell counts one task and bin.
type HorizonCell struct {
	N        int
	Hits     map[int]int // per k: cases where one of the first k samples matched
	Baseline int         // the baseline's hits (it is deterministic: one answer)
}

// HorizonResult holds the cells by task and bin.
type HorizonResult struct {
	Model string
	Ks    []int
	Cells map[string]*[HorizonBins]HorizonCell
}

// RunHorizon draws max(ks) samples of every case from model (a sampling predictor)
// and one answer from baseline, and counts exact match@k. step is called per case.
func RunHorizon(ctx context.Context, cases []HorizonCase, model, baseline Predictor, ks []int, step func()) (*HorizonResult, error) {
	res := &HorizonResult{Model: model.Name(), Ks: ks, Cells: map[string]*[HorizonBins]HorizonCell{}}
	kmax := 1
	for _, k := range ks {
		kmax = max(kmax, k)
	}
	for _, c := range cases {
		cells := res.Cells[c.Task]
		if cells == nil {
			cells = &[HorizonBins]HorizonCell{}
			res.Cells[c.Task] = cells
		}
		cell := &cells[c.Bin()]
		if cell.Hits == nil {
			cell.Hits = map[int]int{}
		}
		cell.N++
		out, err := model.Predict(ctx, c.Prompt, kmax)
		if err != nil {
			return res, fmt.Errorf("%s: %w", model.Name(), err)
		}
		first := math.MaxInt
		for i, p := range out {
			if horizonHit(c, p) {
				first = i
				break
			}
		}
		for _, k := range ks {
			if first < k {
				cell.Hits[k]++
			}
		}
		b, err := baseline.Predict(ctx, c.Prompt, 1)
		if err != nil {
			return res, err
		}
		if horizonHit(c, b[0]) {
			cell.Baseline++
		}
		if step != nil {
			step()
		}
	}
	return res, nil
}

// binLabel names bin i ("0.0-0.2").
func binLabel(i int) string {
	return fmt.Sprintf("%.1f-%.1f", float64(i)/HorizonBins, float64(i+1)/HorizonBins)
}

// Table is the horizon table: a row per task and bin of the skipped fraction, exact
// match@k of the model and the baseline's exact match.
func (r *HorizonResult) Table() *Table {
	t := &Table{
		Title:  "Prediction horizon: exact match@k % against the fraction of states skipped (temperature 0.6, top-p 0.95)",
		Header: []string{"task", "skipped", "n"},
	}
	for _, k := range r.Ks {
		t.Header = append(t.Header, fmt.Sprintf("@%d", k))
	}
	t.Header = append(t.Header, "baseline")
	for _, task := range CruxTasks {
		cells := r.Cells[task]
		if cells == nil {
			continue
		}
		for i, c := range cells {
			if c.N == 0 {
				continue
			}
			row := []string{task, binLabel(i), fmt.Sprint(c.N)}
			for _, k := range r.Ks {
				row = append(row, ratio(c.Hits[k], c.N))
			}
			t.Rows = append(t.Rows, append(row, ratio(c.Baseline, c.N)))
		}
	}
	t.Notes = []string{
		"model: " + r.Model + "; input and breakpoint score the locals (exact match), step_return the",
		"return value; baseline: " + Baseline{}.Name() + ", greedy, one answer.",
	}
	return t
}

// Plot draws horizon_TASK.png per task: exact match@k against the skipped fraction
// (bin centres), a line per k and the baseline dashed (the paper's Figure 8).
func (r *HorizonResult) Plot(dir string) ([]string, error) {
	xs := make([]float64, HorizonBins)
	for i := range xs {
		xs[i] = (float64(i) + 0.5) / HorizonBins
	}
	var paths []string
	for _, task := range CruxTasks {
		cells := r.Cells[task]
		if cells == nil {
			continue
		}
		rate := func(hits func(HorizonCell) int) []float64 {
			v := make([]float64, HorizonBins)
			for i, c := range cells {
				v[i] = math.NaN()
				if c.N > 0 {
					v[i] = 100 * float64(hits(c)) / float64(c.N)
				}
			}
			return v
		}
		var ss []series
		for _, k := range r.Ks {
			ss = append(ss, series{fmt.Sprintf("exact match@%d", k), rate(func(c HorizonCell) int { return c.Hits[k] })})
		}
		ss = append(ss, series{"baseline", rate(func(c HorizonCell) int { return c.Baseline })})
		p, err := lineChart("Prediction horizon: "+task, "fraction of intermediate states skipped", "exact match %", xs, ss)
		if err != nil {
			return paths, err
		}
		path, err := savePNG(p, dir, "horizon_"+task+".png")
		if err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
