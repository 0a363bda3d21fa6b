package main

import (
	"context"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/train/eval"
	"github.com/ndb-project/ndb/train/eval/evalcmd"
)

const evalUsage = "usage: ndb eval nextstate [--corpus DIR] | cruxeval FILE.jsonl | horizon FILE.jsonl  [--limit N] [--model DIR] [--out DIR] [--constraints program|grammar]"

// runEval implements `ndb eval nextstate|cruxeval|horizon`: the paper's evaluations
// on a checkpoint (the bundled model, or --model DIR), run by package evalcmd. Each
// prints its tables on stdout, writes results.md and PNG plots into --out, and shows
// progress on stderr.
func runEval(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return badInput(evalUsage)
	}
	var err error
	switch args[0] {
	case "nextstate":
		err = runEvalNextState(ctx, args[1:])
	case "cruxeval":
		err = runEvalCruxEval(ctx, args[1:])
	case "horizon":
		err = runEvalHorizon(ctx, args[1:])
	default:
		return badInput("ndb eval: unknown evaluation %q; %s", args[0], evalUsage)
	}
	var ie evalcmd.InputError
	if errors.As(err, &ie) {
		return usageError{ie}
	}
	return err
}

// evalFlags are the flags every evaluation takes.
type evalFlags struct {
	model, device, out *string
	constraints        *string
	noGrammarRow       *bool
	noCopyCandidate    *bool
	copyPrior          *string
	limit, maxTokens   *int
	seed               *uint64
}

func addEvalFlags(fs *flag.FlagSet, name string, limit int) evalFlags {
	return evalFlags{
		model:     fs.String("model", "", "checkpoint `DIR` (default: the model bundled with ndb)"),
		device:    fs.String("device", "cpu", "cpu, cuda, cuda:N or auto"),
		out:       fs.String("out", filepath.Join("build", "results", name), "output `DIR` for results.md and the PNG plots"),
		limit:     fs.Int("limit", limit, "the most prompts per group (0: all)"),
		maxTokens: fs.Int("max-tokens", 512, "tokens per predicted state before it is closed by force (counted as undecoded)"),
		seed:      fs.Uint64("seed", 1, "seed of the draw of prompts (and of sampling)"),
		constraints: fs.String("constraints", "program", "program: rows with the program facts' constraints and, on the same prompts, the grammar's alone; "+
			"grammar: the grammar's alone (the raw model)"),
		noGrammarRow:    fs.Bool("no-grammar-row", false, "under the program facts, skip the row of the grammar alone (half the predictions)"),
		noCopyCandidate: fs.Bool("no-copy-candidate", false, "take the model's greedy answers as written, without weighing them against the copy candidate"),
		copyPrior:       fs.String("copy-prior", "", "the copy candidate's prior in nats, `ACTION=N,...` (off: none; default: the shipped one)"),
	}
}

// config is the evaluation's configuration: the model is --model on --device, its
// rows named after the folder ("model (bundled)" by default).
func (f evalFlags) config(args []string) (evalcmd.Config, error) {
	name := "model (bundled)"
	if *f.model != "" {
		name = "model (" + filepath.Base(filepath.Clean(*f.model)) + ")"
	}
	prior, err := parseCopyPrior(*f.copyPrior)
	if err != nil {
		return evalcmd.Config{}, err
	}
	load := func(temp, topP float64) (eval.Predictor, func(), error) {
		if err := modelserver.CheckDevice(*f.device); err != nil {
			return nil, nil, badInput("%v", err)
		}
		p, err := modelserver.Default.NewPredictor(name, *f.model, *f.device, "",
			modelserver.Sampling{Temperature: temp, TopP: topP, Seed: int64(*f.seed), MaxTokens: *f.maxTokens,
				NoCopyCandidate: *f.noCopyCandidate, CopyPrior: prior})
		if err != nil {
			return nil, nil, err
		}
		return p, func() {}, nil
	}
	grammarOnly, err := parseConstraints(*f.constraints)
	if err != nil {
		return evalcmd.Config{}, err
	}
	return evalcmd.Config{Out: *f.out, Limit: *f.limit, Seed: *f.seed, Command: evalcmd.CommandLine(args),
		Model: load, GrammarOnly: grammarOnly, NoGrammarRow: *f.noGrammarRow, Stdout: os.Stdout, Stderr: os.Stderr, Log: log.Logger}, nil
}

