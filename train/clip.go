package train

import (
	"math"

	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// backwardStepClipNorm is one AdamW step at learning rate lr with the gradients'
// global L2 norm clipped to maxNorm, as torch.nn.utils.clip_grad_norm_ does. It
// returns the norm before clipping.
func backwardStepClipNorm(opt *AdamW, params []infer.Param, loss *ts.Tensor, lr, maxNorm float64) (norm float64, err error) {
	if err := opt.ZeroGrad(); err != nil {
		return 0, err
	}
	if err := loss.Backward(); err != nil {
		return 0, err
	}
	if norm, err = clipGradNorm(params, maxNorm); err != nil {
		return 0, err
	}
	return norm, opt.Step(lr)
}

// clipGradNorm scales the gradients of params so that their global L2 norm is at
// most maxNorm (coefficient maxNorm/(norm+1e-6), as PyTorch) and returns the norm
// before. (gotch v0.8.0's Optimizer.ClipGradNorm locks its VarStore twice and
// deadlocks.)
func clipGradNorm(params []infer.Param, maxNorm float64) (norm float64, err error) {
	defer recoverTorch(&err, "clip the gradient norm")
	grads := make([]*ts.Tensor, 0, len(params))
	defer func() {
		for _, g := range grads {
			g.MustDrop()
		}
	}()
	sq := 0.0
	for _, p := range params {
		g := mustT(p.Tensor.Grad(false)) // a handle on the gradient, not a copy
		grads = append(grads, g)
		n := mustT(g.Norm(false))
		v := n.Float64Values()[0]
		n.MustDrop()
		sq += v * v
	}
	norm = math.Sqrt(sq)
	if coef := maxNorm / (norm + 1e-6); coef < 1 {
		s := ts.FloatScalar(coef)
		defer s.MustDrop()
		for _, g := range grads {
			checkT(g.MulScalar_(s))
		}
	}
	return norm, nil
}
