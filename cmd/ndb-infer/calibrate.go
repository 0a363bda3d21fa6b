package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"strings"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural/evalmodel"
	"github.com/ndb-project/ndb/train/eval"
	"github.com/ndb-project/ndb/train/eval/evalcmd"
)

// `ndb eval nextstate --calibrate` fits the temperatures of the model's confidences
// (one per token kind, infer.FitTemperatures) on the held-out trajectories of half
// the held-out programs, measures the expected calibration error before and after on
// the other half, and writes calibration.json into the checkpoint's folder, tied to
// its weights' SHA-256. CruxEval is never used: its problems are the benchmark.

// fitHalf reports whether a program's trajectories are in the half the fit sees (a
// hash of its name, so that the split does not depend on the draw of prompts).
func fitHalf(program string) bool {
	h := fnv.New32a()
	h.Write([]byte(program))
	return h.Sum32()%2 == 0
}

// bce is the cross-entropy of a prediction's confidences against whether each part
// was right: the loss the temperatures minimize.
func bce(pts []eval.ConfPoint) float64 {
	var l float64
	for _, p := range pts {
		q := min(max(p.Conf, 1e-6), 1-1e-6)
		if p.Hit {
			l -= math.Log(q)
		} else {
			l -= math.Log(1 - q)
		}
	}
	return l
}

// calibrate fits the temperatures on the recorded generations gens (one per case)
// and returns them with the tables of ECE before and after on the other half.
func calibrate(cases []eval.Case, gens []infer.Generated, weights string) (*infer.Calibration, *eval.Table, error) {
	if len(gens) != len(cases) {
		return nil, nil, fmt.Errorf("calibration: %d generations for %d cases", len(gens), len(cases))
	}
	points := func(i int, c *grammar.Confidence) []eval.ConfPoint {
		g := gens[i]
		return eval.ConfPoints(cases[i].Target, eval.Prediction{Next: eval.Next{State: g.State, Exit: g.Exit}, Undecoded: g.Forced, Confidence: c})
	}
	var fit []*infer.Generated
	var idx []int
	programs := map[bool]map[string]bool{true: {}, false: {}}
	for i := range cases {
		in := fitHalf(cases[i].Program)
		programs[in][cases[i].Program] = true
		if in {
			fit, idx = append(fit, &gens[i]), append(idx, i)
		}
	}
	if len(fit) == 0 || len(fit) == len(cases) {
		return nil, nil, fmt.Errorf("calibration: the %d prompts are from one half of the programs; raise --limit", len(cases))
	}
	cal := infer.FitTemperatures(fit, func(j int, c *grammar.Confidence) float64 { return bce(points(idx[j], c)) })
	cal.WeightsSHA256 = weights
	before, after := eval.NewCalibration(), eval.NewCalibration()
	for i := range cases {
		if fitHalf(cases[i].Program) {
			continue
		}
		raw, ok := gens[i].ConfidenceAt(nil)
		if !ok {
			continue
		}
		now, _ := gens[i].ConfidenceAt(cal)
		k := cases[i].Prompt.Action.Kind
		before.Add(k, points(i, raw))
		after.Add(k, points(i, now))
	}
	var temps []string
	for k := infer.TokenKind(0); k < infer.NumKinds; k++ {
		temps = append(temps, fmt.Sprintf("%s %.2f", k, cal.Temperature(k)))
	}
	cal.FittedOn = fmt.Sprintf("%d prompts of %d held-out programs (next-state corpus eval.jsonl; never CruxEval)", len(fit), len(programs[true]))
	cal.ECEBefore = math.Round(before.ECE(eval.PartState)*10) / 10
	cal.ECEAfter = math.Round(after.ECE(eval.PartState)*10) / 10
	t := &eval.Table{
		Title:  fmt.Sprintf("Calibration fit: expected calibration error %% before → after, on the %d programs the fit did not see", len(programs[false])),
		Header: []string{"action"},
	}
	for _, p := range eval.ConfParts {
		t.Header = append(t.Header, p.String())
	}
	row := func(name string, b, a *[eval.NumParts]eval.Reliability) {
		r := []string{name}
		for _, p := range eval.ConfParts {
			eb, ok1 := b[p].ECE()
			ea, ok2 := a[p].ECE()
			if !ok1 || !ok2 {
				r = append(r, "n/a")
				continue
			}
			r = append(r, fmt.Sprintf("%.1f → %.1f", 100*eb, 100*ea))
		}
		t.Rows = append(t.Rows, r)
	}
	for _, k := range grammar.AllActions {
		if b := before.ByAction[k]; b != nil {
			row(k.String(), b, after.ByAction[k])
		}
	}
	row("all", &before.All, &after.All)
	t.Notes = []string{
		"temperatures (one per token kind, fitted on the other half): " + strings.Join(temps, ", "),
		"fitted by minimizing the cross-entropy of every part's confidence against whether it was right",
	}
	return cal, t, nil
}

// saveCalibration writes cal into the checkpoint folder dir, or says why not.
func saveCalibration(cal *infer.Calibration, dir string) {
	if err := cal.Save(dir); err != nil {
		fmt.Fprintf(os.Stderr, "ndb eval: could not write %s/%s: %v\n", dir, infer.CalibrationFile, err)
		return
	}
	fmt.Fprintf(os.Stderr, "wrote %s/%s\n", dir, infer.CalibrationFile)
}

// withCalibration makes a next-state evaluation fit the confidences' temperatures:
// the model records its raw distributions, and after the run the fit's table joins
// the report and calibration.json is written into the checkpoint's folder.
func withCalibration(cfg *evalcmd.Config) {
	var gens []infer.Generated
	var model *evalmodel.Predictor
	load := cfg.Model
	cfg.Model = func(temp, topP float64) (eval.Predictor, func(), error) {
		p, closeModel, err := load(temp, topP)
		if err != nil {
			return nil, nil, err
		}
		model = p.(*evalmodel.Predictor)
		model.Generator().Calibration = nil // fit from the raw probabilities
		model.Generator().Record = true
		model.Generated = &gens
		return p, closeModel, nil
	}
	cfg.NextStateExtra = func(cases []eval.Case) ([]*eval.Table, error) {
		weights, err := infer.WeightsHash(model.Dir())
		if err != nil {
			return nil, err
		}
		cal, table, err := calibrate(cases, gens, weights)
		if err != nil {
			return nil, err
		}
		saveCalibration(cal, model.Dir())
		return []*eval.Table{table}, nil
	}
}
