package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ddpState is what the data-parallel check reads of train_state.json.
type ddpState struct {
	Step      int       `json:"step"`
	World     int       `json:"world_size"`
	Losses    []float64 `json:"losses"`
	EvalLoss  float64   `json:"eval_loss"`
	ProbeLoss float64   `json:"probe_loss"`
}

// checkDataParallel runs the bundle's run.sh on the finished generator rounds in data
// (GEN_SLOTS=0: no live generation, so every process reads the same fixed shards) for
// a step budget, once as one process and once under torchrun as two gloo processes
// with half the batch each, and wants the same loss at every step: the two ranks draw
// the same global batch of windows from the shared seed and train one half each, and
// their averaged gradient is the one process's.
func checkDataParallel(t *testing.T, bundle, data, tmp string) {
	t.Helper()
	run := func(name string, env ...string) ddpState {
		out := filepath.Join(tmp, name)
		cmd := exec.Command(filepath.Join(bundle, "run.sh"))
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), append([]string{"OUT=" + out, "DATA=" + data, "GEN_SLOTS=0",
			"MODEL=tiny", "STEPS=8", "BATCH=4", "SEQ_LEN=256", "EVAL_BATCHES=2", "LOSS_CURVE=1",
			"PYTHON=" + torchPython, "DEVICE=cpu", "TORCH_THREADS=1"}, env...)...)
		start := time.Now()
		b, err := cmd.CombinedOutput()
		t.Logf("%s: run.sh took %.0fs:\n%s", name, time.Since(start).Seconds(), b)
		if err != nil {
			t.Fatalf("%s: run.sh: %v", name, err)
		}
		if strings.Contains(string(b), "Traceback") {
			t.Errorf("%s: a Python traceback in run.sh's output", name)
		}
		var st ddpState
		raw, err := os.ReadFile(filepath.Join(out, "train_state.json"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return st
	}
	one := run("one-process")
	// Debian's torchrun (PyTorch 1.13 on Python 3.11) fails on its default --redirects 0
	// (Python 3.11's IntFlag no longer lists the zero member); redirecting stdout to
	// its log and teeing it back avoids that, and a short monitor interval ends the
	// launch soon after the ranks exit.
	two := run("two-ranks", "NPROC=2", "TORCHRUN_FLAGS=--monitor_interval 1 --redirects 1 --tee 1")
	if one.World != 1 || two.World != 2 {
		t.Fatalf("world sizes %d and %d, want 1 and 2", one.World, two.World)
	}
	if one.Step != 8 || len(one.Losses) != 8 || len(two.Losses) != len(one.Losses) {
		t.Fatalf("one process: %d steps, %d losses; two ranks: %d losses; want 8 each", one.Step, len(one.Losses), len(two.Losses))
	}
	worst := 0.0
	for i := range one.Losses {
		d := math.Abs(one.Losses[i]-two.Losses[i]) / math.Abs(one.Losses[i])
		worst = math.Max(worst, d)
		if d > 1e-5 {
			t.Errorf("step %d: loss %.7f in one process, %.7f over two ranks (relative %.1e)", i+1, one.Losses[i], two.Losses[i], d)
		}
	}
	for _, c := range []struct {
		what     string
		one, two float64
	}{{"held-out loss", one.EvalLoss, two.EvalLoss}, {"probe loss", one.ProbeLoss, two.ProbeLoss}} {
		if d := math.Abs(c.one-c.two) / math.Abs(c.one); d > 1e-5 {
			t.Errorf("%s %.7f in one process, %.7f over two ranks", c.what, c.one, c.two)
		}
	}
	if !(one.Losses[len(one.Losses)-1] < one.Losses[0]) {
		t.Errorf("the loss did not fall over 8 steps: %v", one.Losses)
	}
	t.Logf("8 steps, one process vs two gloo ranks: largest relative loss difference %.1e; held-out %.5f vs %.5f",
		worst, one.EvalLoss, two.EvalLoss)
}
