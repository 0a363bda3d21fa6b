package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/infer/neural/evalmodel"
	"github.com/ndb-project/ndb/train/eval"
	"github.com/ndb-project/ndb/train/eval/evalcmd"
)

// runCalibrate implements `ndb-infer calibrate`, which `ndb eval nextstate
// --calibrate` runs with its own arguments: the next-state evaluation with the model
// in this process, since the fit reads the raw distributions of every generated token
// (withCalibration), which no model server sends.
func runCalibrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	corpus := fs.String("corpus", filepath.Join("build", "corpus"), "corpus `DIR` whose eval.jsonl holds the held-out trajectories")
	model := fs.String("model", "", "checkpoint `DIR` (default: the model bundled with ndb)")
	device := fs.String("device", "cpu", "cpu, cuda, cuda:N or auto")
	out := fs.String("out", filepath.Join("build", "results", "nextstate"), "output `DIR` for results.md and the PNG plots")
	limit := fs.Int("limit", 800, "the most prompts per group (0: all)")
	maxTokens := fs.Int("max-tokens", 512, "tokens per predicted state before it is closed by force (counted as undecoded)")
	seed := fs.Uint64("seed", 1, "seed of the draw of prompts (and of sampling)")
	level := fs.String("level", "", "only the trajectories of this `LEVEL` (function or repository; default both)")
	constraints := fs.String("constraints", neural.ConstraintsProgram, "program: rows with the program facts' constraints (the fit's) and, on the same prompts, the grammar's alone; "+
		"grammar: the grammar's alone (the raw model)")
	fs.Bool("calibrate", true, "(always: this is the calibration)")
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) != 0 {
		return badInput("usage: ndb-infer calibrate [--corpus DIR] [--level LEVEL] [--limit N] [--model DIR] [--out DIR] [--constraints program|grammar]")
	}
	var grammarOnly bool
	switch *constraints {
	case neural.ConstraintsProgram:
	case neural.ConstraintsGrammar:
		grammarOnly = true
	default:
		return badInput("--constraints %q: want program or grammar", *constraints)
	}
	name := "model (bundled)"
	if *model != "" {
		name = "model (" + filepath.Base(filepath.Clean(*model)) + ")"
	}
	load := func(temp, topP float64) (eval.Predictor, func(), error) {
		if _, err := infer.ParseDevice(*device); err != nil {
			return nil, nil, badInput("%v", err)
		}
		infer.SetThreads(0)
		p, err := evalmodel.LoadPredictor(name, *model, *device, *maxTokens, infer.NewSampler(temp, topP, int64(*seed)))
		if err != nil {
			return nil, nil, err
		}
		return p, p.Close, nil
	}
	cfg := evalcmd.Config{Out: *out, Limit: *limit, Seed: *seed, Command: evalcmd.CommandLine(append([]string{"nextstate"}, args...)),
		Model: load, GrammarOnly: grammarOnly, Stdout: os.Stdout, Stderr: os.Stderr, Log: log.Logger}
	withCalibration(&cfg)
	err := evalcmd.NextState(ctx, cfg, *corpus, *level)
	var ie evalcmd.InputError
	if errors.As(err, &ie) {
		return usageError{ie}
	}
	return err
}
