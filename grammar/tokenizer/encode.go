package tokenizer

import (
	"math"
	"strings"
	"sync"
)

// Encode returns the token ids of text. Special-token text in it becomes the special
// token (leftmost first, and the longest of those starting at one position); the text
// between is encoded as by EncodeOrdinary. Decode(Encode(text)) == text for every
// string, valid UTF-8 or not.
//
// Training text contains special tokens, so this is the function for it. Text that may
// contain special-token text that must stay ordinary text (program source, a repr) is
// encoded with EncodeOrdinary, and the special tokens around it are added by id.
func (t *Tokenizer) Encode(text string) []int {
	return t.AppendEncode(make([]int, 0, len(text)/3+1), text)
}

// AppendEncode appends the token ids of text, as Encode returns them, to dst.
func (t *Tokenizer) AppendEncode(dst []int, text string) []int {
	for text != "" {
		pos, n, id := t.match.find(text)
		if pos < 0 {
			return t.AppendEncodeOrdinary(dst, text)
		}
		dst = t.AppendEncodeOrdinary(dst, text[:pos])
		dst = append(dst, int(id))
		text = text[pos+n:]
	}
	return dst
}

// EncodeOrdinary returns the token ids of text without looking for special tokens:
// their text, if any, is encoded like any other text and never becomes a special
// token. Decode(EncodeOrdinary(text)) == text for every string.
func (t *Tokenizer) EncodeOrdinary(text string) []int {
	return t.AppendEncodeOrdinary(make([]int, 0, len(text)/3+1), text)
}

// AppendEncodeOrdinary appends the token ids of text, as EncodeOrdinary returns them,
// to dst.
func (t *Tokenizer) AppendEncodeOrdinary(dst []int, text string) []int {
	for i := 0; i < len(text); {
		j := t.split.next(text, i)
		dst = t.appendPiece(dst, text[i:j])
		i = j
	}
	return dst
}

// next returns the end of the pre-token starting at i < len(s).
func (k splitKind) next(s string, i int) int {
	switch k {
	case splitGPT2:
		return nextGPT2(s, i)
	case splitNone:
		return len(s)
	}
	return nextNDB(s, i)
}

// appendPiece appends the BPE encoding of one pre-token.
func (t *Tokenizer) appendPiece(dst []int, p string) []int {
	if len(p) == 1 {
		return append(dst, int(t.byteID[p[0]]))
	}
	ids, ok := t.cache.get(p)
	if !ok {
		ids = t.bpe(p)
		if len(p) <= maxCachedPiece {
			t.cache.put(p, ids)
		}
	}
	for _, id := range ids {
		dst = append(dst, int(id))
	}
	return dst
}

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

const (
	// defaultCacheSize is the number of pre-token encodings a generation of the cache
	// holds.
	defaultCacheSize = 1 << 16
	// maxCachedPiece is the longest pre-token whose encoding is cached.
	maxCachedPiece = 256
)

// pieceCache maps pre-tokens to their encodings. It keeps two generations: when the
// current one is full it becomes the old one, and a hit in the old generation moves
// the entry to the current one, so it holds at most 2*size entries and keeps the
// recently used ones (an approximate LRU).
type pieceCache struct {
	mu       sync.Mutex
	cur, old map[string][]int32
	size     int
}

func newPieceCache(size int) *pieceCache {
	return &pieceCache{cur: make(map[string][]int32), size: size}
}

func (c *pieceCache) get(p string) ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ids, ok := c.cur[p]; ok {
		return ids, true
	}
	if ids, ok := c.old[p]; ok {
		c.putLocked(p, ids)
		return ids, true
	}
	return nil, false
}

func (c *pieceCache) put(p string, ids []int32) {
	c.mu.Lock()
	c.putLocked(p, ids)
	c.mu.Unlock()
}

func (c *pieceCache) putLocked(p string, ids []int32) {
	if len(c.cur) >= c.size {
		c.old, c.cur = c.cur, make(map[string][]int32, len(c.cur))
	}
	c.cur[strings.Clone(p)] = ids
}
