package infer

import (
	"fmt"
	"testing"
	"time"

	"github.com/sugarme/gotch/ts"
)

// benchConfig is a 13.8M-parameter model (dim 384, 6 layers, 6 heads, FFN 1024,
// vocabulary 4096, context 1024).
func benchConfig() Config {
	return Config{VocabSize: 4096, Dim: 384, Layers: 6, Heads: 6, Hidden: 1024, MaxSeqLen: 1024, BOS: -1, EOS: -1}
}

// uncachedLast is decoding without a KV cache: the whole sequence again, logits of
// the last position only.
func (m *Model) uncachedLast(tokens []int) (err error) {
	NoGrad(func() {
		defer recoverTorch(&err, "uncachedLast")
		x, e := m.tokenTensor(tokens)
		if e != nil {
			err = e
			return
		}
		logits := m.forward(x, 0, nil, true) // [1, 1, vocab]
		drop(x)
		m.rows(logits)
	})
	return err
}

// BenchmarkDecode decodes 16 tokens after a prompt that fills the context to ctx,
// once with the KV cache (one token per step) and once without (the whole sequence
// per step), and reports both rates and their ratio.
func BenchmarkDecode(b *testing.B) {
	cfg := benchConfig()
	m := newTestModel(b, cfg)
	b.Logf("%.1fM parameters, %d libtorch threads", float64(cfg.NumParams())/1e6, Threads())
	const steps = 16
	for _, ctx := range []int{128, 512} {
		b.Run(fmt.Sprintf("ctx=%d", ctx), func(b *testing.B) {
			tokens := randomTokens(ctx, cfg.VocabSize, 1)
			prompt := ctx - steps
			var cached, uncached time.Duration
			for i := 0; i < b.N; i++ {
				if _, err := m.Forward(tokens[:prompt], 0); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for p := prompt; p < ctx; p++ {
					if _, err := m.Forward(tokens[p:p+1], p); err != nil {
						b.Fatal(err)
					}
				}
				cached += time.Since(start)
				start = time.Now()
				for p := prompt; p < ctx; p++ {
					if err := m.uncachedLast(tokens[:p+1]); err != nil {
						b.Fatal(err)
					}
				}
				uncached += time.Since(start)
			}
			n := float64(b.N * steps)
			c, u := n/cached.Seconds(), n/uncached.Seconds()
			b.ReportMetric(c, "tok/s-cached")
			b.ReportMetric(u, "tok/s-uncached")
			b.ReportMetric(c/u, "cache-speedup")
		})
	}
}

// BenchmarkPrefill runs prompts of 512 tokens through the cache (logits of the last
// position only, as generation needs).
func BenchmarkPrefill(b *testing.B) {
	cfg := benchConfig()
	m := newTestModel(b, cfg)
	tokens := randomTokens(512, cfg.VocabSize, 2)
	if _, err := m.Forward(tokens, 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.Forward(tokens, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(tokens))/b.Elapsed().Seconds(), "tok/s")
}

// BenchmarkTrainStep is one AdamW-free forward and backward pass of a batch of 8×256
// tokens, for the training throughput.
func BenchmarkTrainStep(b *testing.B) {
	cfg := benchConfig()
	m := newTestModel(b, cfg)
	const B, T = 8, 256
	ids := make([]int64, B*T)
	for i, t := range randomTokens(B*T, cfg.VocabSize, 3) {
		ids[i] = int64(t)
	}
	x := ts.MustOfSlice(ids).MustView([]int64{B, T}, true)
	defer drop(x)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		logits, err := m.ForwardTrain(x)
		if err != nil {
			b.Fatal(err)
		}
		loss, err := Loss(logits, x)
		if err != nil {
			b.Fatal(err)
		}
		loss.MustBackward()
		drop(logits, loss)
		for _, p := range m.Params() {
			p.Tensor.ZeroGrad()
		}
	}
	b.ReportMetric(float64(b.N*B*T)/b.Elapsed().Seconds(), "tok/s")
}
