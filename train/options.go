package train

import (
	"time"

	"github.com/ndb-project/ndb/infer"
)

// Options configure a training run. Zero fields take the defaults.
type Options struct {
	// Corpus is a folder written by `ndb data gen`: train.bin, eval.bin, tokenizer.json.
	Corpus string
	// Out is the run folder: the latest checkpoint in Out/checkpoint, the run's
	// state (step, tokens seen, losses) in Out/state.json.
	Out string
	// Model is the architecture; VocabSize is taken from the tokenizer.
	Model infer.Config
	// SeqLen is the packed sequence length (default 512) and Batch the sequences per
	// step (default 4: on two cores batch 8 ran at half the tokens per second).
	SeqLen, Batch int
	// Steps is the number of optimizer steps (default 3,000, about 1.5 hours on two
	// cores); Warmup the linear
	// warmup steps (default 5% of Steps).
	Steps, Warmup int
	// LR is the peak learning rate (default 1.5e-3; the paper's pre-training peak is
	// 1e-3, for far larger models and runs).
	LR float64
	// WeightDecay of AdamW (default 0.1) and the gradient-norm clip (default 1.0).
	WeightDecay, Clip float64
	// EvalEvery steps the held-out loss is measured on EvalBatches batches
	// (defaults 200 and 8); CheckpointEvery steps the checkpoint is written
	// (default 100).
	EvalEvery, EvalBatches, CheckpointEvery int
	// ContextLoss also trains on the source context tokens (default off: the loss is
	// on the trajectory after the context, as the model never has to write source).
	ContextLoss bool
	// Resume continues the run in Out from its last checkpoint.
	Resume bool
	// MaxDuration stops the run early (a checkpoint is written) after this long.
	MaxDuration time.Duration
	// Seed fixes the initialisation and the batches.
	Seed int64
	// Device is cpu, cuda or auto.
	Device string
}

func (o Options) withDefaults() Options {
	if o.SeqLen <= 0 {
		o.SeqLen = 512
	}
	if o.Batch <= 0 {
		o.Batch = 4
	}
	if o.Steps <= 0 {
		o.Steps = 3000
	}
	if o.Warmup <= 0 {
		o.Warmup = max(1, o.Steps/20)
	}
	if o.LR <= 0 {
		o.LR = 1.5e-3
	}
	if o.WeightDecay == 0 {
		o.WeightDecay = 0.1
	}
	if o.Clip == 0 {
		o.Clip = 1.0
	}
	if o.EvalEvery <= 0 {
		o.EvalEvery = 200
	}
	if o.EvalBatches <= 0 {
		o.EvalBatches = 8
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 100
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Device == "" {
		o.Device = "auto"
	}
	if o.Model.MaxSeqLen < o.SeqLen {
		o.Model.MaxSeqLen = o.SeqLen
	}
	return o
}

// DefaultModel is the shipped model's shape: small enough to train in about two
// hours on two CPU cores and to step in well under 150 ms.
var DefaultModel = infer.Config{Dim: 256, Layers: 4, Heads: 8, Hidden: 704, MaxSeqLen: 1024, BOS: -1, EOS: -1}
