package train

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/infer"
)

// Options configure one sitting of a training run: the run's recipe (fixed for the
// whole run, kept in its state.json) and what belongs to this sitting only (where,
// how long, how often to evaluate and save).
type Options struct {
	// Corpus is a folder written by `ndb data gen`: train.bin, eval.bin, tokenizer.json
	// (and train.levels, eval.levels, which --function-share needs).
	Corpus string
	// Out is the run folder: the latest complete checkpoint in Out/checkpoint (weights,
	// optimizer.safetensors and the state.json they belong to), and a copy of that
	// state in Out/state.json.
	Out string
	// Recipe defines the run. On Resume the saved recipe is used; a field named in
	// Explicit that differs from it is refused.
	Recipe Recipe
	// Explicit names the recipe fields the user asked for (RecipeFlags' names): on
	// Resume they must agree with the run's recipe, with Recipe.Init they must agree
	// with the initial checkpoint's shape.
	Explicit map[string]bool
	// Resume continues the run in Out from its last checkpoint: weights, AdamW's
	// moments, the step (which is also the schedule's and the data's position).
	Resume bool
	// UntilTokens ends the sitting (with a checkpoint) once the run has seen this many
	// training tokens in all; 0 for no limit short of the recipe's Tokens.
	UntilTokens int64
	// MaxDuration ends the sitting (with a checkpoint) after this long.
	MaxDuration time.Duration
	// EvalEvery steps the held-out loss is measured on EvalBatches batches (defaults
	// 200 and 8); CheckpointEvery steps a checkpoint is written (default 100).
	EvalEvery, EvalBatches, CheckpointEvery int
	// Device is cpu, cuda or auto.
	Device string
	// Log receives warnings (a resume on another corpus); zero for none.
	Log zerolog.Logger
}

func (o Options) withDefaults() Options {
	if o.EvalEvery <= 0 {
		o.EvalEvery = 200
	}
	if o.EvalBatches <= 0 {
		o.EvalBatches = 8
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 100
	}
	if o.Device == "" {
		o.Device = "auto"
	}
	return o
}

// DefaultModel is the shipped model's shape: small enough to train in about two
// hours on two CPU cores and to step in well under 150 ms.
var DefaultModel = infer.Config{Dim: 256, Layers: 4, Heads: 8, Hidden: 704, MaxSeqLen: 1024, BOS: -1, EOS: -1}
