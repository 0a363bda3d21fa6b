package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/eval"
	"github.com/ndb-project/ndb/train/progress"
)

const evalUsage = "usage: ndb eval nextstate [--corpus DIR] | cruxeval FILE.jsonl | horizon FILE.jsonl  [--limit N] [--model DIR] [--out DIR] [--constraints program|grammar]"

// runEval implements `ndb eval nextstate|cruxeval|horizon`: the paper's evaluations
// on a checkpoint (the bundled model, or --model DIR). Each prints its tables on
// stdout, writes results.md and PNG plots into --out, and shows progress on stderr.
func runEval(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return badInput(evalUsage)
	}
	switch args[0] {
	case "nextstate":
		return runEvalNextState(ctx, args[1:])
	case "cruxeval":
		return runEvalCruxEval(ctx, args[1:])
	case "horizon":
		return runEvalHorizon(ctx, args[1:])
	}
	return badInput("ndb eval: unknown evaluation %q; %s", args[0], evalUsage)
}

// evalFlags are the flags every evaluation takes.
type evalFlags struct {
	model, device, out *string
	constraints        *string
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
	}
}

// loaded is a checkpoint ready to predict with.
type loaded struct {
	model *infer.Model
	tok   *tokenizer.Tokenizer
	vocab *infer.Vocab
	dir   string
}

func loadEvalModel(f evalFlags) (*loaded, error) {
	dev, err := infer.ParseDevice(*f.device)
	if err != nil {
		return nil, badInput("%v", err)
	}
	dir, err := models.Resolve(*f.model)
	if err != nil {
		return nil, err
	}
	infer.SetThreads(0)
	m, tok, err := neural.Load(dir, dev)
	if err != nil {
		return nil, err
	}
	return &loaded{model: m, tok: tok, vocab: infer.NewVocab(tok), dir: dir}, nil
}

// modelName labels the model's rows: the flag's folder, or "bundled model".
func modelName(f evalFlags) string {
	if *f.model == "" {
		return "model (bundled)"
	}
	return "model (" + filepath.Base(filepath.Clean(*f.model)) + ")"
}

// commandLine is the command that regenerates a result, for results.md.
func commandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " '\"$()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return "ndb eval " + strings.Join(q, " ")
}

// report prints the tables, writes results.md and lists the files written.
func report(out, heading, cmd string, tables []*eval.Table, plots []string) error {
	for _, t := range tables {
		if err := t.WriteText(os.Stdout); err != nil {
			return err
		}
		fmt.Println()
	}
	md, err := eval.WriteMarkdown(out, "results.md", heading, cmd, tables...)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", md)
	for _, p := range plots {
		fmt.Printf("wrote %s\n", p)
	}
	return nil
}

