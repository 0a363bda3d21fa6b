package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

var ctx1 = grammar.NewContext("", "def f(x):\n    y = x + 1\n    return y\n")

func line(n int, locals ...string) grammar.State {
	s := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: n}, Locals: grammar.Locals{}}
	for i := 0; i+1 < len(locals); i += 2 {
		s.Locals = append(s.Locals, grammar.Var{Name: locals[i], Repr: locals[i+1]})
	}
	return s
}

func ret(n int, v string) grammar.State {
	return grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: n}, Value: v}
}

// TestScoreByComponent: each component is scored alone, the whole state only when
// every applicable one matches, and a component the target lacks is n/a, not a miss.
func TestScoreByComponent(t *testing.T) {
	cases := []struct {
		name   string
		target Next
		pred   Prediction
		want   Scores
	}{
		{"all match", Next{State: line(2, "x", "1")}, Prediction{Next: Next{State: line(2, "x", "1")}},
			Scores{Exact: Hit, EventC: Hit, LineC: Hit, LocalsC: Hit, ValueC: NA}},
		{"wrong value of a local", Next{State: line(3, "x", "1", "y", "2")}, Prediction{Next: Next{State: line(3, "x", "1", "y", "3")}},
			Scores{Exact: Miss, EventC: Hit, LineC: Hit, LocalsC: Miss, ValueC: NA}},
		{"wrong line", Next{State: line(3, "x", "1")}, Prediction{Next: Next{State: line(2, "x", "1")}},
			Scores{Exact: Miss, EventC: Hit, LineC: Miss, LocalsC: Hit, ValueC: NA}},
		{"return: locals n/a", Next{State: ret(3, "2")}, Prediction{Next: Next{State: ret(3, "2")}},
			Scores{Exact: Hit, EventC: Hit, LineC: Hit, LocalsC: NA, ValueC: Hit}},
		{"return predicted as a line", Next{State: ret(3, "2")}, Prediction{Next: Next{State: line(3, "x", "1")}},
			Scores{Exact: Miss, EventC: Miss, LineC: Hit, LocalsC: NA, ValueC: Miss}},
		{"exit: only the event applies", Next{Exit: grammar.ExitNormal}, Prediction{Next: Next{Exit: grammar.ExitNormal}},
			Scores{Exact: Hit, EventC: Hit}},
		{"exit predicted for a state", Next{State: ret(3, "2")}, Prediction{Next: Next{Exit: grammar.ExitNormal}},
			Scores{Exact: Miss, EventC: Miss, LineC: Miss, LocalsC: NA, ValueC: Miss}},
		{"undecoded misses even when it holds the answer", Next{State: ret(3, "2")}, Prediction{Next: Next{State: ret(3, "2")}, Undecoded: true},
			Scores{Exact: Miss, EventC: Miss, LineC: Miss, LocalsC: NA, ValueC: Miss}},
	}
	for _, c := range cases {
		if got := Score(c.target, c.pred); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	var tl Tally
	tl.Add(Score(cases[0].target, cases[0].pred), cases[0].pred)
	tl.Add(Score(cases[7].target, cases[7].pred), cases[7].pred)
	if got := tl.Percent(Exact); got != "50.0" {
		t.Errorf("exact over two predictions = %s, want 50.0", got)
	}
	if got := tl.Percent(LocalsC); got != "100.0" {
		t.Errorf("locals (one applicable) = %s, want 100.0", got)
	}
	if tl.Undecoded != 1 {
		t.Errorf("undecoded = %d, want 1", tl.Undecoded)
	}
	var ret Tally
	ret.Add(Score(cases[3].target, cases[3].pred), cases[3].pred)
	if got := ret.Percent(LocalsC); got != "n/a" {
		t.Errorf("locals of return targets = %s, want n/a", got)
	}
}

// TestBaselineCopiesTheLastState: the baseline is right exactly where the program
// state did not change, and knows a continue ends normally.
func TestBaselineCopiesTheLastState(t *testing.T) {
	start := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "x", Repr: "1"}}}
	p := Prompt{Context: ctx1, Direction: grammar.Forward, Start: start,
		History: []grammar.Step{{Action: grammar.Action{Kind: grammar.StepInto}, State: line(2, "x", "1")}},
		Action:  grammar.Action{Kind: grammar.StepOver}}
	out, err := Baseline{}.Predict(context.Background(), p, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := Score(Next{State: line(3, "x", "1", "y", "2")}, out[0])
	want := Scores{Exact: Miss, EventC: Hit, LineC: Miss, LocalsC: Miss, ValueC: NA}
	if got != want {
		t.Errorf("step_over to a new line and variable: %v, want %v", got, want)
	}
	p.Action = grammar.Action{Kind: grammar.Continue}
	out, _ = Baseline{}.Predict(context.Background(), p, 1)
	if s := Score(Next{Exit: grammar.ExitNormal}, out[0]); s[Exact] != Hit {
		t.Errorf("continue: %v, want a hit on the normal exit", s)
	}
	p.Action, p.History = grammar.Action{Kind: grammar.StepReturn}, nil
	out, _ = Baseline{}.Predict(context.Background(), p, 1)
	if s := Score(Next{State: ret(3, "1")}, out[0]); s[ValueC] != Hit {
		t.Errorf("step_return of an identity function: %v, want the value hit (the first argument)", s)
	}
}

