package infer

import (
	"fmt"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

// kvCache holds the keys and values of every layer for one sequence, preallocated
// for the model's whole context. Entries [0, Len) are valid. A forward pass at
// position pos writes entries [pos, pos+T) and attends to [0, pos+T), so rolling back
// a step, or reusing a prompt's shared prefix, is calling Forward with an earlier pos.
type kvCache struct {
	k, v   []*ts.Tensor // per layer: [1, kvHeads, maxSeq, headDim]
	maxSeq int
	n      int // number of valid positions
}

// newKVCache allocates a zeroed cache for cfg on device.
func newKVCache(cfg Config, device gotch.Device) *kvCache {
	c := &kvCache{maxSeq: cfg.MaxSeqLen}
	shape := []int64{1, int64(cfg.KVHeads), int64(cfg.MaxSeqLen), int64(cfg.HeadDim())}
	for i := 0; i < cfg.Layers; i++ {
		c.k = append(c.k, must(ts.Zeros(shape, gotch.Float, device))) // [1, kvHeads, maxSeq, headDim]
		c.v = append(c.v, must(ts.Zeros(shape, gotch.Float, device))) // [1, kvHeads, maxSeq, headDim]
	}
	return c
}

// Len is the number of valid cached positions.
func (c *kvCache) Len() int { return c.n }

// begin checks that T tokens at pos fit and do not leave a gap, and marks
// [0, pos+T) as the valid entries.
func (c *kvCache) begin(pos, t int) error {
	switch {
	case t <= 0:
		return fmt.Errorf("no tokens")
	case pos < 0 || pos > c.n:
		return fmt.Errorf("position %d outside the cached prefix [0, %d]", pos, c.n)
	case pos+t > c.maxSeq:
		return fmt.Errorf("positions up to %d exceed the context of %d", pos+t, c.maxSeq)
	}
	c.n = pos + t
	return nil
}

// update writes k and v [1, kvHeads, T, headDim] of layer l at [pos, pos+T) and
// returns views of the keys and values [1, kvHeads, pos+T, headDim] to attend to.
func (c *kvCache) update(l, pos int, k, v *ts.Tensor) (keys, values *ts.Tensor) {
	t := k.MustSize()[2]
	for _, p := range []struct{ cache, src *ts.Tensor }{{c.k[l], k}, {c.v[l], v}} {
		dst := must(p.cache.Narrow(2, int64(pos), t, false)) // [1, kvHeads, T, headDim], a view
		dst.Copy_(p.src)
		drop(dst)
	}
	keys = must(c.k[l].Narrow(2, 0, int64(pos)+t, false))   // [1, kvHeads, pos+T, headDim]
	values = must(c.v[l].Narrow(2, 0, int64(pos)+t, false)) // [1, kvHeads, pos+T, headDim]
	return keys, values
}

// free releases the cache's memory.
func (c *kvCache) free() {
	drop(c.k...)
	drop(c.v...)
	c.k, c.v, c.n = nil, nil, 0
}
