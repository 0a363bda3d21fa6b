package infer

import (
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/sugarme/gotch/ts"
)

// referencePython is Debian's own Python, where Debian's python3-torch imports (the
// python3 first on PATH may be another one). `make pytorch-ref` installs python3-torch.
const referencePython = "/usr/bin/python3.11"

// TestMatchesPyTorchReference checks the model against a second implementation:
// testdata/reference_logits.py, Hugging Face's Llama forward pass written in plain
// PyTorch, reads the checkpoint Save wrote and computes the logits of the same tokens.
func TestMatchesPyTorchReference(t *testing.T) {
	if out, err := exec.Command(referencePython, "-c", "import torch").CombinedOutput(); err != nil {
		t.Skipf("%s cannot import torch (run `make pytorch-ref`): %v %s", referencePython, err, out)
	}
	cases := []struct {
		name   string
		kv     int
		tied   bool
		shards int64
	}{{"mha", 4, false, 0}, {"gqa-tied", 2, true, 0}, {"mqa-sharded", 1, false, 20_000}}
	var args []string
	var got [][][]float32
	for i, c := range cases {
		cfg := tinyConfig()
		// Weights larger than the default init give peaked attention and logits of a
		// few units, so that masking and rotary errors cannot hide in small numbers.
		cfg.KVHeads, cfg.TieEmbeddings, cfg.RopeTheta, cfg.InitStd = c.kv, c.tied, 500, 0.25
		m := newTestModel(t, cfg)
		dir := t.TempDir()
		if err := m.Save(dir, SaveOptions{MaxShardBytes: c.shards}); err != nil {
			t.Fatal(err)
		}
		tokens := randomTokens(cfg.MaxSeqLen, cfg.VocabSize, int64(13+i))
		logits, err := m.Logits(tokens)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, logits)
		args = append(args, dir, joinInts(tokens))
	}
	want := referenceLogits(t, args)
	if len(want) != len(cases) {
		t.Fatalf("reference_logits.py gave %d results for %d checkpoints", len(want), len(cases))
	}
	for i, c := range cases {
		var scale float64
		for _, row := range want[i] {
			for _, v := range row {
				scale = math.Max(scale, math.Abs(float64(v)))
			}
		}
		d := maxDiff(t, got[i], want[i])
		t.Logf("%s: max |Go - PyTorch| = %.3g, max |logit| = %.3g", c.name, d, scale)
		if d > 1e-4*math.Max(1, scale) {
			t.Errorf("%s: logits differ from the PyTorch reference by %g (scale %g)", c.name, d, scale)
		}
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// referenceLogits runs testdata/reference_logits.py on (checkpoint, tokens) pairs.
func referenceLogits(t *testing.T, args []string) [][][]float32 {
	t.Helper()
	cmd := exec.Command(referencePython, append([]string{"testdata/reference_logits.py"}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference_logits.py: %v\n%s", err, stderr.String())
	}
	var res [][][]float32
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("reference_logits.py output: %v", err)
	}
	return res
}

func TestNoGradRestoresGradMode(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, mode := range []bool{true, false, true} {
		ts.MustGradSetEnabled(mode)
		NoGrad(func() {
			if ts.MustGradSetEnabled(false) {
				t.Error("grad mode on inside NoGrad")
			}
		})
		if got := ts.MustGradSetEnabled(true); got != mode {
			t.Errorf("grad mode %v after NoGrad, want %v restored", got, mode)
		}
	}
}
