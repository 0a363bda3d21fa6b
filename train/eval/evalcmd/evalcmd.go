// Package evalcmd runs `ndb eval`'s evaluations end to end: it reads their inputs,
// runs an evaluation with progress on stderr, prints its tables on stdout and writes
// results.md and the PNG plots. The model comes from the caller (Config.Model), so
// the package builds without libtorch; cmd/ndb only parses the flags.
package evalcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/eval"
	"github.com/ndb-project/ndb/train/progress"
)

// Config is what every evaluation takes.
type Config struct {
	// Out is the folder of results.md and the plots.
	Out string
	// Limit is the most prompts per group (0: all); Seed seeds their draw.
	Limit int
	Seed  uint64
	// Command is the command line that regenerates the results (for results.md).
	Command string
	// Model loads the model as a predictor sampling at temperature (0: greedy) with
	// nucleus mass topP; close frees it.
	Model func(temperature, topP float64) (p eval.Predictor, close func(), err error)
	// NextStateExtra, when set, runs after the next-state predictions, on their cases
	// (`--calibrate`: the fit of the confidences' temperatures); its tables join the
	// report.
	NextStateExtra func(cases []eval.Case) ([]*eval.Table, error)
	// GrammarOnly leaves the model to the grammar alone (--constraints grammar). By
	// default the program facts constrain it, and next-state and CruxEval print a
	// row of the grammar alone too, on the same prompts (a Constrainable model).
	GrammarOnly bool
	// NoGrammarRow drops the row of the grammar alone beside the program facts' (half
	// the predictions, for a comparison of checkpoints under the same facts).
	NoGrammarRow bool
	// Actions, when set, keeps only the next-state prompts of these actions (the
	// prompts drawn are the same as without it: the draw is per action).
	Actions []grammar.ActionKind
	// Stdout receives the tables, Stderr the progress; Log the tracer's log.
	Stdout, Stderr io.Writer
	Log            zerolog.Logger
}

// InputError is a problem with the user's input (a missing file, an empty one, a bad
// level): ndb exits with status 2.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, a ...any) error { return InputError{fmt.Errorf(format, a...)} }

// NextState is the next-state prediction evaluation (the paper's Figures 6 and 7) on
// the held-out trajectories of corpus/eval.jsonl; level, when set, keeps one level's.
func NextState(ctx context.Context, cfg Config, corpus, level string) error {
	if level != "" && !slices.Contains(eval.Levels, level) {
		return inputErrorf("--level %q: want one of %s", level, strings.Join(eval.Levels, ", "))
	}
	file, err := os.Open(filepath.Join(corpus, "eval.jsonl"))
	if err != nil {
		return InputError{err}
	}
	cases, st, err := eval.LoadNextState(file, cfg.Limit, cfg.Seed)
	file.Close()
	if err != nil {
		return err
	}
	if level != "" {
		cases = slices.DeleteFunc(cases, func(c eval.Case) bool { return c.Level != level })
	}
	if len(cfg.Actions) > 0 {
		cases = slices.DeleteFunc(cases, func(c eval.Case) bool { return !slices.Contains(cfg.Actions, c.Prompt.Action.Kind) })
	}
	if len(cases) == 0 {
		return inputErrorf("%s/eval.jsonl: no trajectories", corpus)
	}
	entries := cfg.programEntries(filepath.Join(corpus, "eval_programs.jsonl"))
	for i := range cases {
		cases[i].Prompt.Entry = entries[cases[i].Program]
	}
	fmt.Fprintf(cfg.Stderr, "%d prompts from %d held-out trajectories (%d did not decode)\n", len(cases), st.Records, st.Skipped)
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: 1, Log: cfg.Log})
	if err != nil {
		return err
	}
	defer pool.Close()
	model, closeModel, err := cfg.Model(0, 0)
	if err != nil {
		return err
	}
	defer closeModel()
	preds := append(cfg.greedyModels(model, newProgramCache(pool, cfg.Log)), eval.Baseline{})
	bar := progress.New(cfg.Stderr, "nextstate", int64(len(cases)*len(preds)), "predictions")
	res, err := eval.RunNextState(ctx, cases, preds, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	plots, err := res.Plot(cfg.Out)
	if err != nil {
		return err
	}
	// Every prediction as scored, for a look at what a model gets wrong.
	scored, err := eval.WriteJSONL(cfg.Out, "predictions.jsonl", res.Predictions)
	if err != nil {
		return err
	}
	plots = append(plots, scored)
	tables := append(res.Tables(), res.CalibrationTables()...)
	if cfg.NextStateExtra != nil {
		more, err := cfg.NextStateExtra(cases)
		if err != nil {
			return err
		}
		tables = append(tables, more...)
	}
	return cfg.report("Next-state prediction (the paper's Figures 6 and 7) and the calibration of the model's confidences", tables, plots)
}

