package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/train/corpusstats"
)

const dataStatsUsage = "usage: ndb data stats --corpus DIR [--out DIR] [--limit N] [--workers N]"

// runDataStats implements `ndb data stats` (args follow "stats"): the paper's
// Figure 5 for a corpus folder. It prints tokens and actions per trajectory and the
// event mix by level and direction, beside the paper's means, and writes the
// histograms and the event chart as PNG, with the numbers as figure5.json, to --out
// (default DIR/stats). Tokens are counted with DIR/tokenizer.json, or estimated as
// bytes/4 when the corpus has none (the report says which).
func runDataStats(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("data stats", flag.ContinueOnError)
	dir := fs.String("corpus", "", "corpus folder (train.jsonl, eval.jsonl, tokenizer.json)")
	out := fs.String("out", "", "folder for the PNG plots and figure5.json (default: CORPUS/stats)")
	limit := fs.Int("limit", 0, "read at most N trajectories, train.jsonl first (0: all)")
	workers := fs.Int("workers", runtime.NumCPU(), "goroutines decoding and tokenizing")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" || len(rest) > 0 || *limit < 0 {
		return badInput(dataStatsUsage)
	}
	if *out == "" {
		*out = filepath.Join(*dir, "stats")
	}
	tok, err := corpusstats.LoadTokenizer(*dir)
	if err != nil {
		return err
	}
	if tok == nil {
		log.Warn().Str("corpus", *dir).Msg("no tokenizer.json in the corpus: tokens are estimated as bytes/4")
	}
	stats, err := corpusstats.Collect(ctx, corpusstats.Options{Corpus: *dir, Limit: *limit, Tokenizer: tok, Workers: *workers})
	if err != nil {
		return err
	}
	return stats.WriteAll(os.Stdout, *out)
}
