// Package gencli is `ndb data gen`: its flags and its run, shared by cmd/ndb and by
// cmd/ndb-datagen, the statically linked generator of the GPU bundle (no libtorch).
package gencli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/corpus"
	"github.com/ndb-project/ndb/train/decontam"
	"github.com/ndb-project/ndb/train/progress"
)

// Usage is the synopsis of the command's flags.
const Usage = "gen --out DIR [--programs N] [--seed S] [--trajectories K] [--tokenizer FILE] [--repo-share F] [--cruxeval FILE]..."

// UsageError reports bad arguments (the caller exits with its usage status).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// Run parses args (the flags after `gen`) and builds the corpus: programs traced by
// python3 on PATH, the standard library's tests (unless --repo-share 0), then the
// tokenizer (trained, or the one given with --tokenizer) and the token shards.
// Results go to stdout, progress to stderr.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("data gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
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
	tokFile := fs.String("tokenizer", "", "use this tokenizer.json instead of training one (e.g. the shipped model's)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	var crux listFlag
	fs.Var(&crux, "cruxeval", "JSONL file of CruxEval problems that must not appear (repeatable; default: shared/cruxeval/dev.jsonl when found)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			fs.SetOutput(&b)
			fs.PrintDefaults()
			return UsageError{"usage: " + Usage + "\n" + b.String()}
		}
		return UsageError{err.Error()}
	}
	if opts.Out == "" || fs.NArg() > 0 {
		return UsageError{"usage: " + Usage}
	}
	var tok *tokenizer.Tokenizer
	if *tokFile != "" {
		var err error
		if tok, err = tokenizer.LoadFile(*tokFile); err != nil {
			return fmt.Errorf("tokenizer: %w", err)
		}
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
	barOut := stderr
	if *quiet {
		barOut = io.Discard
	}
	bar := progress.New(barOut, "data gen", int64(opts.Programs), "programs")
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
	fmt.Fprint(stdout, stats.String())
	if err != nil {
		return err
	}
	if *repoShare > 0 {
		if err := buildRepoLevel(ctx, opts, *repoShare, *workers, stats.Trajectories, stdout, stderr); err != nil {
			return err
		}
	}
	if tok != nil {
		if err := tok.SaveFile(filepath.Join(opts.Out, corpus.TokenizerFile)); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(stderr, "data gen: training the tokenizer")
		if tok, err = corpus.TrainTokenizer(opts.Out, *vocab, *sampleMB<<20); err != nil {
			return fmt.Errorf("tokenizer: %w", err)
		}
	}
	fmt.Fprintln(stderr, "data gen: writing token shards")
	ts, err := corpus.Tokenize(opts.Out, tok)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tokens: %d train (%d trajectories), %d eval (%d trajectories), vocabulary %d; %d dropped for special-token text\n",
		ts.TrainTokens, ts.TrainTrajectories, ts.EvalTokens, ts.EvalTrajectories, tok.VocabSize(), ts.SpecialInText)
	return nil
}

// buildRepoLevel appends repository-level trajectories: the Python 3.11 standard
// library's own tests, traced by Debian's interpreter (make testsuite installs them).
func buildRepoLevel(ctx context.Context, opts corpus.Options, share float64, workers, fnTrajectories int, stdout, stderr io.Writer) error {
	pool, err := trace.NewPool(ctx, trace.PoolOptions{Workers: workers, Python: corpus.RepoPython, HashSeed: "0", Log: log.Logger})
	if err != nil {
		return fmt.Errorf("repository level: %w (install the test suite with make testsuite, or pass --repo-share 0)", err)
	}
	defer pool.Close()
	fmt.Fprintln(stderr, "data gen: tracing the standard library's tests")
	rs, err := corpus.BuildRepo(ctx, pool, opts, corpus.RepoOptions{RepoShare: share}, fnTrajectories)
	if err != nil {
		return fmt.Errorf("repository level: %w", err)
	}
	fmt.Fprintf(stdout, "repository level: %d trajectories from %d entry calls in %d modules (%d modules failed, %d unstable entry calls left out), %.2f actions each, %.1f MB\n",
		rs.Trajectories, rs.EntryCalls, len(rs.Modules), len(rs.Failed), rs.Unstable, float64(rs.Actions)/float64(max(rs.Trajectories, 1)), float64(rs.Bytes)/1e6)
	return nil
}
