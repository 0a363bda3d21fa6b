package infer

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Sampler picks the next token from a row of logits. Temperature 0 is greedy (the
// highest logit, the lowest id on ties); otherwise the logits are divided by the
// temperature, softmaxed, cut to the smallest set of most likely tokens whose
// probability reaches TopP (nucleus sampling; TopP ≤ 0 or ≥ 1 keeps all), and one is
// drawn with the sampler's own seeded generator, so a seed reproduces a run.
//
// A Sampler is not safe for concurrent use.
type Sampler struct {
	Temperature float64
	TopP        float64
	rng         *rand.Rand

	idx   []int     // scratch: candidate ids
	probs []float64 // scratch: their probabilities
}

// NewSampler returns a sampler with the given temperature and top-p whose generator
// is seeded with seed.
func NewSampler(temperature, topP float64, seed int64) *Sampler {
	return &Sampler{
		Temperature: temperature,
		TopP:        topP,
		rng:         rand.New(rand.NewPCG(uint64(seed), 0x6e6462)),
	}
}

// Greedy reports whether the sampler always takes the most likely token.
func (s *Sampler) Greedy() bool { return s.Temperature <= 0 }

// Sample returns a token id drawn from logits, considering only the ids for which
// allowed is true (every id when allowed is nil). It returns -1 when no id is
// allowed. Logits of -Inf or NaN are never drawn unless nothing else is allowed.
func (s *Sampler) Sample(logits []float32, allowed []bool) int {
	best, bestV := -1, float32(math.Inf(-1))
	s.idx = s.idx[:0]
	for i, v := range logits {
		if allowed != nil && !allowed[i] {
			continue
		}
		if best < 0 || v > bestV || (math.IsNaN(float64(bestV)) && !math.IsNaN(float64(v))) {
			best, bestV = i, v
		}
		s.idx = append(s.idx, i)
	}
	if best < 0 || s.Greedy() || len(s.idx) == 1 || math.IsInf(float64(bestV), -1) || math.IsNaN(float64(bestV)) {
		return best
	}
	// Softmax over the allowed ids at the temperature, stabilised by the maximum.
	s.probs = s.probs[:0]
	var sum float64
	for _, i := range s.idx {
		v := float64(logits[i])
		p := 0.0
		if !math.IsNaN(v) {
			p = math.Exp((v - float64(bestV)) / s.Temperature)
		}
		s.probs = append(s.probs, p)
		sum += p
	}
	if s.TopP > 0 && s.TopP < 1 {
		order := make([]int, len(s.idx))
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return s.probs[order[a]] > s.probs[order[b]] })
		var acc float64
		keep := 0
		for keep < len(order) {
			acc += s.probs[order[keep]] / sum
			keep++
			if acc >= s.TopP {
				break
			}
		}
		ids, ps := make([]int, keep), make([]float64, keep)
		sum = 0
		for k := 0; k < keep; k++ {
			ids[k], ps[k] = s.idx[order[k]], s.probs[order[k]]
			sum += ps[k]
		}
		s.idx, s.probs = ids, ps
	}
	r := s.rng.Float64() * sum
	for k, p := range s.probs {
		r -= p
		if r < 0 {
			return s.idx[k]
		}
	}
	return s.idx[len(s.idx)-1]
}

// topLogits appends to dst the ids of the k highest logits that are not NaN, in the
// order greedy sampling prefers them: by value, highest first, then by id, lowest
// first. One pass over logits.
func topLogits(logits []float32, k int, dst []int) []int {
	n0 := len(dst)
	if k <= 0 {
		return dst
	}
	for i, v := range logits {
		if v != v { // NaN
			continue
		}
		n := len(dst) - n0
		if n == k {
			if !(v > logits[dst[len(dst)-1]]) {
				continue
			}
			dst = dst[:len(dst)-1]
		}
		dst = append(dst, i)
		j := len(dst) - 1
		for j > n0 && v > logits[dst[j-1]] {
			dst[j] = dst[j-1]
			j--
		}
		dst[j] = i
	}
	return dst
}