func runEvalNextState(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("eval nextstate", flag.ContinueOnError)
	corpus := fs.String("corpus", filepath.Join("build", "corpus"), "corpus `DIR` whose eval.jsonl holds the held-out trajectories")
	f := addEvalFlags(fs, "nextstate", 800)
	level := fs.String("level", "", "only the trajectories of this `LEVEL` (function or repository; default both)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return badInput("usage: ndb eval nextstate [--corpus DIR] [--level LEVEL] [--limit N] [--model DIR] [--out DIR]")
	}
	if *level != "" && !slices.Contains(eval.Levels, *level) {
		return badInput("--level %q: want one of %s", *level, strings.Join(eval.Levels, ", "))
	}
	file, err := os.Open(filepath.Join(*corpus, "eval.jsonl"))
	if err != nil {
		return badInput("%v", err)
	}
	cases, st, err := eval.LoadNextState(file, *f.limit, *f.seed)
	file.Close()
	if err != nil {
		return err
	}
	if *level != "" {
		cases = slices.DeleteFunc(cases, func(c eval.Case) bool { return c.Level != *level })
	}
	if len(cases) == 0 {
		return badInput("%s/eval.jsonl: no trajectories", *corpus)
	}
	fmt.Fprintf(os.Stderr, "%d prompts from %d held-out trajectories (%d did not decode)\n", len(cases), st.Records, st.Skipped)
	m, err := loadEvalModel(f)
	if err != nil {
		return err
	}
	defer m.model.Close()
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: 1, Log: log.Logger})
	if err != nil {
		return err
	}
	defer pool.Close()
	models, err := greedyModels(f, m, newProgramCache(pool))
	if err != nil {
		return err
	}
	preds := append(models, eval.Baseline{})
	bar := progress.New(os.Stderr, "nextstate", int64(len(cases)*len(preds)), "predictions")
	res, err := eval.RunNextState(ctx, cases, preds, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	plots, err := res.Plot(*f.out)
	if err != nil {
		return err
	}
	return report(*f.out, "Next-state prediction (the paper's Figures 6 and 7)", commandLine(append([]string{"nextstate"}, args...)), res.Tables(), plots)
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
	problems, pool, err := problemsOnPool(ctx, rest[0], *f.limit)
	if err != nil {
		return err
	}
	defer pool.Close()
	bar := progress.New(os.Stderr, "tracing", int64(len(problems)), "problems")
	cases, skipped, err := eval.PrepareCrux(ctx, pool, problems, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	m, err := loadEvalModel(f)
	if err != nil {
		return err
	}
	defer m.model.Close()
	models, err := greedyModels(f, m, newProgramCache(pool))
	if err != nil {
		return err
	}
	preds := append(models, eval.Baseline{})
	bar = progress.New(os.Stderr, "cruxeval", int64(len(cases)*len(preds)), "problems")
	res, err := eval.RunCrux(ctx, pool, cases, preds, true, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	res.Skipped, res.Total = skipped, len(problems)
	plots, err := res.Plot(*f.out)
	if err != nil {
		return err
	}
	return report(*f.out, "CruxEval (the paper's Table 1 and Table A.2)", commandLine(append([]string{"cruxeval"}, args...)), []*eval.Table{res.Table()}, plots)
}

// problemsOnPool reads the problems of path and starts the worker pool that traces
// them and runs the checks; the caller closes the pool.
func problemsOnPool(ctx context.Context, path string, limit int) ([]eval.Problem, *trace.Pool, error) {
	problems, err := readProblems(path, limit)
	if err != nil {
		return nil, nil, err
	}
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Log: log.Logger})
	return problems, pool, err
}

// greedyModels are the loaded model as greedy predictors: under the program facts and
// under the grammar alone (--constraints program, the default), or the grammar alone
// (--constraints grammar). Both count invented predictions by the facts.
func greedyModels(f evalFlags, m *loaded, programs *programCache) ([]eval.Predictor, error) {
	// One generator for both: it owns the model's KV cache.
	base := newModelPredictor(modelName(f), m.model, m.tok, m.vocab, *f.maxTokens, infer.NewSampler(0, 0, int64(*f.seed)))
	mk := func(grammarOnly bool) *modelPredictor {
		p := *base
		p.name += " [program]"
		if grammarOnly {
			p.name = base.name + " [grammar]"
		}
		p.programs, p.grammarOnly = programs, grammarOnly
		return &p
	}
	switch *f.constraints {
	case "program":
		return []eval.Predictor{mk(false), mk(true)}, nil
	case "grammar":
		return []eval.Predictor{mk(true)}, nil
	}
	return nil, badInput("--constraints %q: want program or grammar", *f.constraints)
}

// readProblems reads a JSONL file of problems (CruxEval's or a corpus's programs).
func readProblems(path string, limit int) ([]eval.Problem, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, badInput("%v", err)
	}
	defer file.Close()
	problems, err := eval.LoadProblems(file, limit)
	if err != nil {
		return nil, badInput("%s: %v", path, err)
	}
	if len(problems) == 0 {
		return nil, badInput("%s: no problems", path)
	}
	return problems, nil
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
	problems, pool, err := problemsOnPool(ctx, rest[0], *f.limit)
	if err != nil {
		return err
	}
	defer pool.Close()
	bar := progress.New(os.Stderr, "tracing", int64(len(problems)), "problems")
	cases, err := eval.PrepareHorizon(ctx, pool, problems, *f.seed, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	m, err := loadEvalModel(f)
	if err != nil {
		return err
	}
	defer m.model.Close()
	model := newModelPredictor(modelName(f), m.model, m.tok, m.vocab, *f.maxTokens, infer.NewSampler(*temp, *topP, int64(*f.seed)))
	model.programs, model.grammarOnly = newProgramCache(pool), *f.constraints == "grammar"
	bar = progress.New(os.Stderr, "horizon", int64(len(cases)), "jumps")
	res, err := eval.RunHorizon(ctx, cases, model, eval.Baseline{}, ks, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	plots, err := res.Plot(*f.out)
	if err != nil {
		return err
	}
	return report(*f.out, "Prediction horizon (the paper's Figure 8)", commandLine(append([]string{"horizon"}, args...)), []*eval.Table{res.Table()}, plots)
}