func runEvalNextState(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("eval nextstate", flag.ContinueOnError)
	corpus := fs.String("corpus", filepath.Join("build", "corpus"), "corpus `DIR` whose eval.jsonl holds the held-out trajectories")
	f := addEvalFlags(fs, "nextstate", 800)
	level := fs.String("level", "", "only the trajectories of this `LEVEL` (function or repository; default both)")
	actions := fs.String("actions", "", "only the prompts of these actions `A,A,...` (e.g. step_into,step_over,step_return; default all)")
	calib := fs.Bool("calibrate", false, "fit the temperatures of the model's confidences on half the held-out programs, report the calibration error before and after on the other half, and write calibration.json into the checkpoint's folder")
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) != 0 {
		return badInput("usage: ndb eval nextstate [--corpus DIR] [--level LEVEL] [--actions A,A] [--limit N] [--model DIR] [--out DIR] [--calibrate]")
	}
	cfg, err := f.config(append([]string{"nextstate"}, args...))
	if err != nil {
		return err
	}
	for _, s := range strings.Split(*actions, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		k, ok := grammar.ParseActionKind(s)
		if !ok {
			return badInput("--actions: unknown action %q", s)
		}
		cfg.Actions = append(cfg.Actions, k)
	}
	if *calib { // the fit reads every token's distribution: the model runs in ndb-infer's process
		return execInfer(append([]string{"calibrate"}, args...))
	}
	return evalcmd.NextState(ctx, cfg, *corpus, *level)
}

func runEvalCruxEval(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("eval cruxeval", flag.ContinueOnError)
	f := addEvalFlags(fs, "cruxeval", 0)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return badInput("usage: ndb eval cruxeval FILE.jsonl [--limit N] [--model DIR] [--out DIR]")
	}
	cfg, err := f.config(append([]string{"cruxeval"}, args...))
	if err != nil {
		return err
	}
	return evalcmd.CruxEval(ctx, cfg, rest[0])
}

func runEvalHorizon(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("eval horizon", flag.ContinueOnError)
	f := addEvalFlags(fs, "horizon", 0)
	ksFlag := fs.String("k", "1,5,10,20,50", "the sample budgets `K,K,...` of exact match@k")
	temp := fs.Float64("temperature", 0.6, "sampling temperature")
	topP := fs.Float64("top-p", 0.95, "nucleus sampling mass")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return badInput("usage: ndb eval horizon FILE.jsonl [--k 1,5,10,20,50] [--limit N] [--model DIR] [--out DIR]")
	}
	var ks []int
	for _, part := range strings.Split(*ksFlag, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || k < 1 {
			return badInput("--k: %q is not a positive number", part)
		}
		ks = append(ks, k)
	}
	if *temp <= 0 {
		return badInput("--temperature must be positive (exact match@k samples)")
	}
	cfg, err := f.config(append([]string{"horizon"}, args...))
	if err != nil {
		return err
	}
	return evalcmd.Horizon(ctx, cfg, rest[0], ks, *temp, *topP)
}

// The served model is constrained by each prompt's program facts as the in-process
// one is: they travel with the prompt to ndb-infer.
var _ evalcmd.Constrainable = (*modelserver.Predictor)(nil)

// parseCopyPrior reads --copy-prior: "" is the default (nil), "off" no prior, else
// ACTION=NATS pairs.
func parseCopyPrior(spec string) (map[string]float64, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	prior := map[string]float64{}
	if spec == "off" {
		for _, k := range grammar.AllActions {
			prior[k.String()] = 0
		}
		return prior, nil
	}
	for _, part := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if _, known := grammar.ParseActionKind(name); !ok || !known {
			return nil, badInput("--copy-prior: %q is not ACTION=NATS", part)
		}
		n, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, badInput("--copy-prior: %q is not ACTION=NATS", part)
		}
		prior[name] = n
	}
	return prior, nil
}
