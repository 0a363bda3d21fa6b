package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/train"
)

// runTrain implements `ndb train --corpus DIR --out DIR [--resume] ...`: one sitting
// of a run. SIGINT and SIGTERM end the sitting with a checkpoint and a clean exit.
func runTrain(ctx context.Context, args []string) error {
	o := train.Options{Recipe: train.Recipe{Model: train.DefaultModel}}
	fs, steps := trainFlags(&o)
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return badInput("ndb-infer train takes no positional arguments (got %q)", rest)
	}
	o.Explicit = map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(train.RecipeFlags(), f.Name) {
			o.Explicit[f.Name] = true
		}
	})
	if *steps > 0 {
		if o.Explicit["tokens"] {
			return badInput("--steps and --tokens both plan the run: give one")
		}
		o.Recipe.Tokens = int64(*steps) * int64(o.Recipe.Batch*o.Recipe.SeqLen)
		o.Explicit["tokens"] = true
	}
	o.Log = log.Logger
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err := train.RunWithBar(ctx, o, os.Stderr, os.Stdout)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		fmt.Printf("stopped by a signal; checkpoint written; --resume continues\n")
		return nil
	}
	return err
}

// trainFlags defines the flags of `ndb train` on o, and --steps (returned: it sets
// o.Recipe.Tokens once the batch shape is known).
func trainFlags(o *train.Options) (*flag.FlagSet, *int) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	r := &o.Recipe
	fs.StringVar(&o.Corpus, "corpus", "build/corpus", "corpus folder from ndb data gen")
	fs.StringVar(&o.Out, "out", "build/run", "run folder (checkpoint and state)")
	// The recipe: fixed for the whole run, kept in state.json, refused on --resume
	// when it differs.
	fs.Int64Var(&r.Tokens, "tokens", 6_144_000, "planned training tokens: the schedule's length")
	steps := fs.Int("steps", 0, "planned steps instead of --tokens (tokens = steps × batch × seq)")
	fs.IntVar(&r.Batch, "batch", 4, "sequences per step")
	fs.IntVar(&r.SeqLen, "seq", 512, "packed sequence length")
	fs.IntVar(&r.Warmup, "warmup", 0, "linear warmup steps (0: 5% of the steps)")
	fs.Float64Var(&r.LR, "lr", 1.5e-3, "peak learning rate")
	fs.Float64Var(&r.WeightDecay, "weight-decay", 0.1, "AdamW's decoupled weight decay")
	fs.Float64Var(&r.Clip, "clip", 1.0, "gradient-norm clip")
	fs.IntVar(&r.Model.Dim, "dim", r.Model.Dim, "model width")
	fs.IntVar(&r.Model.Layers, "layers", r.Model.Layers, "transformer layers")
	fs.IntVar(&r.Model.Heads, "heads", r.Model.Heads, "attention heads")
	fs.IntVar(&r.Model.Hidden, "hidden", r.Model.Hidden, "feed-forward width")
	fs.BoolVar(&r.ContextLoss, "context-loss", false, "also train on the source context tokens")
	fs.Float64Var(&r.FunctionShare, "function-share", 0, "share of windows starting at a function-level trajectory (0: the corpus's mix)")
	fs.Int64Var(&r.Seed, "seed", 1, "seed of the initialisation and the batches")
	fs.StringVar(&r.Init, "init", "", "start the weights from this checkpoint folder (a new run, fresh optimizer state)")
	// The sitting.
	fs.BoolVar(&o.Resume, "resume", false, "continue the run in --out from its checkpoint")
	fs.Int64Var(&o.UntilTokens, "until-tokens", 0, "end this sitting (with a checkpoint) once the run has seen this many tokens")
	fs.DurationVar(&o.MaxDuration, "max-duration", 0, "end this sitting (with a checkpoint) after this long")
	fs.IntVar(&o.EvalEvery, "eval-every", 200, "steps between held-out evaluations")
	fs.IntVar(&o.CheckpointEvery, "checkpoint-every", 100, "steps between checkpoints")
	fs.StringVar(&o.Device, "device", "auto", "cpu, cuda or auto")
	return fs, steps
}
