package eval

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// TestECE: points whose confidence is their bin's share right have no calibration
// error; a model that says 90% and is right half the time is 40 points off.
func TestECE(t *testing.T) {
	var calibrated, over Reliability
	for i := 0; i < 100; i++ {
		calibrated.Add(0.75, i%4 != 0) // 75% right at 75%
		calibrated.Add(0.25, i%4 == 0) // 25% right at 25%
		over.Add(0.9, i%2 == 0)
	}
	if e, ok := calibrated.ECE(); !ok || math.Abs(e) > 1e-9 {
		t.Errorf("calibrated ECE %v", e)
	}
	if e, _ := over.ECE(); math.Abs(e-0.4) > 1e-9 {
		t.Errorf("overconfident ECE %v, want 0.4", e)
	}
	if _, ok := (&Reliability{}).ECE(); ok {
		t.Error("an empty table has an ECE")
	}
	var edge Reliability
	edge.Add(1, true)
	edge.Add(0, false)
	if edge.N[NumBins-1] != 1 || edge.N[0] != 1 {
		t.Errorf("confidence 1 and 0 binned as %v", edge.N)
	}
}

// TestConfPoints: each part the prediction wrote is a point, right as Score says;
// a variable is right when the target has it with the same repr.
func TestConfPoints(t *testing.T) {
	c := &grammar.Confidence{Event: 0.9, Line: 0.8, Locals: 0.3, State: 0.2,
		Vars: []grammar.VarConfidence{{Name: "x", P: 0.95}, {Name: "y", P: 0.4}}}
	pred := Prediction{Next: Next{State: line(3, "x", "1", "y", "3")}, Confidence: c}
	got := map[ConfPart][]bool{}
	for _, p := range ConfPoints(Next{State: line(3, "x", "1", "y", "2")}, pred) {
		got[p.Part] = append(got[p.Part], p.Hit)
	}
	want := map[ConfPart][]bool{PartState: {false}, PartEvent: {true}, PartLine: {true}, PartLocals: {false}, PartVariable: {true, false}}
	for p, w := range want {
		if len(got[p]) != len(w) || strings.Join(boolStrings(got[p]), ",") != strings.Join(boolStrings(w), ",") {
			t.Errorf("%s: %v, want %v", p, got[p], w)
		}
	}
	if len(got[PartValue]) != 0 {
		t.Errorf("a line state has a value point: %v", got[PartValue])
	}
	if ConfPoints(Next{State: line(3)}, Prediction{Next: Next{State: line(3)}}) != nil {
		t.Error("a prediction without confidence has points")
	}
}

func boolStrings(bs []bool) []string {
	var out []string
	for _, b := range bs {
		if b {
			out = append(out, "hit")
		} else {
			out = append(out, "miss")
		}
	}
	return out
}

// sureOracle answers the target with 90% confidence on every part: right every time,
// so underconfident by 10 points.
type sureOracle struct{ targets map[string]Next }

func (sureOracle) Name() string { return "oracle (sure)" }

func (o sureOracle) Predict(_ context.Context, p Prompt, n int) ([]Prediction, error) {
	nx := o.targets[p.Action.Kind.String()+p.Last().Loc.String()]
	c := &grammar.Confidence{Event: 0.9, Line: 0.9, Locals: 0.9, Value: 0.9, State: 0.9}
	for _, v := range nx.State.Locals {
		c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: 0.9})
	}
	return []Prediction{{Next: nx, Confidence: c}}, nil
}

// TestNextStateCalibration: the next-state run tallies the confidences of the
// predictor that has them (not the baseline), and reports the tables and plots.
func TestNextStateCalibration(t *testing.T) {
	tr := grammar.Trajectory{Context: ctx1, Direction: grammar.Forward, Start: grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: grammar.Locals{{Name: "x", Repr: "1"}}},
		Steps: []grammar.Step{
			{Action: grammar.Action{Kind: grammar.StepInto}, State: line(2, "x", "1")},
			{Action: grammar.Action{Kind: grammar.StepOver}, State: line(3, "x", "1", "y", "2")},
			{Action: grammar.Action{Kind: grammar.StepOver}, State: ret(3, "2")},
		}}
	o := sureOracle{targets: map[string]Next{}}
	var cases []Case
	for i := range tr.Steps {
		c := cut(tr, i, "function")
		o.targets[c.Prompt.Action.Kind.String()+c.Prompt.Last().Loc.String()] = c.Target
		cases = append(cases, c)
	}
	res, err := RunNextState(context.Background(), cases, []Predictor{o, Baseline{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calibrated != o.Name() {
		t.Fatalf("calibrated predictor %q", res.Calibrated)
	}
	cal := res.Calibration["function"]
	if e := cal.ECE(PartState); math.Abs(e-10) > 1e-6 {
		t.Errorf("state ECE %v%%, want 10", e)
	}
	if n := cal.All[PartVariable].Total(); n != 3 {
		t.Errorf("%d variable points, want 3", n)
	}
	tables := res.CalibrationTables()
	if len(tables) != 2 || !strings.Contains(tables[0].Title, "calibration error") {
		t.Fatalf("tables: %+v", tables)
	}
	if last := tables[0].Rows[len(tables[0].Rows)-1]; last[0] != "all" || last[1] != "10.0 (3)" {
		t.Errorf("all row %v", last)
	}
	dir := t.TempDir()
	paths, err := res.Plot(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "reliability_") {
			if st, err := os.Stat(p); err != nil || st.Size() == 0 {
				t.Errorf("%s: %v", p, err)
			}
			found++
		}
	}
	if found != 2 {
		t.Errorf("reliability plots: %v", paths)
	}
}
