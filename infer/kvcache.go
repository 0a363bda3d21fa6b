package infer

import (
	"fmt"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

// kvCache holds the keys and values of every layer for one sequence. Entries
// [0, Len) are valid. A forward pass at position pos writes entries [pos, pos+T) and
// attends to [0, pos+T), so rolling back a step, or reusing a prompt's shared prefix,
// is calling Forward with an earlier pos.
//
// A model's own cache is allocated for its whole context at once. A share run by a
// Runner grows its cache as its sequence grows (cap positions held, at most maxSeq),
// so that a model server's memory follows what its sessions use, and the Runner can
// free an idle session's cache (evict) and let it be recomputed on its next request.
type kvCache struct {
	k, v   []*ts.Tensor // per layer: [1, kvHeads, cap, headDim]
	cfg    Config
	device gotch.Device
	maxSeq int // the most positions the cache may hold (the context, or a Runner's limit)
	cap    int // positions allocated
	n      int // number of valid positions
}

// newKVCache allocates a zeroed cache of capacity positions for cfg on device, which
// may grow up to maxSeq positions.
func newKVCache(cfg Config, device gotch.Device, maxSeq, capacity int) *kvCache {
	c := &kvCache{cfg: cfg, device: device, maxSeq: maxSeq}
	c.grow(capacity)
	return c
}

// CacheBytesPerPosition is the KV cache memory of one position of a model of shape
// cfg: keys and values of every layer, float32.
func CacheBytesPerPosition(cfg Config) int64 { return bytesPerPosition(cfg) }

// bytesPerPosition is CacheBytesPerPosition.
func bytesPerPosition(cfg Config) int64 {
	cfg = cfg.withDefaults()
	return int64(cfg.Layers) * 2 * int64(cfg.KVHeads) * int64(cfg.HeadDim()) * 4
}

// Bytes is the memory the cache holds.
func (c *kvCache) Bytes() int64 { return int64(c.cap) * bytesPerPosition(c.cfg) }

// grow reallocates the cache with capacity positions (more than it has), keeping the
// valid entries.
func (c *kvCache) grow(capacity int) {
	shape := []int64{1, int64(c.cfg.KVHeads), int64(capacity), int64(c.cfg.HeadDim())}
	k := make([]*ts.Tensor, c.cfg.Layers)
	v := make([]*ts.Tensor, c.cfg.Layers)
	for i := range k {
		k[i] = must(ts.Zeros(shape, gotch.Float, c.device)) // [1, kvHeads, capacity, headDim]
		v[i] = must(ts.Zeros(shape, gotch.Float, c.device)) // [1, kvHeads, capacity, headDim]
		if c.n > 0 && i < len(c.k) {
			for _, p := range []struct{ dst, src *ts.Tensor }{{k[i], c.k[i]}, {v[i], c.v[i]}} {
				d := must(p.dst.Narrow(2, 0, int64(c.n), false)) // [1, kvHeads, n, headDim], a view
				s := must(p.src.Narrow(2, 0, int64(c.n), false)) // [1, kvHeads, n, headDim], a view
				d.Copy_(s)
				drop(d, s)
			}
		}
	}
	drop(c.k...)
	drop(c.v...)
	c.k, c.v, c.cap = k, v, capacity
}

// Len is the number of valid cached positions.
func (c *kvCache) Len() int { return c.n }

// check reports whether T tokens at pos fit and do not leave a gap.
func (c *kvCache) check(pos, t int) error {
	switch {
	case t <= 0:
		return fmt.Errorf("no tokens")
	case pos < 0 || pos > c.n:
		return fmt.Errorf("position %d outside the cached prefix [0, %d]", pos, c.n)
	case pos+t > c.maxSeq:
		return &ContextError{Positions: pos + t, Context: c.maxSeq}
	}
	return nil
}

// begin checks that T tokens at pos fit and do not leave a gap, and marks
// [0, pos+T) as the valid entries. The capacity must already hold them.
func (c *kvCache) begin(pos, t int) error {
	if err := c.check(pos, t); err != nil {
		return err
	}
	if pos+t > c.cap {
		return fmt.Errorf("positions up to %d exceed the cache's %d", pos+t, c.cap)
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

// free releases the cache's memory; the cache is empty, and grows again on use.
func (c *kvCache) free() {
	drop(c.k...)
	drop(c.v...)
	c.k, c.v, c.n, c.cap = nil, nil, 0, 0
}

// ContextError says a forward pass would run past the positions a cache may hold:
// the model's context, or a model server's cache limit (Runner.Share).
type ContextError struct {
	Positions int // the positions the pass needs
	Context   int // the most the cache may hold
}

func (e *ContextError) Error() string {
	return fmt.Sprintf("positions up to %d exceed the context of %d", e.Positions, e.Context)
}
