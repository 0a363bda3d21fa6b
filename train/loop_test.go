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
	o := Options{Corpus: dir, Out: out, EvalEvery: 30, EvalBatches: 2, CheckpointEvery: 20, Device: "cpu",
		Recipe: Recipe{Model: tinyModel, SeqLen: 256, Batch: 4, Tokens: 80 * 4 * 256, LR: 3e-3}}
	o.UntilTokens = 60 * 4 * 256
	var first float64
	st, err := Run(context.Background(), o, func(s State, _ float64) {
		if s.Step == 1 {
			first = s.TrainLoss
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Step != 60 || st.EvalLoss <= 0 || st.EvalLossFunction <= 0 {
		t.Fatalf("state after the first sitting: %+v", st)
	}
	if st.TrainLoss >= first-0.5 {
		t.Errorf("training loss went from %.3f to %.3f: not learning", first, st.TrainLoss)
	}
	for _, f := range []string{infer.ConfigFile, infer.TokenizerFile, infer.WeightsFile, OptimizerFile, StateFile} {
		if _, err := os.Stat(filepath.Join(out, CheckpointDir, f)); err != nil {
			t.Errorf("checkpoint lacks %s: %v", f, err)
		}
	}
	// A new run over an existing one is refused.
	o.UntilTokens = 0
	if _, err := Run(context.Background(), o, nil); err == nil {
		t.Error("a new run was started over the run in the folder")
	}
	// Resume: the run goes on to its planned tokens.
	o.Resume = true
	st2, err := Run(context.Background(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st2.Step != 80 || st2.Tokens != st.Tokens+20*4*256 || st2.Sittings != 2 {
		t.Errorf("resumed run: %+v (before: %+v)", st2, st)
	}
	if st2.TrainLoss > st.TrainLoss+0.5 {
		t.Errorf("resumed training loss %.3f jumped from %.3f: weights not restored", st2.TrainLoss, st.TrainLoss)
	}
	// A warm start from that checkpoint: a new run whose first loss is the trained one's.
	o2 := Options{Corpus: dir, Out: t.TempDir(), EvalBatches: 1, Device: "cpu",
		Recipe:   Recipe{Model: tinyModel, SeqLen: 256, Batch: 4, Tokens: 4 * 256, LR: 3e-3, Init: filepath.Join(out, CheckpointDir)},
		Explicit: map[string]bool{"init": true}}
	var warm float64
	st3, err := Run(context.Background(), o2, func(s State, _ float64) { warm = s.Loss })
	if err != nil {
		t.Fatal(err)
	}
	if warm > st2.TrainLoss+0.5 || st3.Recipe.Init == "" || st3.Step != 1 {
		t.Errorf("warm start from a run at loss %.3f: first loss %.3f (fresh: %.3f), state %+v", st2.TrainLoss, warm, first, st3)
	}
	o2.Out, o2.Recipe.Model.Dim, o2.Explicit["dim"] = t.TempDir(), 64, true
	if _, err := Run(context.Background(), o2, nil); err == nil {
		t.Error("--init with another --dim than the checkpoint's was accepted")
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
