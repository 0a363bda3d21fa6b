package train

import (
	"encoding/json"
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// referencePython is Debian's own Python, where Debian's python3-torch imports
// (`make pytorch-ref` installs it).
const referencePython = "/usr/bin/python3.11"

// adamwProblem is a tiny problem: minimise Σ w·(p − t)² over two parameters.
type adamwProblem struct {
	Shapes  [][]int64   `json:"shapes"`
	Init    [][]float32 `json:"init"`
	Targets [][]float32 `json:"targets"`
	Weights [][]float32 `json:"weights"`
	LRs     []float64   `json:"lrs"` // one per step: the schedule moves the rate
}

func newAdamWProblem() adamwProblem {
	pb := adamwProblem{Shapes: [][]int64{{3, 4}, {5}}, LRs: []float64{0.05, 0.1, 0.08, 0.03, 0.06, 0.02}}
	for k, shape := range pb.Shapes {
		n := int(shape[0])
		if len(shape) == 2 {
			n *= int(shape[1])
		}
		var init, tgt, w []float32
		for i := 0; i < n; i++ {
			x := float64(i + 7*k)
			init = append(init, float32(math.Sin(x)))
			tgt = append(tgt, float32(math.Cos(1.3*x)))
			w = append(w, float32(0.5+math.Abs(math.Sin(2.1*x))))
		}
		pb.Init, pb.Targets, pb.Weights = append(pb.Init, init), append(pb.Targets, tgt), append(pb.Weights, w)
	}
	return pb
}

// pytorchAdamW runs torch.optim.AdamW on the problem and returns every parameter,
// flattened, after each step.
func pytorchAdamW(t *testing.T, pb adamwProblem, wd float64) [][][]float32 {
	t.Helper()
	script := `
import json, sys, torch
d = json.load(sys.stdin)
f = lambda v, s: torch.tensor(v, dtype=torch.float32).reshape(s)
ps = [f(v, s).requires_grad_() for v, s in zip(d["init"], d["shapes"])]
ts = [f(v, s) for v, s in zip(d["targets"], d["shapes"])]
ws = [f(v, s) for v, s in zip(d["weights"], d["shapes"])]
opt = torch.optim.AdamW(ps, lr=1.0, betas=(0.9, 0.95), eps=1e-8, weight_decay=` + jsonFloat(wd) + `)
out = []
for lr in d["lrs"]:
    for g in opt.param_groups:
        g["lr"] = lr
    opt.zero_grad()
    loss = sum((w * (p - t) ** 2).sum() for p, t, w in zip(ps, ts, ws))
    loss.backward()
    opt.step()
    out.append([p.detach().flatten().tolist() for p in ps])
print(json.dumps(out))
`
	in, _ := json.Marshal(pb)
	cmd := exec.Command(referencePython, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && (strings.Contains(stderr.String(), "No module named 'torch'") || errors.Is(err, exec.ErrNotFound)) {
		t.Skipf("%s cannot import torch (run `make pytorch-ref`): %v", referencePython, err)
	}
	if err != nil {
		t.Fatalf("torch.optim.AdamW: %v\n%s", err, stderr.String())
	}
	var steps [][][]float32
	if err := json.Unmarshal(out, &steps); err != nil {
		t.Fatal(err)
	}
	return steps
}

func jsonFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestAdamWMatchesPyTorch runs six steps of AdamW on gotch tensors, saving the
// moments after three and continuing with a new optimizer that loaded them, against
// torch.optim.AdamW run straight through.
func TestAdamWMatchesPyTorch(t *testing.T) {
	const wd = 0.1
	pb := newAdamWProblem()
	want := pytorchAdamW(t, pb, wd)
	vs := nn.NewVarStore(gotch.CPU)
	var params []infer.Param
	var targets, weights []*ts.Tensor
	for k, shape := range pb.Shapes {
		p := vs.Root().MustZeros(string(rune('a'+k)), shape)
		src := ts.MustOfSlice(pb.Init[k]).MustView(shape, true)
		infer.NoGrad(func() { p.Copy_(src) })
		params = append(params, infer.Param{Name: string(rune('a' + k)), Tensor: p})
		targets = append(targets, ts.MustOfSlice(pb.Targets[k]).MustView(shape, true))
		weights = append(weights, ts.MustOfSlice(pb.Weights[k]).MustView(shape, true))
	}
	opt, err := NewAdamW(params, 0.9, 0.95, 1e-8, wd)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), OptimizerFile)
	worst := 0.0
	for step, lr := range pb.LRs {
		if step == 3 { // save, and go on with a new optimizer that loaded the moments
			if err := opt.Save(path); err != nil {
				t.Fatal(err)
			}
			opt.Close()
			if opt, err = NewAdamW(params, 0.9, 0.95, 1e-8, wd); err != nil {
				t.Fatal(err)
			}
			if err := opt.Load(path, step); err != nil {
				t.Fatal(err)
			}
		}
		if err := opt.ZeroGrad(); err != nil {
			t.Fatal(err)
		}
		var loss *ts.Tensor
		for k, p := range params {
			d := p.Tensor.MustSub(targets[k], false)
			term := d.MustMul(d, false).MustMul(weights[k], true).MustSum(gotch.Float, true)
			d.MustDrop()
			if loss == nil {
				loss = term
			} else {
				loss = loss.MustAdd(term, true)
				term.MustDrop()
			}
		}
		if err := loss.Backward(); err != nil {
			t.Fatal(err)
		}
		loss.MustDrop()
		if err := opt.Step(lr); err != nil {
			t.Fatal(err)
		}
		for k, p := range params {
			got := p.Tensor.Float64Values()
			for i, v := range got {
				worst = math.Max(worst, math.Abs(v-float64(want[step][k][i])))
			}
		}
	}
	t.Logf("max |gotch − torch.optim.AdamW| over 6 steps: %.2g", worst)
	if worst > 1e-6 {
		t.Errorf("AdamW differs from torch.optim.AdamW by %g", worst)
	}
	if opt.Steps() != len(pb.LRs) {
		t.Errorf("%d steps counted, want %d", opt.Steps(), len(pb.LRs))
	}
	opt.Close()
}

// A moments file of another model is refused rather than half loaded.
func TestAdamWLoadRefusesOtherParameters(t *testing.T) {
	vs := nn.NewVarStore(gotch.CPU)
	a := vs.Root().MustZeros("a", []int64{2, 2})
	b := vs.Root().MustZeros("b", []int64{3})
	opt, err := NewAdamW([]infer.Param{{Name: "a", Tensor: a}}, 0.9, 0.95, 1e-8, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer opt.Close()
	path := filepath.Join(t.TempDir(), OptimizerFile)
	if err := opt.Save(path); err != nil {
		t.Fatal(err)
	}
	other, err := NewAdamW([]infer.Param{{Name: "a", Tensor: a}, {Name: "b", Tensor: b}}, 0.9, 0.95, 1e-8, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Load(path, 1); err == nil || !strings.Contains(err.Error(), "exp_avg.b") {
		t.Errorf("loading the moments of one parameter into two: %v", err)
	}
}
