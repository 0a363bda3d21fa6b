package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// batchRNG is the generator of step's batch: the data position is the step.
func batchRNG(seed int64, step int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(step)))
}

// tensors moves a batch to the device as [B, T] int64 tensors.
func tensors(b batch, device gotch.Device) (x, y *ts.Tensor) {
	shape := []int64{int64(b.b), int64(b.t)}
	x = ts.MustOfSlice(b.inputs).MustView(shape, true).MustTo(device, true)
	y = ts.MustOfSlice(b.targets).MustView(shape, true).MustTo(device, true)
	return x, y
}

// trainStep runs one optimizer step at learning rate lr and returns the batch's loss.
func trainStep(m *infer.Model, opt *AdamW, b batch, device gotch.Device, lr, clip float64) (float64, error) {
	x, y := tensors(b, device)
	defer x.MustDrop()
	defer y.MustDrop()
	logits, err := m.ForwardTrain(x)
	if err != nil {
		return 0, err
	}
	defer logits.MustDrop()
	loss, err := infer.Loss(logits, y)
	if err != nil {
		return 0, err
	}
	defer loss.MustDrop()
	if _, err := backwardStepClipNorm(opt, m.Params(), loss, lr, clip); err != nil {
		return 0, err
	}
	return loss.Float64Values()[0], nil
}

// evalLoss is the mean loss per trained token over fixed held-out batches (the same
// every time) of windows drawn with functionShare (0: the corpus's mix; 1: function
// level only). It is always the loss on the trajectories after their contexts,
// whatever the recipe's ContextLoss, so that runs of either recipe compare; a batch
// with nothing to score (contexts longer than the window) is skipped.
func evalLoss(m *infer.Model, s *tokenStream, r Recipe, batches int, functionShare float64, device gotch.Device) (float64, error) {
	rng := rand.New(rand.NewPCG(uint64(r.Seed), 0xe7a1))
	total, scored := 0.0, 0
	for k := 0; k < batches; k++ {
		b := s.sample(rng, r.Batch, r.SeqLen, false, functionShare)
		if b.trained == 0 {
			continue
		}
		loss, err := batchLoss(m, b, device)
		if err != nil {
			return 0, err
		}
		total += loss * float64(b.trained)
		scored += b.trained
	}
	if scored == 0 {
		return math.NaN(), fmt.Errorf("no held-out window of %d tokens gets past its context", r.SeqLen)
	}
	return total / float64(scored), nil
}

// batchLoss is the mean loss of a batch without recording a graph.
func batchLoss(m *infer.Model, b batch, device gotch.Device) (float64, error) {
	x, y := tensors(b, device)
	defer x.MustDrop()
	defer y.MustDrop()
	logits, err := m.ForwardEval(x)
	if err != nil {
		return 0, err
	}
	defer logits.MustDrop()
	loss, err := infer.Loss(logits, y)
	if err != nil {
		return 0, err
	}
	defer loss.MustDrop()
	return loss.Float64Values()[0], nil
}
