package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ndb-project/ndb/grammar"
)

// Case is one prediction to score: a prompt cut right after an action and the next
// state the trajectory recorded.
type Case struct {
	Level   string // function or repository
	Program string // the program the trajectory is of (a calibration fit keeps programs apart)
	Prompt  Prompt
	Target  Next
}

// Levels are the trajectory levels of the corpus, in table order.
var Levels = []string{"function", "repository"}

// record is one line of a corpus's eval.jsonl.
type record struct {
	Program string `json:"program"`
	Level   string `json:"level"`
	Text    string `json:"text"`
}

// LoadStats says what LoadNextState read.
type LoadStats struct {
	Records, Skipped int // trajectories read, and those that did not decode
}

// LoadNextState reads held-out trajectories (a corpus's eval.jsonl: one JSON record
// {program, level, direction, actions, text} a line) and cuts prompts from them: for
// every level and action, at most limit cases (0: no limit), drawn uniformly with
// seed among the trajectories that take that action (one cut per trajectory and
// action, at a random step of that action), so that the programs are spread. Cases
// come back grouped by level, then action (grammar.AllActions order).
func LoadNextState(r io.Reader, limit int, seed uint64) ([]Case, LoadStats, error) {
	type key struct {
		level string
		kind  grammar.ActionKind
	}
	rng := rand.New(rand.NewPCG(seed, 0x6576616c))
	seen := map[key]int{}
	pools := map[key][]Case{}
	var st LoadStats
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, st, fmt.Errorf("eval corpus line %d: %w", st.Records+1, err)
		}
		st.Records++
		t, err := grammar.DecodeTrajectory(rec.Text)
		if err != nil {
			st.Skipped++
			continue
		}
		byKind := map[grammar.ActionKind][]int{}
		for i, s := range t.Steps {
			byKind[s.Action.Kind] = append(byKind[s.Action.Kind], i)
		}
		for _, kind := range grammar.AllActions {
			steps := byKind[kind]
			if len(steps) == 0 {
				continue
			}
			i := steps[rng.IntN(len(steps))]
			k := key{rec.Level, kind}
			seen[k]++
			c := cut(t, i, rec.Level)
			c.Program = rec.Program
			switch {
			case limit <= 0 || len(pools[k]) < limit:
				pools[k] = append(pools[k], c)
			default: // reservoir sampling keeps a uniform draw of limit cases
				if j := rng.IntN(seen[k]); j < limit {
					pools[k][j] = c
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, st, err
	}
	var cases []Case
	levels := slices.Clone(Levels)
	for k := range pools {
		if !slices.Contains(levels, k.level) {
			levels = append(levels, k.level)
		}
	}
	slices.Sort(levels[len(Levels):])
	for _, level := range levels {
		for _, kind := range grammar.AllActions {
			cases = append(cases, pools[key{level, kind}]...)
		}
	}
	return cases, st, nil
}

// cut is the case of step i of t: the prompt up to and including its action.
func cut(t grammar.Trajectory, i int, level string) Case {
	st := t.Steps[i]
	return Case{
		Level: level,
		Prompt: Prompt{
			Context: t.Context, Direction: t.Direction, Start: t.Start,
			History: t.Steps[:i:i], Action: st.Action,
		},
		Target: Next{State: st.State, Exit: st.Exit},
	}
}

// NextStateResult is the tally of every (level, action, predictor).
type NextStateResult struct {
	Predictors []string
	Tallies    map[GroupKey]*Tally
	// Calibration is, per level, the reliability of the confidences of Calibrated,
	// the first predictor that gave any.
	Calibration map[string]*Calibration
	Calibrated  string
	// Predictions are every prediction as scored, in the order made.
	Predictions []NextStatePrediction
}

// NextStatePrediction is one next-state prediction as scored (a line of
// predictions.jsonl): the state the action started from, the one predicted and the
// one the run reached, as Describe writes them.
type NextStatePrediction struct {
	Predictor string `json:"predictor"`
	Program   string `json:"program"`
	Level     string `json:"level"`
	Action    string `json:"action"`
	Exact     bool   `json:"exact"`
	Undecoded bool   `json:"undecoded,omitempty"`
	From      string `json:"from"`
	Predicted string `json:"predicted"`
	Target    string `json:"target"`
}

// Describe writes a state (or exit) on one line: `line 5 {n: 3, s: 'ab'}`,
// `return 7: 3`, `exit normal`.
func Describe(n Next) string {
	if n.Exit != "" {
		return "exit " + string(n.Exit)
	}
	s := n.State
	out := fmt.Sprintf("%s %d", s.Event, s.Loc.Line)
	if s.Loc.File != "" {
		out = fmt.Sprintf("%s %s:%d", s.Event, s.Loc.File, s.Loc.Line)
	}
	if s.Event.HasLocals() {
		parts := make([]string, len(s.Locals))
		for i, v := range s.Locals {
			parts[i] = v.Name + ": " + v.Repr
		}
		return out + " {" + strings.Join(parts, ", ") + "}"
	}
	if s.Event.HasValue() {
		return out + ": " + s.Value
	}
	return out
}

// GroupKey names one row of the next-state table.
type GroupKey struct {
	Level     string
	Action    grammar.ActionKind
	Predictor string
}

// RunNextState scores every predictor greedily on every case; step is called after
// each prediction (for a progress bar).
func RunNextState(ctx context.Context, cases []Case, preds []Predictor, step func()) (*NextStateResult, error) {
	res := &NextStateResult{Tallies: map[GroupKey]*Tally{}, Calibration: map[string]*Calibration{}}
	for _, p := range preds {
		res.Predictors = append(res.Predictors, p.Name())
	}
	for _, c := range cases {
		for _, p := range preds {
			out, err := p.Predict(ctx, c.Prompt, 1)
			if err != nil {
				return res, fmt.Errorf("%s: %w", p.Name(), err)
			}
			k := GroupKey{c.Level, c.Prompt.Action.Kind, p.Name()}
			t := res.Tallies[k]
			if t == nil {
				t = &Tally{}
				res.Tallies[k] = t
			}
			sc := Score(c.Target, out[0])
			t.Add(sc, out[0])
			res.Predictions = append(res.Predictions, NextStatePrediction{
				Predictor: p.Name(), Program: c.Program, Level: c.Level, Action: c.Prompt.Action.Kind.String(),
				Exact: sc[Exact] == Hit, Undecoded: out[0].Undecoded,
				From: Describe(Next{State: c.Prompt.Last()}), Predicted: Describe(out[0].Next), Target: Describe(c.Target),
			})
			if out[0].Confidence != nil && (res.Calibrated == "" || res.Calibrated == p.Name()) {
				res.Calibrated = p.Name()
				cal := res.Calibration[c.Level]
				if cal == nil {
					cal = NewCalibration()
					res.Calibration[c.Level] = cal
				}
				cal.Add(c.Prompt.Action.Kind, ConfPoints(c.Target, out[0]))
			}
			if step != nil {
				step()
			}
		}
	}
	return res, nil
}

// levels returns the levels that have rows, in table order.
func (r *NextStateResult) levels() []string {
	var out []string
	for _, l := range Levels {
		for k := range r.Tallies {
			if k.Level == l {
				out = append(out, l)
				break
			}
		}
	}
	for k := range r.Tallies {
		if !slices.Contains(out, k.Level) {
			out = append(out, k.Level)
		}
	}
	return out
}

// Tables returns one table per level (the paper's Figure 6 in its exact column,
// Figure 7 in the component columns): a row per action and predictor.
func (r *NextStateResult) Tables() []*Table {
	var tables []*Table
	for _, level := range r.levels() {
		t := &Table{
			Title:  fmt.Sprintf("Next-state prediction, %s level: exact match %% (greedy)", level),
			Header: []string{"action", "predictor", "n", "exact", "event", "line", "locals", "value", "undecoded", "too long", "invented"},
		}
		for _, kind := range grammar.AllActions {
			for _, name := range r.Predictors {
				tl := r.Tallies[GroupKey{level, kind, name}]
				if tl == nil {
					continue
				}
				row := []string{kind.String(), name, fmt.Sprint(tl.N)}
				for _, c := range Components {
					row = append(row, tl.Percent(c))
				}
				t.Rows = append(t.Rows, append(row, fmt.Sprint(tl.Undecoded), fmt.Sprint(tl.TooLong), fmt.Sprint(tl.Invented)))
			}
		}
		t.Notes = []string{
			"exact: the whole next state; event, line, locals, value: each component alone",
			"(value: the return value or exception); n/a: no target state has that component;",
			"undecoded: predictions the model did not finish in the grammar (counted as misses);",
			"too long: among them, prompts longer than the model's context;",
			"invented: predictions with a line, event or local name the program does not have",
			"(by its static facts; [program] rows are constrained by them, [grammar] rows are not).",
		}
		tables = append(tables, t)
	}
	return tables
}

// CalibrationTables returns, per level, the calibration tables of the predictor
// with confidences (none when no predictor gave any).
func (r *NextStateResult) CalibrationTables() []*Table {
	var out []*Table
	for _, level := range r.levels() {
		if c := r.Calibration[level]; c != nil {
			out = append(out, c.Tables(level, shortName(r.Calibrated))...)
		}
	}
	return out
}

// shortName is a predictor's label in a plot legend.
func shortName(name string) string {
	if i := strings.Index(name, " ("); i > 0 {
		return name[:i]
	}
	return name
}
