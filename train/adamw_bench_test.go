package train

import (
	"testing"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"

	"github.com/ndb-project/ndb/infer"
)

// BenchmarkAdamWStep compares one optimizer update of the default 5.3M shape with
// this package's AdamW and with gotch's (libtorch's C++ AdamW, whose moments cannot be
// saved), on the same gradients: the rewrite's cost per training step.
func BenchmarkAdamWStep(b *testing.B) {
	cfg := DefaultModel
	cfg.VocabSize = 4096
	vs := nn.NewVarStore(gotch.CPU)
	m, err := infer.New(vs, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	x := ts.MustOfSlice(make([]int64, 16)).MustView([]int64{1, 16}, true)
	logits, err := m.ForwardTrain(x)
	if err != nil {
		b.Fatal(err)
	}
	loss, err := infer.Loss(logits, x)
	if err != nil {
		b.Fatal(err)
	}
	if err := loss.Backward(); err != nil {
		b.Fatal(err)
	}
	b.Run("ndb", func(b *testing.B) {
		opt, err := NewAdamW(m.Params(), adamBeta1, adamBeta2, adamEps, 0.1)
		if err != nil {
			b.Fatal(err)
		}
		defer opt.Close()
		for i := 0; i < b.N; i++ {
			if err := opt.Step(1e-9); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gotch", func(b *testing.B) {
		opt, err := nn.NewAdamWConfig(adamBeta1, adamBeta2, 0.1).Build(vs, 1e-9)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			if err := opt.Step(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
