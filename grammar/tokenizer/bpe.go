package tokenizer

import "math"

// bpe applies the merges to the bytes of p (not empty): repeatedly the merge of lowest
// rank among the adjacent pairs, at its leftmost position (as Hugging Face's BPE model
// does).
func (t *Tokenizer) bpe(p string) []int32 {
	if len(p) > maxShortPiece {
		return t.bpeLong(p)
	}
	var symBuf, rankBuf [maxShortPiece]int32
	return t.bpeShort(p, symBuf[:len(p)], rankBuf[:len(p)-1])
}

// bpeShort is bpe in O(n²), fast for short pieces, with scratch space for the symbols
// (len(p)) and the ranks of adjacent pairs (len(p)-1).
func (t *Tokenizer) bpeShort(p string, syms, ranks []int32) []int32 {
	for i := range len(p) {
		syms[i] = t.byteID[p[i]]
	}
	for i := range ranks {
		ranks[i] = t.rank(syms[i], syms[i+1])
	}
	for len(syms) > 1 {
		best := 0
		for i, r := range ranks {
			if r < ranks[best] {
				best = i
			}
		}
		if ranks[best] == noMerge {
			break
		}
		syms[best] = t.merges[pairKey(syms[best], syms[best+1])].id
		copy(syms[best+1:], syms[best+2:])
		syms = syms[:len(syms)-1]
		copy(ranks[best:], ranks[best+1:])
		ranks = ranks[:len(ranks)-1]
		if best > 0 {
			ranks[best-1] = t.rank(syms[best-1], syms[best])
		}
		if best < len(ranks) {
			ranks[best] = t.rank(syms[best], syms[best+1])
		}
	}
	return append([]int32(nil), syms...)
}

// noMerge is the rank of a pair without a merge.
const noMerge = math.MaxInt32

func (t *Tokenizer) rank(a, b int32) int32 {
	if m, ok := t.merges[pairKey(a, b)]; ok {
		return m.rank
	}
	return noMerge
}

// maxShortPiece is the longest pre-token that bpe handles with its quadratic loop;
// longer ones go to bpeLong.
const maxShortPiece = 48

// bpeLong is bpe in O(n log n) for long pre-tokens: the symbols form a linked list and
// a heap holds the candidate merges by (rank, position).
func (t *Tokenizer) bpeLong(p string) []int32 {
	n := len(p)
	ids := make([]int32, n)
	next := make([]int32, n)
	prev := make([]int32, n)
	for i := range n {
		ids[i] = t.byteID[p[i]]
		next[i] = int32(i + 1)
		prev[i] = int32(i - 1)
	}
	next[n-1] = -1
	var h candHeap
	push := func(i int32) {
		if i < 0 || next[i] < 0 {
			return
		}
		a, b := ids[i], ids[next[i]]
		if m, ok := t.merges[pairKey(a, b)]; ok {
			h.push(cand{rank: m.rank, pos: i, a: a, b: b, id: m.id})
		}
	}
	for i := range int32(n - 1) {
		push(i)
	}
	for len(h) > 0 {
		c := h.pop()
		i := c.pos
		j := next[i]
		if ids[i] != c.a || j < 0 || ids[j] != c.b {
			continue // stale: a symbol changed since the candidate was pushed
		}
		ids[i] = c.id
		ids[j] = -1
		k := next[j]
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		push(prev[i])
		push(i)
	}
	var out []int32
	for i := int32(0); i >= 0; i = next[i] {
		out = append(out, ids[i])
	}
	return out
}

// cand is a candidate merge of the symbols a (at pos) and b (the next one) into id.
type cand struct {
	rank, pos, a, b, id int32
}

// candHeap is a binary min-heap of candidates by (rank, pos).
type candHeap []cand

func (h candHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].pos < h[j].pos
}

func (h *candHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *candHeap) pop() cand {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r := l + 1; r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
