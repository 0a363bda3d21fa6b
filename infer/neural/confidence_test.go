package neural

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
)

// Every predicted outcome carries the model's confidence, the same twice for the same
// seeded session; a calibration changes the numbers, not the states.
func TestOutcomesCarryConfidence(t *testing.T) {
	pool := newPool(t)
	actions := []grammar.ActionKind{grammar.StepInto, grammar.StepOver, grammar.StepOver}
	run := func(cal *infer.Calibration) (states []string, confs []float64) {
		b := countSession(t, pool, Options{Seed: 3, Calibration: cal}, false)
		for _, k := range actions {
			o, err := b.Do(context.Background(), grammar.Action{Kind: k})
			if err != nil {
				t.Fatal(err)
			}
			if o.Confidence == nil {
				t.Fatalf("%s: no confidence", k)
			}
			if c := o.Confidence.State; !(c >= 0 && c <= 1) {
				t.Fatalf("%s: confidence %v", k, c)
			}
			states = append(states, o.State.Loc.String()+o.State.Event.String())
			confs = append(confs, o.Confidence.State)
			if o.Ended() {
				break
			}
		}
		return states, confs
	}
	s1, c1 := run(nil)
	s2, c2 := run(nil)
	hot := &infer.Calibration{Temperatures: map[string]float64{"event": 3, "line": 3, "name": 3, "value": 3, "return": 3}}
	s3, c3 := run(hot)
	for i := range c1 {
		if s1[i] != s2[i] || c1[i] != c2[i] {
			t.Errorf("step %d: %s %v, then %s %v", i, s1[i], c1[i], s2[i], c2[i])
		}
		if s3[i] != s1[i] {
			t.Errorf("step %d: a calibration changed the state: %s, %s", i, s3[i], s1[i])
		}
		if c3[i] > c1[i] {
			t.Errorf("step %d: temperature 3 made the greedy state surer: %v > %v", i, c3[i], c1[i])
		}
	}
}

// A calibration.json fitted on other weights is ignored.
func TestStaleCalibrationIgnored(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/tinymodel"
	for _, f := range []string{infer.WeightsFile, infer.ConfigFile, infer.TokenizerFile} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cal := &infer.Calibration{WeightsSHA256: "0000", Temperatures: map[string]float64{"line": 2}}
	if err := cal.Save(dir); err != nil {
		t.Fatal(err)
	}
	if got := LoadCalibration(dir); got != nil {
		t.Errorf("a stale calibration was loaded: %+v", got)
	}
	sum, err := infer.WeightsHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	cal.WeightsSHA256 = sum
	if err := cal.Save(dir); err != nil {
		t.Fatal(err)
	}
	if got := LoadCalibration(dir); got == nil || got.Temperature(infer.KindLine) != 2 {
		t.Errorf("the calibration of these weights: %+v", got)
	}
}
