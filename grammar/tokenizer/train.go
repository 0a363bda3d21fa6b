package tokenizer

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"unicode/utf8"
)

// DefaultVocabSize is the vocabulary size Train aims for when TrainOptions.VocabSize is
// zero.
const DefaultVocabSize = 4096

// TrainOptions configures Train.
type TrainOptions struct {
	// VocabSize is the number of token ids to aim for, counting the 256 byte tokens
	// and the special tokens; zero means DefaultVocabSize. Training stops earlier when
	// no pair of tokens occurs MinFrequency times any more.
	VocabSize int
	// Special lists the special tokens (for ndb, grammar.SpecialTokens). Each is a
	// non-empty valid UTF-8 string; they get the ids 256, 257, ... in this order.
	Special []string
	// MinFrequency is the least number of occurrences of a pair for it to be merged;
	// zero means 2.
	MinFrequency int
}

// Train learns a byte-level BPE tokenizer from texts. The ids 0 to 255 are the single
// bytes (id b is byte b), then come the special tokens, then one token per merge in the
// order the merges were learned.
//
// Each text is cut at its special tokens (which are left out of the statistics), and
// the rest into pre-tokens (see Pattern), which are counted. Then, until the
// vocabulary is full, the most frequent adjacent pair of tokens within pre-tokens is
// merged into a new token; a tie goes to the pair whose left token's bytes come first
// in byte order, then the right token's. The result depends only on the multiset of
// texts, so training is deterministic.
func Train(texts iter.Seq[string], opts TrainOptions) (*Tokenizer, error) {
	if opts.VocabSize == 0 {
		opts.VocabSize = DefaultVocabSize
	}
	if opts.MinFrequency == 0 {
		opts.MinFrequency = 2
	}
	if opts.MinFrequency < 1 {
		return nil, errors.New("tokenizer: MinFrequency must be positive")
	}
	base := 256 + len(opts.Special)
	if opts.VocabSize < base {
		return nil, fmt.Errorf("tokenizer: VocabSize %d is less than the %d byte and special tokens", opts.VocabSize, base)
	}
	seen := make(map[string]bool, len(opts.Special))
	ids := make([]int32, len(opts.Special))
	for i, s := range opts.Special {
		if s == "" || !utf8.ValidString(s) || seen[s] {
			return nil, fmt.Errorf("tokenizer: special token %q: empty, invalid UTF-8 or repeated", s)
		}
		seen[s] = true
		ids[i] = int32(256 + i)
	}
	counts := countPieces(texts, newSpecialMatcher(opts.Special, ids), splitNDB)
	tr := newTrainer(counts, opts.Special)
	tr.run(opts.VocabSize, int64(opts.MinFrequency))

	special := make([]bool, len(tr.tokens))
	for i := range opts.Special {
		special[256+i] = true
	}
	tokens := make([]string, len(tr.tokens))
	for i, b := range tr.tokens {
		tokens[i] = string(b)
	}
	t, err := newTokenizer(tokens, special, tr.merges, splitNDB)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return t, nil
}

// TrainStrings is Train over a slice of texts.
func TrainStrings(texts []string, opts TrainOptions) (*Tokenizer, error) {
	return Train(slices.Values(texts), opts)
}

// countPieces counts the pre-tokens of texts, leaving out special tokens and
// single-byte pre-tokens (which no merge can change).
func countPieces(texts iter.Seq[string], m specialMatcher, split splitKind) map[string]int64 {
	counts := make(map[string]int64, 1<<16)
	add := func(s string) {
		for i := 0; i < len(s); {
			j := split.next(s, i)
			if j-i > 1 {
				p := s[i:j]
				if c, ok := counts[p]; ok {
					counts[p] = c + 1
				} else {
					counts[strings.Clone(p)] = 1 // don't keep the text alive
				}
			}
			i = j
		}
	}
	for text := range texts {
		for text != "" {
			pos, n, _ := m.find(text)
			if pos < 0 {
				add(text)
				break
			}
			add(text[:pos])
			text = text[pos+n:]
		}
	}
	return counts
}

// trainer holds the state of BPE training: the words (distinct pre-tokens) as symbol
// sequences, the count of every adjacent pair, for every pair the words it occurs in,
// and a heap of pairs by count.
type trainer struct {
	tokens [][]byte   // bytes of every token id
	merges [][2]int32 // learned merges, in order

	// Words live in one arena: word w is syms[start[w]:start[w]+length[w]], with
	// weight count[w] (its number of occurrences); merging shrinks words in place.
	syms   []int32
	start  []int32
	length []int32
	count  []int64

	// Pairs are numbered in order of appearance.
	pairIdx   map[uint64]int32
	pairs     []uint64  // pairKey of each pair
	pairCount []int64   // occurrences of each pair, weighted by word counts
	where     [][]int32 // words that contain (or once contained) each pair, ascending
	stamp     []int32   // last step that recorded an increase of each pair
	changed   []int32   // pairs whose count rose in the current step
	heap      pairHeap
}

