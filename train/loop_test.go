package train

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/corpus"
)

// tinyCorpus builds a real corpus of a few programs, with its tokenizer and shards.
func tinyCorpus(t *testing.T) string {
	t.Helper()
	pool, err := trace.NewPool(context.Background(), trace.PoolOptions{Workers: 2, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	dir := t.TempDir()
	if _, err := corpus.Build(context.Background(), pool, nil, corpus.Options{Out: dir, Programs: 40, Seed: 2, Trajectories: 4, HeldOut: 0.2}, nil); err != nil {
		t.Fatal(err)
	}
	tok, err := corpus.TrainTokenizer(dir, 600, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Tokenize(dir, tok); err != nil {
		t.Fatal(err)
	}
	return dir
}

var tinyModel = infer.Config{Dim: 32, Layers: 2, Heads: 2, Hidden: 64, BOS: -1, EOS: -1}

func TestTrainingLowersLossAndResumes(t *testing.T) {
	dir := tinyCorpus(t)
	out := t.TempDir()
	o := Options{Corpus: dir, Out: out, Model: tinyModel, SeqLen: 256, Batch: 4, Steps: 60, LR: 3e-3,
		EvalEvery: 30, EvalBatches: 2, CheckpointEvery: 20, Device: "cpu"}
	var first float64
	st, err := Run(context.Background(), o, func(s State, _ float64) {
		if s.Step == 1 {
			first = s.TrainLoss
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Step != 60 || st.EvalLoss <= 0 {
		t.Fatalf("state after the run: %+v", st)
	}
	if st.TrainLoss >= first-0.5 {
		t.Errorf("training loss went from %.3f to %.3f: not learning", first, st.TrainLoss)
	}
	for _, f := range []string{infer.ConfigFile, infer.TokenizerFile, "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(out, CheckpointDir, f)); err != nil {
			t.Errorf("checkpoint lacks %s: %v", f, err)
		}
	}
	// Resume: more steps continue from the saved state and weights.
	o.Steps, o.Resume = 80, true
	st2, err := Run(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st2.Step != 80 || st2.Tokens != st.Tokens+20*4*256 {
		t.Errorf("resumed run: %+v (before: %+v)", st2, st)
	}
	if st2.TrainLoss > st.TrainLoss+0.5 {
		t.Errorf("resumed training loss %.3f jumped from %.3f: weights not restored", st2.TrainLoss, st.TrainLoss)
	}
}

func TestLearningRateSchedule(t *testing.T) {
	if lr := LearningRate(0, 10, 100, 1); lr != 0.1 {
		t.Errorf("first warmup step: %v", lr)
	}
	if lr := LearningRate(9, 10, 100, 1); lr != 1 {
		t.Errorf("end of warmup: %v", lr)
	}
	if lr := LearningRate(55, 10, 100, 1); lr < 0.49 || lr > 0.51 {
		t.Errorf("half way through the decay: %v", lr)
	}
	if lr := LearningRate(100, 10, 100, 1); lr != 0 {
		t.Errorf("the end: %v", lr)
	}
}
