package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/infer"
)

// torchPython is Debian's interpreter with python3-torch (make pytorch-ref).
const torchPython = "/usr/bin/python3.11"

// TestGPUBundleDryRun is the device command on the CPU: the bundle is assembled as
// `make gpu-bundle` does, run.sh generates data while train.py trains a tiny model for
// a few seconds, and the checkpoint must load in Go, give finite logits, match the
// trainer's probe loss, and beat the initial held-out loss. Then the rounds it
// generated train the same steps in one process and in two gloo processes under
// torchrun (checkDataParallel).
func TestGPUBundleDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("the dry run takes a minute or two")
	}
	if err := exec.Command(torchPython, "-c", "import torch, numpy").Run(); err != nil {
		t.Skipf("%s cannot import torch and numpy (install Debian's python3-torch: make pytorch-ref): %v", torchPython, err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH for the tracer")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bundle, out := filepath.Join(tmp, "bundle"), filepath.Join(tmp, "out")
	start := time.Now()
	build := exec.Command(filepath.Join(root, "scripts", "gpu-bundle.sh"), bundle)
	build.Env = append(os.Environ(), "GO="+filepath.Join(runtime.GOROOT(), "bin", "go"))
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("gpu-bundle.sh: %v\n%s", err, b)
	}
	built := time.Since(start)
	run := exec.Command(filepath.Join(bundle, "run.sh"))
	run.Dir = tmp
	run.Env = append(os.Environ(), "OUT="+out, "DATA="+filepath.Join(tmp, "data"), "MODEL=tiny", "TIME_BUDGET=15",
		"PYTHON="+torchPython, "DEVICE=cpu", "TORCH_THREADS=1", "GEN_SLOTS=1", "GEN_WORKERS=1",
		"FIRST_PROGRAMS=40", "ROUND_PROGRAMS=60", "VERIFY=0", "EVAL_EVERY=5", "EVAL_BATCHES=2", "SEQ_LEN=256", "BATCH=4", "MAX_SHARD_MB=1")
	b, err := run.CombinedOutput()
	t.Logf("bundle built in %.0fs, run.sh took %.0fs:\n%s", built.Seconds(), time.Since(start).Seconds()-built.Seconds(), b)
	if err != nil {
		t.Fatalf("run.sh: %v", err)
	}

	var st struct {
		Step        int     `json:"step"`
		EvalLoss    float64 `json:"eval_loss"`
		InitialLoss float64 `json:"initial_eval_loss"`
		ProbeTokens []int   `json:"probe_tokens"`
		ProbeLoss   float64 `json:"probe_loss"`
	}
	data, err := os.ReadFile(filepath.Join(out, "train_state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if st.Step == 0 || !(st.EvalLoss < st.InitialLoss) {
		t.Errorf("%d steps: held-out loss %.4f, initially %.4f: want lower", st.Step, st.EvalLoss, st.InitialLoss)
	}
	if _, err := os.Stat(filepath.Join(out, infer.IndexFile)); err != nil {
		t.Errorf("no shard index: %v", err)
	}
	shards, _ := filepath.Glob(filepath.Join(out, "model-*-of-*.safetensors"))
	for _, s := range shards {
		if fi, err := os.Stat(s); err != nil || fi.Size() > 16<<20 {
			t.Errorf("%s: over 16 MiB or unreadable (%v)", s, err)
		}
	}

	m, err := infer.Load(out, gotch.CPU)
	if err != nil {
		t.Fatalf("the Go loader: %v", err)
	}
	defer m.Close()
	if len(st.ProbeTokens) < 2 {
		t.Fatalf("no probe tokens in train_state.json")
	}
	rows, err := m.ForwardAll(st.ProbeTokens[:len(st.ProbeTokens)-1], 0)
	if err != nil {
		t.Fatal(err)
	}
	loss := 0.0
	for i, row := range rows {
		mx := math.Inf(-1)
		for _, v := range row {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("position %d: logit %v", i, v)
			}
			mx = math.Max(mx, float64(v))
		}
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(float64(v) - mx)
		}
		loss += mx + math.Log(sum) - float64(row[st.ProbeTokens[i+1]])
	}
	loss /= float64(len(rows))
	if math.Abs(loss-st.ProbeLoss) > 1e-3*math.Max(1, st.ProbeLoss) {
		t.Errorf("probe loss in Go %.5f, in PyTorch %.5f: the architectures differ", loss, st.ProbeLoss)
	}
	t.Logf("%d steps, held-out loss %.4f -> %.4f; probe loss Go %.5f, PyTorch %.5f; %d shards",
		st.Step, st.InitialLoss, st.EvalLoss, loss, st.ProbeLoss, len(shards))
	if strings.Contains(string(b), "Traceback") {
		t.Errorf("a Python traceback in run.sh's output")
	}
	checkDataParallel(t, bundle, filepath.Join(tmp, "data"), tmp)
}
