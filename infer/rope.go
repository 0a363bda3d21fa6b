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
type rope struct {
	cos, sin *ts.Tensor // [maxSeq, headDim] each: cos(p·f) and sin(p·f), f repeated over both halves
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
			sin[p*headDim+i], sin[p*headDim+half+i] = s, s
		}
	}
	shape := []int64{int64(maxSeq), int64(headDim)}
	return rope{cos: toDevice(cos, shape, device), sin: toDevice(sin, shape, device)}
}

// apply rotates x [B, h, T, headDim] whose tokens sit at positions [pos, pos+T).
// It returns a new tensor [B, h, T, headDim] and leaves x alone.
func (r rope) apply(x *ts.Tensor, pos int) *ts.Tensor {
	size := x.MustSize()
	t, hd := size[2], size[3]
	cos := must(r.cos.Narrow(0, int64(pos), t, false)) // [T, headDim]
	sin := must(r.sin.Narrow(0, int64(pos), t, false)) // [T, headDim]
	x1 := must(x.Narrow(3, 0, hd/2, false))            // [B, h, T, headDim/2]
	x2 := must(x.Narrow(3, hd/2, hd/2, false))         // [B, h, T, headDim/2]
	negX2 := must(x2.Neg(true))                        // [B, h, T, headDim/2]
	rot := must(ts.Cat([]*ts.Tensor{negX2, x1}, 3))    // [B, h, T, headDim]: rotate_half(x)
	drop(negX2, x1)
	a := must(x.Mul(cos, false))  // [B, h, T, headDim]
	b := must(rot.Mul(sin, true)) // [B, h, T, headDim]
	out := must(a.Add(b, true))   // [B, h, T, headDim]
	drop(b, cos, sin)
	return out
}

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
