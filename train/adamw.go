package train

import (
	"fmt"
	"math"

	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// OptimizerFile holds AdamW's moments beside a checkpoint's weights: for every
// parameter NAME, "exp_avg.NAME" and "exp_avg_sq.NAME" (PyTorch's names for them).
// The step count lives in the run's state.
const OptimizerFile = "optimizer.safetensors"

// AdamW is torch.optim.AdamW (amsgrad off, decoupled weight decay on every
// parameter) on gotch tensors. It is written here rather than taken from gotch
// because gotch's optimizer keeps its moments inside libtorch where they cannot be
// saved, and a resumed run must continue with them.
type AdamW struct {
	Beta1, Beta2, Eps, WeightDecay float64

	params  []infer.Param
	expAvg  []*ts.Tensor // first moments, one per parameter, same shape
	expAvg2 []*ts.Tensor // second moments
	steps   int          // updates done (the bias corrections' t)
}

// NewAdamW starts AdamW on params with zero moments.
func NewAdamW(params []infer.Param, beta1, beta2, eps, weightDecay float64) (a *AdamW, err error) {
	a = &AdamW{Beta1: beta1, Beta2: beta2, Eps: eps, WeightDecay: weightDecay, params: params}
	infer.NoGrad(func() {
		defer recoverTorch(&err, "AdamW")
		for _, p := range params {
			a.expAvg = append(a.expAvg, mustT(p.Tensor.ZerosLike(false)))
			a.expAvg2 = append(a.expAvg2, mustT(p.Tensor.ZerosLike(false)))
		}
	})
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Steps is the number of updates done.
func (a *AdamW) Steps() int { return a.steps }

// ZeroGrad zeroes the parameters' gradients (before a backward pass).
func (a *AdamW) ZeroGrad() (err error) {
	defer recoverTorch(&err, "AdamW.ZeroGrad")
	for _, p := range a.params {
		g := mustT(p.Tensor.Grad(false)) // a handle on the gradient, not a copy
		if ok, err := g.Defined(); err == nil && ok {
			checkT(g.Zero_())
		}
		checkT(g.Drop())
	}
	return nil
}

// Step applies one update with learning rate lr to every parameter that has a
// gradient, as PyTorch's AdamW does:
//
//	p  ← p·(1 − lr·wd)
//	m  ← m + (1 − β1)(g − m)
//	v  ← β2·v + (1 − β2)·g²
//	p  ← p − lr/(1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε)
//
// in nine in-place operations and one temporary per parameter (the last line as
// p + m / (√v·a + b) with a and b folding the step size in), so that it costs what
// libtorch's own AdamW does. It consumes the gradients: they are scaled in place.
func (a *AdamW) Step(lr float64) (err error) {
	a.steps++
	t := float64(a.steps)
	bc1 := 1 - math.Pow(a.Beta1, t)
	bc2 := 1 - math.Pow(a.Beta2, t)
	stepSize := lr / bc1
	infer.NoGrad(func() {
		defer recoverTorch(&err, "AdamW.Step")
		scalars := []*ts.Scalar{
			ts.FloatScalar(1 - lr*a.WeightDecay),             // decay
			ts.FloatScalar(1 - a.Beta1),                      // the first moment's lerp weight
			ts.FloatScalar(math.Sqrt(1 - a.Beta2)),           // g·√(1 − β2), squared by addcmul
			ts.FloatScalar(a.Beta2),                          // the second moment's decay
			ts.FloatScalar(-1 / (stepSize * math.Sqrt(bc2))), // a: √v·a + b = −(√v/√(1 − β2ᵗ) + ε)/stepSize
			ts.FloatScalar(-a.Eps / stepSize),                // b
		}
		decay, lerp, gScale, beta2, denomScale, denomShift := scalars[0], scalars[1], scalars[2], scalars[3], scalars[4], scalars[5]
		defer func() {
			for _, s := range scalars {
				s.MustDrop()
			}
		}()
		for i, p := range a.params {
			g := mustT(p.Tensor.Grad(false))
			if ok, err := g.Defined(); err != nil || !ok {
				checkT(g.Drop())
				continue
			}
			m, v := a.expAvg[i], a.expAvg2[i]
			if a.WeightDecay != 0 {
				checkT(p.Tensor.MulScalar_(decay))
			}
			checkT(m.Lerp_(g, lerp))
			checkT(g.MulScalar_(gScale))
			checkT(v.MulScalar_(beta2))
			checkT(v.Addcmul_(g, g))
			denom := mustT(v.Sqrt(false))
			checkT(denom.MulScalar_(denomScale))
			checkT(denom.AddScalar_(denomShift))
			checkT(p.Tensor.Addcdiv_(m, denom))
			checkT(denom.Drop())
			checkT(g.Drop())
		}
	})
	return err
}

// Save writes the moments to path (OptimizerFile in a checkpoint folder).
func (a *AdamW) Save(path string) error {
	names := make([]string, 0, 2*len(a.params))
	tensors := make([]*ts.Tensor, 0, 2*len(a.params))
	for i, p := range a.params {
		names = append(names, "exp_avg."+p.Name, "exp_avg_sq."+p.Name)
		tensors = append(tensors, a.expAvg[i], a.expAvg2[i])
	}
	return infer.SaveTensors(path, names, tensors)
}

// Load reads the moments Save wrote and sets the update count to steps (the bias
// corrections depend on it).
func (a *AdamW) Load(path string, steps int) error {
	if steps < 0 {
		return fmt.Errorf("AdamW.Load: %d steps", steps)
	}
	dst := make(map[string]*ts.Tensor, 2*len(a.params))
	for i, p := range a.params {
		dst["exp_avg."+p.Name] = a.expAvg[i]
		dst["exp_avg_sq."+p.Name] = a.expAvg2[i]
	}
	if err := infer.LoadTensors(path, dst); err != nil {
		return err
	}
	a.steps = steps
	return nil
}

// Close frees the moments.
func (a *AdamW) Close() {
	for _, t := range append(a.expAvg, a.expAvg2...) {
		t.MustDrop()
	}
	a.expAvg, a.expAvg2 = nil, nil
}
