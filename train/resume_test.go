package train

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// copyCorpus copies a corpus folder and appends a byte to its training shard: the
// same tokens (the header says how many), another SHA-256.
func copyCorpus(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "train.bin" {
			data = append(data, 0)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestResumeIsExact trains a tiny model in three sittings (one ended by a token
// budget, one cancelled as SIGINT would, the last on a copy of the corpus) and in
// one, and wants every step's loss to agree.
func TestResumeIsExact(t *testing.T) {
	dir := tinyCorpus(t)
	recipe := Recipe{Model: tinyModel, SeqLen: 256, Batch: 2, Tokens: 24 * 2 * 256, LR: 3e-3, Warmup: 4, ContextLoss: true}
	opts := func(out string) Options {
		return Options{Corpus: dir, Out: out, Recipe: recipe, EvalEvery: 5, EvalBatches: 1, CheckpointEvery: 7, Device: "cpu"}
	}
	losses := func(into map[int]float64) Progress {
		return func(s State, _ float64) { into[s.Step] = s.Loss }
	}

	straight := map[int]float64{}
	whole, err := Run(context.Background(), opts(t.TempDir()), losses(straight))
	if err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	sat := map[int]float64{}
	o := opts(out)
	o.UntilTokens = 9 * 2 * 256
	st, err := Run(context.Background(), o, losses(sat))
	if err != nil || st.Step != 9 {
		t.Fatalf("first sitting: step %d, %v", st.Step, err)
	}

	// A resume that asks for another recipe is refused; the run is untouched.
	o = opts(out)
	o.Resume, o.Recipe.LR, o.Explicit = true, 1e-3, map[string]bool{"lr": true}
	if _, err := Run(context.Background(), o, nil); err == nil || !strings.Contains(err.Error(), "--lr 0.001") {
		t.Errorf("a resume with another --lr: %v", err)
	}

	// The second sitting is cancelled after step 16; unset fields take the run's recipe.
	ctx, cancel := context.WithCancel(context.Background())
	o = opts(out)
	o.Resume, o.Recipe = true, Recipe{}
	st, err = Run(ctx, o, func(s State, tps float64) {
		losses(sat)(s, tps)
		if s.Step == 16 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || st.Step != 16 {
		t.Fatalf("cancelled sitting: step %d, %v", st.Step, err)
	}

	// The last sitting runs on a copy of the corpus whose shard hashes differently.
	var warned bytes.Buffer
	o = opts(out)
	o.Resume, o.Corpus, o.Log = true, copyCorpus(t, dir), zerolog.New(io.Writer(&warned))
	st, err = Run(context.Background(), o, losses(sat))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warned.String(), "another training shard") {
		t.Errorf("no warning on resuming with another shard: %q", warned.String())
	}
	if st.Step != 24 || st.Sittings != 3 || st.Tokens != whole.Tokens {
		t.Errorf("after three sittings: %+v; in one: %+v", st, whole)
	}
	worst := 0.0
	for step := 1; step <= 24; step++ {
		a, ok1 := straight[step]
		b, ok2 := sat[step]
		if !ok1 || !ok2 {
			t.Fatalf("step %d: no loss (one run %v, sittings %v)", step, ok1, ok2)
		}
		worst = math.Max(worst, math.Abs(a-b))
		if math.Abs(a-b) > 1e-5 {
			t.Errorf("step %d: loss %.7f in one run, %.7f in three sittings", step, a, b)
		}
	}
	t.Logf("24 steps, max |loss difference| %.2g; held-out %.5f vs %.5f", worst, whole.EvalLoss, st.EvalLoss)
	if math.Abs(whole.EvalLoss-st.EvalLoss) > 1e-5 {
		t.Errorf("final held-out loss %.6f in one run, %.6f in three sittings", whole.EvalLoss, st.EvalLoss)
	}
}
