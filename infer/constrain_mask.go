package infer

import (
	"slices"

	"github.com/ndb-project/ndb/grammar"
)

// This file makes the grammar mask cheap without changing what it allows; allowedRef
// (generate.go), which feeds every token to a copy of the automaton, is the reference
// it must agree with (TestMaskMatchesReference).
//
//   - Inside a JSON string (a key, a value, the value after <|arg_sep|>) with no escape
//     pending, a token made only of plain string bytes (0x20–0x7e but '"' and '\') is
//     allowed exactly when it fits in the room left before the string's limit: those
//     tokens (most of the vocabulary) are set from a precomputed mask, and only the
//     others are fed.
//   - Only the first bytes the phase can take are tried (one expected byte for the
//     punctuation phases, the trie's children in SRC and the exit words), and special
//     tokens only in the phases that take one.
//   - A greedy sampler's choice is found without a mask: the highest logits are tried
//     in the order greedy sampling prefers them and the first one allowed is taken
//     (greedyPick); the full mask is the fallback.
//   - forcedToken says when exactly one token is allowed, so that Generate needs no
//     logits for it and runs it through the model together with the token before.
//   - determinedTokens writes the rest of a SRC line (or exit word) once only one line
//     of the context continues what was written: the text is what any choice of
//     tokens would write, and its tokens go through the model in one Forward.

// maskTables are the parts of a Vocab that make the mask cheap.
type maskTables struct {
	plainIDs  []int      // ordinary tokens made only of plain string bytes
	plainMax  int        // the longest of them, in bytes
	plainMask []bool     // plainIDs as a mask
	tokenMax  int        // the longest ordinary token, in bytes
	other     [256][]int // the ordinary tokens by first byte, less plainIDs
	specialID map[string]int
}

// buildMaskTables fills v.maskTables from v.bytes and v.special.
func (v *Vocab) buildMaskTables() {
	v.plainMask = make([]bool, len(v.bytes))
	v.specialID = map[string]int{}
	for _, id := range v.specIDs {
		v.specialID[v.special[id]] = id
	}
	for b := range v.first {
		for _, id := range v.first[b] {
			v.tokenMax = max(v.tokenMax, len(v.bytes[id]))
			plain := true
			for _, c := range v.bytes[id] {
				if !grammar.IsReprNeutral(c) {
					plain = false
					break
				}
			}
			if !plain {
				v.other[b] = append(v.other[b], id)
				continue
			}
			v.plainIDs = append(v.plainIDs, id)
			v.plainMask[id] = true
			v.plainMax = max(v.plainMax, len(v.bytes[id]))
		}
	}
}

// allowed fills mask (len VocabSize) with the tokens that a can take next and returns
// how many there are: the same set as allowedRef, computed with maskTables.
func (v *Vocab) allowed(a *grammar.Automaton, mask []bool) int {
	count := 0
	buckets := &v.first
	if room, ok := a.PlainRoom(); ok {
		buckets = &v.other
		if room >= v.plainMax {
			copy(mask, v.plainMask)
			count = len(v.plainIDs)
		} else {
			clear(mask)
			for _, id := range v.plainIDs {
				if len(v.bytes[id]) <= room {
					mask[id] = true
					count++
				}
			}
		}
	} else {
		clear(mask)
	}
	if a.TakesSpecial() {
		for _, id := range v.specIDs {
			c := *a
			if c.FeedSpecial(v.special[id]) {
				mask[id] = true
				count++
			}
		}
	}
	var buf [2]byte
	for _, b := range a.FirstBytes(&buf) {
		ids := buckets[b]
		if len(ids) == 0 {
			continue
		}
		c := *a
		if !c.FeedByte(b) {
			continue
		}
		for _, id := range ids {
			rest := v.bytes[id][1:]
			if len(rest) == 0 {
				mask[id] = true
				count++
				continue
			}
			d := c
			if d.FeedBytes(rest) {
				mask[id] = true
				count++
			}
		}
	}
	return count
}

// tokenOK reports whether a can take token id (a is not changed).
func (v *Vocab) tokenOK(a *grammar.Automaton, id int) bool {
	c := *a
	if sp := v.special[id]; sp != "" {
		return c.FeedSpecial(sp)
	}
	b := v.bytes[id]
	return len(b) > 0 && c.FeedBytes(b)
}

// feed feeds token id to a.
func (v *Vocab) feed(a *grammar.Automaton, id int) bool {
	if sp := v.special[id]; sp != "" {
		return a.FeedSpecial(sp)
	}
	return a.FeedBytes(v.bytes[id])
}

// greedyCandidates is how many of the highest logits greedyPick tries before it falls
// back to the full mask.
const greedyCandidates = 16

// greedyPick returns the token a greedy Sampler would draw from logits under a's
// mask, trying only the highest logits (top is scratch); -1 when none of them is
// allowed, and the caller builds the full mask.
func (v *Vocab) greedyPick(a *grammar.Automaton, logits []float32, top *[]int) int {
	*top = topLogits(logits, 1, (*top)[:0]) // usually the one: a cheaper pass
	if len(*top) == 0 {
		return -1
	}
	if v.tokenOK(a, (*top)[0]) {
		return (*top)[0]
	}
	*top = topLogits(logits, greedyCandidates, (*top)[:0])
	for _, id := range (*top)[1:] {
		if v.tokenOK(a, id) {
			return id
		}
	}
	return -1
}

// forcedToken returns the one token a allows, when exactly one is allowed (false
// when there are more, none, or it would take more than a glance to know).
func (v *Vocab) forcedToken(a *grammar.Automaton) (int, bool) {
	if tok, ok := a.ForcedSpecial(); ok {
		id, ok := v.specialID[tok]
		return id, ok
	}
	if !a.Punctuation() {
		return -1, false
	}
	// A punctuation phase: one or two first bytes, small buckets.
	found, n := -1, 0
	var buf [2]byte
	for _, b := range a.FirstBytes(&buf) {
		c := *a
		if !c.FeedByte(b) {
			continue
		}
		for _, id := range v.first[b] {
			d := c
			if d.FeedBytes(v.bytes[id][1:]) {
				if n++; n > 1 {
					return -1, false
				}
				found = id
			}
		}
	}
	return found, n == 1
}

// determinedTokens returns the tokens that write the determined rest of SRC or of an
// exit word (see determinedRest) after written, the tokens written since the string
// began: the rest of the string's canonical encoding when written is its prefix, else
// the encoding of the rest alone. Nil when nothing is determined.
func (v *Vocab) determinedTokens(a *grammar.Automaton, written []int) []int {
	s := a.DeterminedRest()
	if s == "" {
		return nil
	}
	rest := v.Tok.EncodeOrdinary(s)
	if whole := v.Tok.EncodeOrdinary(v.Tok.Decode(written) + s); len(whole) > len(written) && slices.Equal(whole[:len(written)], written) {
		rest = whole[len(written):]
	}
	c := *a
	for _, id := range rest {
		if v.special[id] != "" || !c.FeedBytes(v.bytes[id]) {
			return nil // cannot happen: the bytes are the trie's
		}
	}
	return rest
}
