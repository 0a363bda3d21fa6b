package infer

import (
	"fmt"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

// Forward runs tokens at positions [pos, pos+len(tokens)) through the model with its
// KV cache and returns the logits [vocab] that predict the token after the last one.
// It writes keys and values at [pos, pos+len) and attends to [0, pos+len), so pos
// must be at most CacheLen(): rolling back, or reusing a cached prompt prefix, is
// calling Forward with an earlier pos. Gradients are off.
func (m *Model) Forward(tokens []int, pos int) ([]float32, error) {
	rows, err := m.cached(tokens, pos, true)
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// ForwardAll is Forward returning the logits of every position: [len(tokens)][vocab],
// row i predicting the token after tokens[i].
func (m *Model) ForwardAll(tokens []int, pos int) ([][]float32, error) {
	return m.cached(tokens, pos, false)
}

// Logits is the uncached forward pass of one sequence from position 0, without
// touching the KV cache: [len(tokens)][vocab]. Gradients are off.
func (m *Model) Logits(tokens []int) (rows [][]float32, err error) {
	if len(tokens) > m.Config.MaxSeqLen {
		return nil, fmt.Errorf("infer.Logits: %d tokens exceed the context of %d", len(tokens), m.Config.MaxSeqLen)
	}
	NoGrad(func() {
		defer recoverTorch(&err, "infer.Logits")
		x, e := m.tokenTensor(tokens)
		if e != nil {
			err = e
			return
		}
		logits := m.forward(x, 0, nil, false) // [1, T, vocab]
		drop(x)
		rows = m.rows(logits)
	})
	return rows, err
}

// CacheLen is the number of positions held in the KV cache.
func (m *Model) CacheLen() int {
	if m.cache == nil {
		return 0
	}
	return m.cache.Len()
}

// ResetCache forgets the cached positions (the memory stays allocated).
func (m *Model) ResetCache() {
	if m.cache != nil {
		m.cache.n = 0
	}
}

// Close frees the model's tensors now: the KV cache, the RoPE tables and the
// parameters in its VarStore. The model is unusable afterwards.
func (m *Model) Close() {
	if m.runner != nil {
		m.runner.forget(m)
	}
	if m.cache != nil {
		m.cache.free()
		m.cache = nil
	}
	if m.shared {
		return
	}
	m.rope.free()
	drop(m.mask)
	for _, b := range m.blocks {
		drop(b.q.wt, b.k.wt, b.v.wt, b.o.wt, b.gate.wt, b.up.wt, b.down.wt)
	}
	drop(m.head.wt)
	m.VS.Destroy()
	m.blocks, m.params, m.mask = nil, nil, nil
}

// cached is Forward and ForwardAll.
func (m *Model) cached(tokens []int, pos int, lastOnly bool) (rows [][]float32, err error) {
	if m.runner != nil {
		return m.runner.forward(m, tokens, pos, lastOnly)
	}
	if m.cache == nil {
		func() {
			defer recoverTorch(&err, "infer: allocating the KV cache")
			m.cache = newKVCache(m.Config, m.Device(), m.Config.MaxSeqLen, m.Config.MaxSeqLen)
		}()
		if err != nil {
			return nil, err
		}
	}
	if err := m.cache.begin(pos, len(tokens)); err != nil {
		return nil, fmt.Errorf("infer.Forward: %w", err)
	}
	NoGrad(func() {
		defer recoverTorch(&err, "infer.Forward")
		x, e := m.tokenTensor(tokens)
		if e != nil {
			err = e
			return
		}
		logits := m.forward(x, pos, m.cache, lastOnly) // [1, T or 1, vocab]
		drop(x)
		rows = m.rows(logits)
	})
	if err != nil {
		m.cache.n = pos // entries past pos may be half written
	}
	return rows, err
}

// tokenTensor checks token ids and makes the int64 tensor [1, T] on the model's device.
func (m *Model) tokenTensor(tokens []int) (*ts.Tensor, error) {
	if len(tokens) == 0 {
		return nil, fmt.Errorf("infer: no tokens")
	}
	ids := make([]int64, len(tokens))
	for i, t := range tokens {
		if t < 0 || t >= m.Config.VocabSize {
			return nil, fmt.Errorf("infer: token %d at %d outside the vocabulary of %d", t, i, m.Config.VocabSize)
		}
		ids[i] = int64(t)
	}
	x := must(ts.OfSlice(ids))                             // [T]
	x = must(x.View([]int64{1, int64(len(tokens))}, true)) // [1, T]
	if d := m.Device(); d.IsCuda() {
		x = must(x.To(d, true))
	}
	return x, nil
}

// rows copies logits [1, T, vocab], which it frees, to T Go slices of vocab floats.
func (m *Model) rows(logits *ts.Tensor) [][]float32 {
	size := logits.MustSize()
	t, v := int(size[1]), int(size[2])
	if logits.DType() != gotch.Float {
		logits = must(logits.Totype(gotch.Float, true))
	}
	flat := make([]float32, t*v)
	check(logits.CopyData(flat, uint(t*v)))
	drop(logits)
	rows := make([][]float32, t)
	for i := range rows {
		rows[i] = flat[i*v : (i+1)*v : (i+1)*v]
	}
	return rows
}
