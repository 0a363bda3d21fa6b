package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/ndb-project/ndb/train/corpus"
	"github.com/ndb-project/ndb/train/corpus/gencli"
)

// runData implements `ndb data gen` (package gencli, shared with cmd/ndb-datagen),
// `ndb data stats`, `ndb data levels` and `ndb data mix`.
func runData(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "stats" {
		return runDataStats(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "levels" {
		return runDataLevels(args[1:])
	}
	if len(args) > 0 && args[0] == "mix" {
		return runDataMix(args[1:])
	}
	if len(args) == 0 || args[0] != "gen" {
		return badInput("usage: ndb data %s", gencli.Usage)
	}
	err := gencli.Run(ctx, args[1:], os.Stdout, os.Stderr)
	var ue gencli.UsageError
	if errors.As(err, &ue) {
		return badInput("%s", ue.Msg)
	}
	return err
}

// runDataLevels implements `ndb data levels [--corpus DIR]`: the levels files (which
// trajectory of a shard is function or repository level, for `ndb train
// --function-share`) of a corpus tokenized before `ndb data gen` wrote them.
func runDataLevels(args []string) error {
	fs := flag.NewFlagSet("data levels", flag.ContinueOnError)
	dir := fs.String("corpus", "build/corpus", "corpus folder (train.jsonl and train.bin, eval.jsonl and eval.bin)")
	if rest, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return badInput("ndb data levels takes no positional arguments (got %q)", rest)
	}
	if err := corpus.WriteLevels(*dir); err != nil {
		return err
	}
	fmt.Printf("wrote %s and %s in %s\n", corpus.TrainLevels, corpus.EvalLevels, *dir)
	return nil
}

// runDataMix implements `ndb data mix --out DIR CORPUS CORPUS...`: one corpus made of
// several tokenized with one tokenizer, for a run that trains on all of them.
func runDataMix(args []string) error {
	fs := flag.NewFlagSet("data mix", flag.ContinueOnError)
	out := fs.String("out", "", "the mixed corpus folder to write")
	sources, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(sources) < 2 {
		return badInput("usage: ndb data mix --out DIR CORPUS CORPUS...")
	}
	r, err := corpus.Mix(*out, sources)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d training trajectories (%d tokens), %d held out (%d tokens), from %d corpora\n",
		*out, r.TrainTrajectories, r.TrainTokens, r.EvalTrajectories, r.EvalTokens, len(sources))
	return nil
}
