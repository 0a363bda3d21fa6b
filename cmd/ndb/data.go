package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/corpus"
	"github.com/ndb-project/ndb/train/decontam"
	"github.com/ndb-project/ndb/train/progress"
)

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// runData implements `ndb data gen` and `ndb data stats`.
func runData(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "stats" {
		return runDataStats(ctx, args[1:])
	}
	if len(args) == 0 || args[0] != "gen" {
		return badInput("usage: ndb data gen --out DIR [--programs N] [--seed S] [--trajectories K] [--cruxeval FILE]...")
	}
	fs := flag.NewFlagSet("data gen", flag.ContinueOnError)
	var opts corpus.Options
	fs.StringVar(&opts.Out, "out", "", "folder to write the corpus to")
	fs.IntVar(&opts.Programs, "programs", 50000, "distinct programs to keep")
	fs.Int64Var(&opts.Seed, "seed", 1, "seed of the whole build")
	fs.IntVar(&opts.Trajectories, "trajectories", 16, "trajectories per program (half forward, half inverse)")
	fs.Float64Var(&opts.HeldOut, "held-out", 0.02, "share of programs held out for evaluation")
	workers := fs.Int("workers", runtime.NumCPU(), "tracer worker processes")
	noVerify := fs.Bool("no-verify", false, "skip tracing each program twice to catch nondeterminism")
	repoShare := fs.Float64("repo-share", 0.5, "share of repository-level trajectories (the stdlib's test suite, traced by /usr/bin/python3.11); 0 for none")
	vocab := fs.Int("vocab", 4096, "tokenizer vocabulary size")
	sampleMB := fs.Int64("tokenizer-sample-mb", 64, "MB of training text the tokenizer learns from")
	var crux listFlag
	fs.Var(&crux, "cruxeval", "JSONL file of CruxEval problems that must not appear (repeatable; default: shared/cruxeval/dev.jsonl when found)")
	rest, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if opts.Out == "" || len(rest) > 0 {
		return badInput("usage: ndb data gen --out DIR [--programs N] [--seed S] [--trajectories K] [--cruxeval FILE]...")
	}
	if len(crux) == 0 {
		if dev, err := decontam.FindDevFile("."); err == nil {
			crux = append(crux, dev)
		} else {
			log.Warn().Msg("no CruxEval file found: the corpus is not checked for contamination (pass --cruxeval)")
		}
	}
	opts.CruxEval = crux
	opts.NoVerify = *noVerify
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: *workers, Log: log.Logger})
	if err != nil {
		return err
	}
	defer pool.Close()
	var verify *trace.Pool
	if !opts.NoVerify {
		if verify, err = trace.NewPool(ctx, trace.PoolOptions{Workers: max(1, *workers/2), Log: log.Logger}); err != nil {
			return err
		}
		defer verify.Close()
	}
	bar := progress.New(os.Stderr, "data gen", int64(opts.Programs), "programs")
	var last corpus.Stats
	bar.SetExtra(func() string {
		return fmt.Sprintf("| %d trajectories, %.1f MB, %d dropped", last.Trajectories, float64(last.Bytes)/1e6, last.Generated-last.Kept)
	})
	stats, err := corpus.Build(ctx, pool, verify, opts, func(s corpus.Stats) {
		grew := int64(s.Kept - last.Kept)
		last = s
		bar.Add(grew)
	})
	bar.Done()
	fmt.Print(stats.String())
	if err != nil {
		return err
	}
	if *repoShare > 0 {
		if err := buildRepoLevel(ctx, opts, *repoShare, *workers, stats.Trajectories); err != nil {
			return err
		}
	}
	fmt.Fprintln(os.Stderr, "data gen: training the tokenizer")
	tok, err := corpus.TrainTokenizer(opts.Out, *vocab, *sampleMB<<20)
	if err != nil {
		return fmt.Errorf("tokenizer: %w", err)
	}
	fmt.Fprintln(os.Stderr, "data gen: writing token shards")
	ts, err := corpus.Tokenize(opts.Out, tok)
	if err != nil {
		return err
	}
	fmt.Printf("tokens: %d train (%d trajectories), %d eval (%d trajectories), vocabulary %d; %d dropped for special-token text\n",
		ts.TrainTokens, ts.TrainTrajectories, ts.EvalTokens, ts.EvalTrajectories, tok.VocabSize(), ts.SpecialInText)
	return nil
}

// buildRepoLevel appends repository-level trajectories: the Python 3.11 standard
// library's own tests, traced by Debian's interpreter (make testsuite installs them).
func buildRepoLevel(ctx context.Context, opts corpus.Options, share float64, workers, fnTrajectories int) error {
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: workers, Python: corpus.RepoPython, Log: log.Logger})
	if err != nil {
		return fmt.Errorf("repository level: %w (install the test suite with make testsuite, or pass --repo-share 0)", err)
	}
	defer pool.Close()
	fmt.Fprintln(os.Stderr, "data gen: tracing the standard library's tests")
	rs, err := corpus.BuildRepo(ctx, pool, opts, corpus.RepoOptions{RepoShare: share}, fnTrajectories)
	if err != nil {
		return fmt.Errorf("repository level: %w", err)
	}
	fmt.Printf("repository level: %d trajectories from %d entry calls in %d modules (%d modules failed), %.2f actions each, %.1f MB\n",
		rs.Trajectories, rs.EntryCalls, len(rs.Modules), len(rs.Failed), float64(rs.Actions)/float64(max(rs.Trajectories, 1)), float64(rs.Bytes)/1e6)
	return nil
}
