package main

import (
	"context"
	"flag"
	"os"

	"github.com/ndb-project/ndb/train"
)

// runTrain implements `ndb train --corpus DIR --out DIR [--resume] ...`.
func runTrain(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	o := train.Options{Model: train.DefaultModel}
	fs.StringVar(&o.Corpus, "corpus", "build/corpus", "corpus folder from ndb data gen")
	fs.StringVar(&o.Out, "out", "build/run", "run folder (checkpoint and state)")
	fs.IntVar(&o.Steps, "steps", 3000, "optimizer steps")
	fs.IntVar(&o.Batch, "batch", 4, "sequences per step")
	fs.IntVar(&o.SeqLen, "seq", 512, "packed sequence length")
	fs.Float64Var(&o.LR, "lr", 1.5e-3, "peak learning rate")
	fs.IntVar(&o.Model.Dim, "dim", o.Model.Dim, "model width")
	fs.IntVar(&o.Model.Layers, "layers", o.Model.Layers, "transformer layers")
	fs.IntVar(&o.Model.Heads, "heads", o.Model.Heads, "attention heads")
	fs.IntVar(&o.Model.Hidden, "hidden", o.Model.Hidden, "feed-forward width")
	fs.IntVar(&o.EvalEvery, "eval-every", 200, "steps between held-out evaluations")
	fs.IntVar(&o.CheckpointEvery, "checkpoint-every", 100, "steps between checkpoints")
	fs.BoolVar(&o.ContextLoss, "context-loss", false, "also train on the source context tokens")
	fs.BoolVar(&o.Resume, "resume", false, "continue the run in --out from its checkpoint")
	fs.DurationVar(&o.MaxDuration, "max-duration", 0, "stop (with a checkpoint) after this long")
	fs.Int64Var(&o.Seed, "seed", 1, "seed of the initialisation and the batches")
	fs.StringVar(&o.Device, "device", "auto", "cpu, cuda or auto")
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return badInput("ndb train takes no positional arguments (got %q)", rest)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	_, err := train.RunWithBar(ctx, o, os.Stderr, os.Stdout)
	return err
}
