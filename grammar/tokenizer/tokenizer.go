package tokenizer

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Tokenizer is a byte-level BPE tokenizer: a vocabulary of byte strings (every single
// byte among them), special tokens, and ranked merges. Make one with Train or Load. It
// is safe for concurrent use.
type Tokenizer struct {
	// tokens holds the bytes of every id: for a special token, its text.
	tokens  []string
	special []bool
	// specials lists the special tokens' ids in increasing order.
	specials  []int32
	specialID map[string]int32
	byteID    [256]int32
	// merges maps a pair of ids (pairKey) to its merge; mergeList holds the pairs in
	// rank order.
	merges    map[uint64]merge
	mergeList [][2]int32
	split     splitKind
	match     specialMatcher
	cache     *pieceCache
}

// merge is the rank (the lower, the earlier it applies) and result of a merge.
type merge struct {
	rank, id int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// newTokenizer checks a vocabulary and builds a Tokenizer. Every byte must be the bytes
// of exactly one ordinary (non-special) token, no two ordinary tokens may have the same
// bytes, and each merge's result must be the ordinary token made of its two halves.
func newTokenizer(tokens []string, special []bool, merges [][2]int32, split splitKind) (*Tokenizer, error) {
	t := &Tokenizer{
		tokens:    tokens,
		special:   special,
		specialID: make(map[string]int32),
		merges:    make(map[uint64]merge, len(merges)),
		mergeList: merges,
		split:     split,
		cache:     newPieceCache(defaultCacheSize),
	}
	ordinary := make(map[string]int32, len(tokens))
	for id, s := range tokens {
		if special[id] {
			if s == "" {
				return nil, fmt.Errorf("special token %d is empty", id)
			}
			if !utf8.ValidString(s) {
				return nil, fmt.Errorf("special token %q is not valid UTF-8", s)
			}
			if _, dup := t.specialID[s]; dup {
				return nil, fmt.Errorf("special token %q appears twice", s)
			}
			t.specialID[s] = int32(id)
			t.specials = append(t.specials, int32(id))
			continue
		}
		if s == "" {
			return nil, fmt.Errorf("token %d is empty", id)
		}
		if prev, dup := ordinary[s]; dup {
			return nil, fmt.Errorf("tokens %d and %d are both %q", prev, id, s)
		}
		ordinary[s] = int32(id)
	}
	for b := range 256 {
		id, ok := ordinary[string([]byte{byte(b)})]
		if !ok {
			return nil, fmt.Errorf("no token for byte 0x%02x", b)
		}
		t.byteID[b] = id
	}
	for rank, m := range merges {
		a, b := m[0], m[1]
		if a < 0 || b < 0 || int(a) >= len(tokens) || int(b) >= len(tokens) || special[a] || special[b] {
			return nil, fmt.Errorf("merge %d: bad token ids %d, %d", rank, a, b)
		}
		id, ok := ordinary[tokens[a]+tokens[b]]
		if !ok {
			return nil, fmt.Errorf("merge %d (%q, %q): the result is not in the vocabulary", rank, tokens[a], tokens[b])
		}
		k := pairKey(a, b)
		if _, dup := t.merges[k]; dup {
			return nil, fmt.Errorf("merge %d (%q, %q) appears twice", rank, tokens[a], tokens[b])
		}
		t.merges[k] = merge{rank: int32(rank), id: id}
	}
	specs := make([]string, len(t.specials))
	for i, id := range t.specials {
		specs[i] = tokens[id]
	}
	t.match = newSpecialMatcher(specs, t.specials)
	return t, nil
}

// VocabSize returns the number of token ids; ids are 0 to VocabSize()-1.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// TokenID returns the id of a special token given its text.
func (t *Tokenizer) TokenID(special string) (int, bool) {
	id, ok := t.specialID[special]
	return int(id), ok
}

// IsSpecial reports whether id is the id of a special token.
func (t *Tokenizer) IsSpecial(id int) bool {
	return id >= 0 && id < len(t.tokens) && t.special[id]
}

// SpecialTokens returns the texts of the special tokens, in increasing id order.
func (t *Tokenizer) SpecialTokens() []string {
	out := make([]string, len(t.specials))
	for i, id := range t.specials {
		out[i] = t.tokens[id]
	}
	return out
}

// NumMerges returns the number of merges.
func (t *Tokenizer) NumMerges() int { return len(t.mergeList) }

// DecodeToken returns the bytes of one token (for a special token, its text), or nil
// for an id out of range. The result is a fresh copy; AppendToken avoids the copy.
func (t *Tokenizer) DecodeToken(id int) []byte {
	if id < 0 || id >= len(t.tokens) {
		return nil
	}
	return []byte(t.tokens[id])
}

// AppendToken appends the bytes of one token to dst. An id out of range appends
// nothing.
func (t *Tokenizer) AppendToken(dst []byte, id int) []byte {
	if id < 0 || id >= len(t.tokens) {
		return dst
	}
	return append(dst, t.tokens[id]...)
}

// Decode returns the text of a sequence of token ids: the concatenation of their bytes,
// which need not be valid UTF-8 (a prefix of an encoding may end inside a character).
// Ids out of range are skipped; use Validate to reject them.
func (t *Tokenizer) Decode(ids []int) string {
	n := 0
	for _, id := range ids {
		if id >= 0 && id < len(t.tokens) {
			n += len(t.tokens[id])
		}
	}
	buf := make([]byte, 0, n)
	for _, id := range ids {
		buf = t.AppendToken(buf, id)
	}
	return string(buf)
}

// ErrBadID is returned by Validate for a token id out of range.
var ErrBadID = errors.New("tokenizer: token id out of range")

// Validate reports an error wrapping ErrBadID if any id is out of range.
func (t *Tokenizer) Validate(ids []int) error {
	for i, id := range ids {
		if id < 0 || id >= len(t.tokens) {
			return fmt.Errorf("%w: ids[%d] = %d, vocabulary size %d", ErrBadID, i, id, len(t.tokens))
		}
	}
	return nil
}
