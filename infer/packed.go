package infer

import (
	"github.com/sugarme/gotch/ts"
)

// runPacked runs passes of shares of one model (each on its own cache, whose
// positions room has made valid) and sets each one's rows or error. One pass runs as
// Forward does in process; several run as one packed pass (forwardPacked). Under the
// Runner's lock.
func runPacked(ps []*pass) {
	if len(ps) == 1 {
		p := ps[0]
		NoGrad(func() {
			defer recoverTorch(&p.err, "infer.Forward")
			x, err := p.m.tokenTensor(p.tokens)
			if err != nil {
				p.err = err
				return
			}
			logits := p.m.forward(x, p.pos, p.m.cache, p.lastOnly) // [1, T or 1, vocab]
			drop(x)
			p.rows = p.m.rows(logits)
		})
	} else {
		var err error
		NoGrad(func() {
			defer recoverTorch(&err, "infer.Forward")
			forwardPacked(ps)
		})
		for _, p := range ps {
			if p.err == nil {
				p.err = err
			}
		}
	}
	for _, p := range ps {
		if p.err != nil {
			p.rows = nil
			p.m.cache.n = p.pos // entries past pos may be half written
		}
	}
}

// forwardPacked is the forward pass of several sequences side by side: their tokens
// [1, N] (N the sum of their lengths) go through the embedding, the projections, the
// feed-forward layers and the head together, each one's attention over its own cache
// at its own positions. Only attention sees where one ends: everything else works
// token by token, so no padding is needed.
func forwardPacked(ps []*pass) {
	m := ps[0].m // the weights every share runs
	var ids []int64
	var keep []int64 // the rows whose logits are returned
	for _, p := range ps {
		x, err := p.m.tokenTensor(p.tokens) // checks the ids
		if err != nil {
			p.err = err
			return
		}
		drop(x)
		start := int64(len(ids))
		for _, t := range p.tokens {
			ids = append(ids, int64(t))
		}
		if p.lastOnly {
			keep = append(keep, int64(len(ids))-1)
		} else {
			for i := start; i < int64(len(ids)); i++ {
				keep = append(keep, i)
			}
		}
	}
	n := int64(len(ids))
	tok := must(ts.OfSlice(ids))
	tok = must(tok.View([]int64{1, n}, true)) // [1, N]
	d := m.Device()
	if d.IsCuda() {
		tok = must(tok.To(d, true))
	}
	x := must(ts.Embedding(m.embed, tok, -1, false, false)) // [1, N, dim]
	drop(tok)
	rps := make([]ropeAt, len(ps))
	for i, p := range ps {
		rps[i] = m.rope.at(p.pos, len(p.tokens))
	}
	for l := range m.blocks {
		x = packedBlock(l, x, ps, rps) // [1, N, dim]
	}
	for _, rp := range rps {
		rp.free()
	}
	idx := must(ts.OfSlice(keep)) // [R]
	if d.IsCuda() {
		idx = must(idx.To(d, true))
	}
	sel := must(x.IndexSelect(1, idx, true)) // [1, R, dim]
	drop(idx)
	xn := m.rmsnorm(sel, m.norm) // [1, R, dim]
	drop(sel)
	logits := m.head.forward(xn) // [1, R, vocab]
	drop(xn)
	rows := m.rows(logits)
	for _, p := range ps {
		k := len(p.tokens)
		if p.lastOnly {
			k = 1
		}
		p.rows, rows = rows[:k:k], rows[k:]
	}
}

// packedBlock is layer l on the packed x [1, N, dim], which it frees: the
// projections and the feed-forward of all the tokens together, the attention of each
// pass's tokens over its own cache (rps are their rope tables).
func packedBlock(l int, x *ts.Tensor, ps []*pass, rps []ropeAt) *ts.Tensor {
	m := ps[0].m
	b := &m.blocks[l]
	nh, nkv, hd := int64(m.Config.Heads), int64(m.Config.KVHeads), int64(m.Config.HeadDim())
	h := m.rmsnorm(x, b.attnNorm) // [1, N, dim]
	q := b.q.forward(h)           // [1, N, heads·hd]
	k := b.k.forward(h)           // [1, N, kvHeads·hd]
	v := b.v.forward(h)           // [1, N, kvHeads·hd]
	drop(h)
	ys := make([]*ts.Tensor, len(ps))
	off := int64(0)
	for i, p := range ps {
		t := int64(len(p.tokens))
		qi := heads(must(q.Narrow(1, off, t, false)), nh, hd)       // [1, heads, T, hd]
		ki := heads(must(k.Narrow(1, off, t, false)), nkv, hd)      // [1, kvHeads, T, hd]
		vi := heads(must(v.Narrow(1, off, t, false)), nkv, hd)      // [1, kvHeads, T, hd]
		ys[i] = p.m.attend(l, qi, ki, vi, p.pos, rps[i], p.m.cache) // [1, T, heads·hd]
		off += t
	}
	drop(q, k, v)
	y := must(ts.Cat(ys, 1)) // [1, N, heads·hd]
	drop(ys...)
	a := b.o.forward(y) // [1, N, dim]
	drop(y)
	x = must(x.Add(a, true)) // [1, N, dim]: residual
	drop(a)
	return m.feedForward(b, x)
}
