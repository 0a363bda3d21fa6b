package infer

import (
	"fmt"
	"slices"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

// SaveTensors writes float32 tensors (on any device) to one safetensors file under
// names, in that order, atomically (a temporary file renamed over path). The trainer
// keeps its optimizer state this way, beside the checkpoint's weights.
func SaveTensors(path string, names []string, tensors []*ts.Tensor) (err error) {
	if len(names) != len(tensors) {
		return fmt.Errorf("infer.SaveTensors: %d names for %d tensors", len(names), len(tensors))
	}
	out := make(map[string]f32Tensor, len(names))
	func() {
		defer recoverTorch(&err, "infer.SaveTensors")
		for i, t := range tensors {
			if _, dup := out[names[i]]; dup {
				panic(torchError{fmt.Errorf("tensor %s named twice", names[i])})
			}
			out[names[i]] = toF32Tensor(t)
		}
	}()
	if err != nil {
		return err
	}
	return writeSafetensors(path, names, out)
}

// LoadTensors copies the tensors of a safetensors file into dst, by name. Every
// tensor of dst must be in the file with its shape, and the file must hold nothing
// else: a partial or foreign file is an error, not a silent mix.
func LoadTensors(path string, dst map[string]*ts.Tensor) (err error) {
	src, err := readSafetensors(path)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(dst) {
		t, ok := src[name]
		if !ok {
			return fmt.Errorf("infer.LoadTensors: %s: no tensor %s", path, name)
		}
		if shape := dst[name].MustSize(); !slices.Equal(shape, t.shape) {
			return fmt.Errorf("infer.LoadTensors: %s: %s has shape %v, want %v", path, name, t.shape, shape)
		}
	}
	for _, name := range sortedKeys(src) {
		if _, ok := dst[name]; !ok {
			return fmt.Errorf("infer.LoadTensors: %s: unexpected tensor %s", path, name)
		}
	}
	NoGrad(func() {
		defer recoverTorch(&err, "infer.LoadTensors")
		for name, d := range dst {
			t := src[name]
			s := must(ts.OfDataSize(t.data, t.shape, gotch.Float))
			d.Copy_(s)
			drop(s)
		}
	})
	return err
}

// toF32Tensor copies a float32 tensor into Go memory (through the CPU when it lives
// on a GPU). It panics with a torchError on failure.
func toF32Tensor(t *ts.Tensor) f32Tensor {
	shape := t.MustSize()
	c := t
	if t.MustDevice().IsCuda() {
		c = must(t.To(gotch.CPU, false))
		defer drop(c)
	}
	f := make([]float32, t.Numel())
	check(c.CopyData(f, uint(len(f))))
	return f32Tensor{shape: shape, data: floatsToBytes(f)}
}