// programEntries returns the entry of each program of a corpus's programs file, which
// the program facts use; without the file (an older corpus) or with a bad one the
// facts go without (a warning).
func (cfg Config) programEntries(path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		cfg.Log.Warn().Err(err).Msg("no program entries: the program facts go without them")
		return out
	}
	defer f.Close()
	problems, err := eval.LoadProblems(f, 0)
	if err != nil {
		cfg.Log.Warn().Err(err).Str("file", path).Msg("no program entries: the program facts go without them")
		return out
	}
	for _, p := range problems {
		out[p.ID] = p.Entry
	}
	return out
}

// CruxEval is the CruxEval evaluation (the paper's Table 1 and Table A.2) of the
// problems in file (JSONL).
func CruxEval(ctx context.Context, cfg Config, file string) error {
	problems, pool, err := cfg.problemsOnPool(ctx, file)
	if err != nil {
		return err
	}
	defer pool.Close()
	bar := progress.New(cfg.Stderr, "tracing", int64(len(problems)), "problems")
	cases, skipped, err := eval.PrepareCrux(ctx, pool, problems, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	model, closeModel, err := cfg.Model(0, 0)
	if err != nil {
		return err
	}
	defer closeModel()
	preds := append(cfg.greedyModels(model, newProgramCache(pool, cfg.Log)), eval.Baseline{})
	bar = progress.New(cfg.Stderr, "cruxeval", int64(len(cases)*len(preds)), "problems")
	res, err := eval.RunCrux(ctx, pool, cases, preds, true, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	res.Skipped, res.Total = skipped, len(problems)
	plots, err := res.Plot(cfg.Out)
	if err != nil {
		return err
	}
	// Every prediction as scored, for a look at what a model gets wrong.
	scored, err := eval.WriteJSONL(cfg.Out, "predictions.jsonl", res.Predictions)
	if err != nil {
		return err
	}
	return cfg.report("CruxEval (the paper's Table 1 and Table A.2)", []*eval.Table{res.Table()}, append(plots, scored))
}

// Horizon is the prediction-horizon evaluation (the paper's Figure 8) of the
// problems in file: exact match@k for each sample budget in ks, sampling at
// temperature with nucleus mass topP.
func Horizon(ctx context.Context, cfg Config, file string, ks []int, temperature, topP float64) error {
	problems, pool, err := cfg.problemsOnPool(ctx, file)
	if err != nil {
		return err
	}
	defer pool.Close()
	bar := progress.New(cfg.Stderr, "tracing", int64(len(problems)), "problems")
	cases, err := eval.PrepareHorizon(ctx, pool, problems, cfg.Seed, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	model, closeModel, err := cfg.Model(temperature, topP)
	if err != nil {
		return err
	}
	defer closeModel()
	if c, ok := model.(Constrainable); ok {
		model = c.Constrained(c.Name(), newProgramCache(pool, cfg.Log).get, cfg.GrammarOnly, true)
	}
	bar = progress.New(cfg.Stderr, "horizon", int64(len(cases)), "jumps")
	res, err := eval.RunHorizon(ctx, cases, model, eval.Baseline{}, ks, func() { bar.Add(1) })
	bar.Done()
	if err != nil {
		return err
	}
	plots, err := res.Plot(cfg.Out)
	if err != nil {
		return err
	}
	return cfg.report("Prediction horizon (the paper's Figure 8)", []*eval.Table{res.Table()}, plots)
}

// problemsOnPool reads the problems of path and starts the worker pool that traces
// them and runs the checks; the caller closes the pool.
func (cfg Config) problemsOnPool(ctx context.Context, path string) ([]eval.Problem, *trace.Pool, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, InputError{err}
	}
	defer file.Close()
	problems, err := eval.LoadProblems(file, cfg.Limit)
	if err != nil {
		return nil, nil, inputErrorf("%s: %v", path, err)
	}
	if len(problems) == 0 {
		return nil, nil, inputErrorf("%s: no problems", path)
	}
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Log: cfg.Log})
	return problems, pool, err
}

// report prints the tables, writes results.md and lists it and the other files
// written (the plots, predictions.jsonl).
func (cfg Config) report(heading string, tables []*eval.Table, files []string) error {
	for _, t := range tables {
		if err := t.WriteText(cfg.Stdout); err != nil {
			return err
		}
		fmt.Fprintln(cfg.Stdout)
	}
	md, err := eval.WriteMarkdown(cfg.Out, "results.md", heading, cfg.Command, tables...)
	if err != nil {
		return err
	}
	fmt.Fprintf(cfg.Stdout, "wrote %s\n", md)
	for _, p := range files {
		fmt.Fprintf(cfg.Stdout, "wrote %s\n", p)
	}
	return nil
}

// CommandLine is the `ndb eval` command line of args, quoted for a shell.
func CommandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " '\"$()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return "ndb eval " + strings.Join(q, " ")
}