func newTrainer(counts map[string]int64, special []string) *trainer {
	tr := &trainer{pairIdx: make(map[uint64]int32)}
	for b := range 256 {
		tr.tokens = append(tr.tokens, []byte{byte(b)})
	}
	for _, s := range special {
		tr.tokens = append(tr.tokens, []byte(s))
	}
	// The order of the words (here map order) does not matter: pair counts are sums,
	// and the heap orders pairs by count and bytes alone.
	words := make([]string, 0, len(counts))
	total := 0
	for w := range counts {
		words = append(words, w)
		total += len(w)
	}
	tr.syms = make([]int32, 0, total)
	tr.start = make([]int32, len(words))
	tr.length = make([]int32, len(words))
	tr.count = make([]int64, len(words))
	for w, s := range words {
		tr.start[w] = int32(len(tr.syms))
		tr.length[w] = int32(len(s))
		tr.count[w] = counts[s]
		for i := range len(s) {
			tr.syms = append(tr.syms, int32(s[i]))
		}
	}
	for w := range words {
		ws := tr.word(w)
		for i := 0; i+1 < len(ws); i++ {
			tr.addPair(ws[i], ws[i+1], tr.count[w], int32(w), -1)
		}
	}
	tr.heap.tr = tr
	for p, c := range tr.pairCount {
		tr.heap.push(pairEntry{count: c, pair: int32(p)})
	}
	return tr
}

func (tr *trainer) word(w int) []int32 {
	s := tr.start[w]
	return tr.syms[s : s+tr.length[w]]
}

// addPair adds delta to the count of pair (a, b). An increase records word w in the
// pair's posting list, and, during a step (step >= 0), marks the pair as changed.
func (tr *trainer) addPair(a, b int32, delta int64, w int32, step int32) {
	k := pairKey(a, b)
	p, ok := tr.pairIdx[k]
	if !ok {
		p = int32(len(tr.pairs))
		tr.pairIdx[k] = p
		tr.pairs = append(tr.pairs, k)
		tr.pairCount = append(tr.pairCount, 0)
		tr.where = append(tr.where, nil)
		tr.stamp = append(tr.stamp, -1)
	}
	tr.pairCount[p] += delta
	if delta <= 0 {
		return
	}
	if ws := tr.where[p]; len(ws) == 0 || ws[len(ws)-1] != w {
		tr.where[p] = append(ws, w)
	}
	if step >= 0 && tr.stamp[p] != step {
		tr.stamp[p] = step
		tr.changed = append(tr.changed, p)
	}
}

// run learns merges until there are vocabSize tokens or no pair occurs minFreq times.
func (tr *trainer) run(vocabSize int, minFreq int64) {
	for step := int32(0); len(tr.tokens) < vocabSize && tr.heap.len() > 0; {
		top := tr.heap.pop()
		if c := tr.pairCount[top.pair]; c != top.count {
			// A stale entry. Every pair with a positive count has an entry whose
			// count is at least the current one (a step that raises a count pushes
			// a fresh entry), so the first entry popped with its current count is
			// the best pair. A count that dropped is queued again; one that rose
			// has a fresher entry already.
			if c < top.count && c >= minFreq {
				tr.heap.push(pairEntry{count: c, pair: top.pair})
			}
			continue
		}
		if top.count < minFreq {
			break
		}
		tr.mergePair(top.pair, step)
		step++
	}
}

// mergePair turns every occurrence of pair p into a new token and updates the pair
// counts, posting lists and heap.
func (tr *trainer) mergePair(p int32, step int32) {
	k := tr.pairs[p]
	a, b := int32(k>>32), int32(uint32(k))
	c := int32(len(tr.tokens))
	tr.tokens = append(tr.tokens, append(slices.Clip(tr.tokens[a]), tr.tokens[b]...))
	tr.merges = append(tr.merges, [2]int32{a, b})
	tr.changed = tr.changed[:0]

	for _, w := range tr.where[p] {
		ws := tr.word(int(w))
		cnt := tr.count[w]
		j := 0
		for i := 0; i < len(ws); {
			if i+1 < len(ws) && ws[i] == a && ws[i+1] == b {
				// The left neighbour is already rewritten (it may be c), the right
				// one not yet: this keeps the count changes exact for runs like
				// "a b a b" or "a a a".
				if j > 0 {
					x := ws[j-1]
					tr.addPair(x, a, -cnt, w, step)
					tr.addPair(x, c, cnt, w, step)
				}
				if i+2 < len(ws) {
					y := ws[i+2]
					tr.addPair(b, y, -cnt, w, step)
					tr.addPair(c, y, cnt, w, step)
				}
				ws[j] = c
				i += 2
			} else {
				ws[j] = ws[i]
				i++
			}
			j++
		}
		tr.length[w] = int32(j)
	}
	tr.where[p] = nil
	tr.pairCount[p] = 0
	for _, q := range tr.changed {
		if q != p && tr.pairCount[q] > 0 {
			tr.heap.push(pairEntry{count: tr.pairCount[q], pair: q})
		}
	}
}

// pairEntry is a heap entry: a pair and its count when pushed.
type pairEntry struct {
	count int64
	pair  int32
}

// pairHeap is a max-heap of pairs by count; a tie goes to the pair whose bytes (left
// token, then right token) come first.
type pairHeap struct {
	entries []pairEntry
	tr      *trainer
}

func (h *pairHeap) len() int { return len(h.entries) }

func (h *pairHeap) less(x, y pairEntry) bool {
	if x.count != y.count {
		return x.count > y.count
	}
	toks := h.tr.tokens
	kx, ky := h.tr.pairs[x.pair], h.tr.pairs[y.pair]
	if c := bytes.Compare(toks[kx>>32], toks[ky>>32]); c != 0 {
		return c < 0
	}
	return bytes.Compare(toks[uint32(kx)], toks[uint32(ky)]) < 0
}

func (h *pairHeap) push(e pairEntry) {
	h.entries = append(h.entries, e)
	s := h.entries
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(s[i], s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *pairHeap) pop() pairEntry {
	s := h.entries
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(s) && h.less(s[l], s[m]) {
			m = l
		}
		if r := l + 1; r < len(s) && h.less(s[r], s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	h.entries = s
	return top
}
