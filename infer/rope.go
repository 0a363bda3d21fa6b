package infer

import (
	"math"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

// rope holds the rotary position embedding tables in Hugging Face's convention: the
// frequency of pair i is theta^(-2i/headDim), and a head's vector is rotated as its
// two halves (rotate_half), not as interleaved pairs. Checkpoints are therefore
// loadable by transformers' LlamaForCausalLM without permuting q_proj and k_proj.
//
// rotate_half(x)·sin = cat(-x2, x1)·sin = roll(x, headDim/2)·cat(-sin, sin), so the
// sine table is stored with its first half negated and a rotation costs four ops.
type rope struct {
	cos, sin *ts.Tensor // [maxSeq, headDim] each: cos(p·f) | cos(p·f) and -sin(p·f) | sin(p·f)
}

// newRope computes the tables in float64 and stores them as float32 on device.
func newRope(maxSeq, headDim int, theta float64, device gotch.Device) rope {
	half := headDim / 2
	cos := make([]float32, maxSeq*headDim) // [maxSeq, headDim]
	sin := make([]float32, maxSeq*headDim) // [maxSeq, headDim]
	for p := 0; p < maxSeq; p++ {
		for i := 0; i < half; i++ {
			// transformers computes inv_freq in float32: 1 / theta^(2i/d).
			invFreq := float64(float32(1 / math.Pow(theta, float64(2*i)/float64(headDim))))
			a := float64(float32(float64(p) * invFreq))
			c, s := float32(math.Cos(a)), float32(math.Sin(a))
			cos[p*headDim+i], cos[p*headDim+half+i] = c, c
			sin[p*headDim+i], sin[p*headDim+half+i] = -s, s
		}
	}
	shape := []int64{int64(maxSeq), int64(headDim)}
	return rope{cos: toDevice(cos, shape, device), sin: toDevice(sin, shape, device)}
}

// ropeAt is the rope tables for positions [pos, pos+T), views of the full tables.
type ropeAt struct {
	cos, sin *ts.Tensor // [T, headDim] each
}

// at returns the tables for positions [pos, pos+t); free them with free.
func (r rope) at(pos, t int) ropeAt {
	return ropeAt{
		cos: must(r.cos.Narrow(0, int64(pos), int64(t), false)), // [T, headDim]
		sin: must(r.sin.Narrow(0, int64(pos), int64(t), false)), // [T, headDim]
	}
}

// apply rotates x [B, h, T, headDim] and returns a new tensor [B, h, T, headDim];
// x is left alone.
func (r ropeAt) apply(x *ts.Tensor) *ts.Tensor {
	hd := x.MustSize()[3]
	rot := must(x.Roll([]int64{hd / 2}, []int64{3}, false)) // [B, h, T, headDim]: cat(x2, x1)
	rot = must(rot.Mul(r.sin, true))                        // [B, h, T, headDim]: rotate_half(x)·sin
	out := must(x.Mul(r.cos, false))                        // [B, h, T, headDim]
	check(out.Add_(rot))                                    // [B, h, T, headDim]
	drop(rot)
	return out
}

func (r ropeAt) free() { drop(r.cos, r.sin) }

func (r rope) free() { drop(r.cos, r.sin) }

// toDevice makes a float32 tensor of the given shape from Go data.
func toDevice(data []float32, shape []int64, device gotch.Device) *ts.Tensor {
	t := must(ts.OfSlice(data))       // [len(data)]
	v := must(t.Reshape(shape, true)) // shape
	if device.IsCuda() {
		v = must(v.To(device, true))
	}
	return v
}
