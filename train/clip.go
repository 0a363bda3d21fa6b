package train

import (
	"math"

	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// backwardStepClipNorm is one AdamW step with the gradients' global L2 norm clipped to
// maxNorm, as torch.nn.utils.clip_grad_norm_ does. gotch v0.8.0's own
// Optimizer.ClipGradNorm locks its VarStore twice and deadlocks, so the clipping is
// done here over the model's parameters. It returns the norm before clipping.
func backwardStepClipNorm(opt *nn.Optimizer, params []infer.Param, loss *ts.Tensor, maxNorm float64) (float64, error) {
	if err := opt.ZeroGrad(); err != nil {
		return 0, err
	}
	if err := loss.Backward(); err != nil {
		return 0, err
	}
	grads := make([]*ts.Tensor, 0, len(params))
	defer func() {
		for _, g := range grads {
			g.MustDrop()
		}
	}()
	sq := 0.0
	for _, p := range params {
		g := p.Tensor.MustGrad(false) // a handle on the gradient, not a copy
		grads = append(grads, g)
		n := g.MustNorm(false)
		v := n.Float64Values()[0]
		n.MustDrop()
		sq += v * v
	}
	norm := math.Sqrt(sq)
	if coef := maxNorm / (norm + 1e-6); coef < 1 {
		s := ts.FloatScalar(coef)
		for _, g := range grads {
			g.MustMulScalar_(s)
		}
		s.MustDrop()
	}
	return norm, opt.Step()
}