// writeCorpus writes trajectories as an eval.jsonl of level and returns its path.
func writeCorpus(t *testing.T, level string, ts ...grammar.Trajectory) string {
	t.Helper()
	var b strings.Builder
	for i, tr := range ts {
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := json.Marshal(map[string]any{"program": fmt.Sprint(i), "level": level, "direction": tr.Direction.String(), "text": text})
		b.Write(rec)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "eval.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNextStateCutsAfterEachAction: prompts end right after the action, the target
// is the state it led to, limit caps every action, and the tables and plots come out.
func TestNextStateCutsAfterEachAction(t *testing.T) {
	start := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "x", Repr: "1"}}, Frame: 1}
	l2 := line(2, "x", "1")
	l2.Frame = 1
	l3 := line(3, "x", "1", "y", "2")
	l3.Frame = 1
	tr := grammar.Trajectory{Context: ctx1, Direction: grammar.Forward, Start: start, Steps: []grammar.Step{
		{Action: grammar.Action{Kind: grammar.StepInto}, State: l2},
		{Action: grammar.Action{Kind: grammar.StepOver}, State: l3},
		{Action: grammar.Action{Kind: grammar.Continue}, Exit: grammar.ExitNormal},
	}}
	f, err := os.Open(writeCorpus(t, "function", tr, tr, tr))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, st, err := LoadNextState(f, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 3 || st.Skipped != 0 {
		t.Fatalf("read %+v, want 3 records", st)
	}
	if len(cases) != 6 {
		t.Fatalf("%d cases, want 2 per action (limit) x 3 actions", len(cases))
	}
	for _, c := range cases {
		switch c.Prompt.Action.Kind {
		case grammar.StepOver:
			if len(c.Prompt.History) != 1 || !c.Target.State.Equal(l3) {
				t.Errorf("step_over cut: history %d, target %+v", len(c.Prompt.History), c.Target)
			}
		case grammar.Continue:
			if len(c.Prompt.History) != 2 || c.Target.Exit != grammar.ExitNormal {
				t.Errorf("continue cut: history %d, target %+v", len(c.Prompt.History), c.Target)
			}
		}
	}
	res, err := RunNextState(context.Background(), cases, []Predictor{Baseline{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every prediction is kept as scored; the baseline's continue is the exit it
	// predicts, and its step_over repeats the state it started from.
	if len(res.Predictions) != len(cases) {
		t.Fatalf("%d predictions kept, want %d", len(res.Predictions), len(cases))
	}
	for _, p := range res.Predictions {
		switch {
		case p.Action == "continue" && (!p.Exact || p.Predicted != "exit normal" || p.Target != "exit normal"):
			t.Errorf("continue kept as %+v", p)
		case p.Action == "step_over" && (p.Exact || p.Predicted != p.From || !strings.HasPrefix(p.Target, "line ")):
			t.Errorf("step_over kept as %+v", p)
		}
	}
	tables := res.Tables()
	if len(tables) != 1 {
		t.Fatalf("%d tables, want one (function level)", len(tables))
	}
	md := tables[0].Markdown()
	for _, want := range []string{"| continue | baseline (copy the last state) | 2 | 100.0 | 100.0 | n/a | n/a | n/a |", "| step_over |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	paths, err := res.Plot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Errorf("plots %v, want nextstate_function.png and components_function.png", paths)
	}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%s is not a PNG (%v)", p, err)
		}
	}
}
