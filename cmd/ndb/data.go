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

// runData implements `ndb data gen`.
func runData(ctx context.Context, args []string) error {
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
	return err
}
