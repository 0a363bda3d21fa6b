package train

import "math"

// LearningRate is the paper's pre-training schedule, scaled down: linear warmup from
// zero to peak over warmup steps, then cosine decay to zero at total steps.
func LearningRate(step, warmup, total int, peak float64) float64 {
	switch {
	case step < warmup:
		return peak * float64(step+1) / float64(warmup)
	case step >= total:
		return 0
	}
	progress := float64(step-warmup) / float64(max(total-warmup, 1))
	return peak * 0.5 * (1 + math.Cos(math.Pi*progress))
}
