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

// isPlain reports whether c stands for itself inside a canonical JSON string.
func isPlain(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' }

// maskTables are the parts of a Vocab that make the mask cheap.
type maskTables struct {
	plainIDs  []int      // ordinary tokens made only of plain string bytes
	plainMax  int        // the longest of them, in bytes
	plainMask []bool     // plainIDs as a mask
	tokenMax  int        // the longest ordinary token, in bytes
	other     [256][]int // the ordinary tokens by first byte, less plainIDs
	specialID map[string]int
}

var allBytes = func() (b [256]byte) {
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

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
				if !isPlain(c) {
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

// plainRoom reports whether a is inside a JSON string with no escape pending, and how
// many plain bytes the string can still take.
func (a *automaton) plainRoom() (room int, ok bool) {
	limit := a.lim.MaxRepr
	switch a.phase {
	case phKey:
		limit = a.lim.MaxKey
	case phVal, phArgStr:
	default:
		return 0, false
	}
	if a.s.esc != 0 || a.s.needLow {
		return 0, false
	}
	return max(limit-a.s.n, 0), true
}

// takesSpecial reports whether a special token can follow in a's phase.
func (a *automaton) takesSpecial() bool {
	switch a.phase {
	case phEvent, phSrcSep, phSrc, phExit, phFrame:
		return true
	}
	return false
}

// firstBytes returns the bytes an ordinary token may start with in a's phase (a
// superset: each is still fed), using buf for one or two bytes.
func (a *automaton) firstBytes(buf *[2]byte) []byte {
	one := func(c byte) []byte { buf[0] = c; return buf[:1] }
	two := func(c, d byte) []byte { buf[0], buf[1] = c, d; return buf[:2] }
	switch a.phase {
	case phEvent, phSrcSep, phFrame, phDone:
		return nil
	case phObjOpen:
		return one('{')
	case phObjFirst:
		return two('"', '}')
	case phKeyOpen, phValOpen, phArgOpen:
		return one('"')
	case phColon:
		return one(':')
	case phColonSp, phCommaSp:
		return one(' ')
	case phAfterVal:
		return two(',', '}')
	case phMarker:
		return one(markerRest[a.mi])
	case phSrc:
		return a.src.nodes[a.node].bytes
	case phExit:
		return a.exit.nodes[a.node].bytes
	}
	return allBytes[:]
}

// allowed fills mask (len VocabSize) with the tokens that a can take next and returns
// how many there are: the same set as allowedRef, computed with maskTables.
func (v *Vocab) allowed(a *automaton, mask []bool) int {
	count := 0
	buckets := &v.first
	if room, ok := a.plainRoom(); ok {
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
	if a.takesSpecial() {
		for _, id := range v.specIDs {
			c := *a
			if c.feedSpecial(v.special[id]) {
				mask[id] = true
				count++
			}
		}
	}
	var buf [2]byte
	for _, b := range a.firstBytes(&buf) {
		ids := buckets[b]
		if len(ids) == 0 {
			continue
		}
		c := *a
		if !c.feedByte(b) {
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
			if d.feedBytes(rest) {
				mask[id] = true
				count++
			}
		}
	}
	return count
}

// tokenOK reports whether a can take token id (a is not changed).
func (v *Vocab) tokenOK(a *automaton, id int) bool {
	c := *a
	if sp := v.special[id]; sp != "" {
		return c.feedSpecial(sp)
	}
	b := v.bytes[id]
	return len(b) > 0 && c.feedBytes(b)
}

// feed feeds token id to a.
func (v *Vocab) feed(a *automaton, id int) bool {
	if sp := v.special[id]; sp != "" {
		return a.feedSpecial(sp)
	}
	return a.feedBytes(v.bytes[id])
}

// greedyCandidates is how many of the highest logits greedyPick tries before it falls
// back to the full mask.
const greedyCandidates = 16

// greedyPick returns the token a greedy Sampler would draw from logits under a's
// mask, trying only the highest logits (top is scratch); -1 when none of them is
// allowed, and the caller builds the full mask.
func (v *Vocab) greedyPick(a *automaton, logits []float32, top *[]int) int {
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
func (v *Vocab) forcedToken(a *automaton) (int, bool) {
	special := func(tok string) (int, bool) {
		id, ok := v.specialID[tok]
		return id, ok
	}
	switch a.phase {
	case phSrcSep:
		return special(grammar.TokenSrcSep)
	case phFrame:
		return special(grammar.TokenFrameSep)
	case phSrc:
		if nd := &a.src.nodes[a.node]; nd.isTerm && len(nd.bytes) == 0 {
			if a.ev.HasValue() {
				return special(grammar.TokenArgSep)
			}
			return special(grammar.TokenFrameSep)
		}
		return -1, false
	case phExit:
		if nd := &a.exit.nodes[a.node]; nd.isTerm && len(nd.bytes) == 0 {
			return special(grammar.TokenFrameSep)
		}
		return -1, false
	case phEvent, phKey, phVal, phArgStr, phDone:
		return -1, false
	}
	// A punctuation phase: one or two first bytes, small buckets.
	found, n := -1, 0
	var buf [2]byte
	for _, b := range a.firstBytes(&buf) {
		c := *a
		if !c.feedByte(b) {
			continue
		}
		for _, id := range v.first[b] {
			d := c
			if d.feedBytes(v.bytes[id][1:]) {
				if n++; n > 1 {
					return -1, false
				}
				found = id
			}
		}
	}
	return found, n == 1
}

// reserve gives a's keys and names spare capacity, so that the copies fed while
// masking append without allocating (one token appends fewer bytes than it has).
func (a *automaton) reserve(tokenMax int) {
	if cap(a.keys)-len(a.keys) < tokenMax {
		a.keys = append(make([]byte, 0, 2*len(a.keys)+max(4*tokenMax, 256)), a.keys...)
	}
	if cap(a.names)-len(a.names) < tokenMax {
		a.names = append(make([][2]int32, 0, 2*len(a.names)+max(2*tokenMax, 64)), a.names...)
	}
}

// determinedRest returns the bytes that must follow in SRC or in an exit word when
// only one string of the trie continues from a (a single path to a leaf), or "".
func (a *automaton) determinedRest() string {
	t := a.src
	switch a.phase {
	case phSrc:
	case phExit:
		t = a.exit
	default:
		return ""
	}
	n, k := a.node, 0
	for ; ; k++ {
		nd := &t.nodes[n]
		if len(nd.bytes) == 0 {
			break
		}
		if len(nd.bytes) != 1 || nd.isTerm {
			return ""
		}
		n = nd.children[0]
	}
	if k == 0 {
		return ""
	}
	out := make([]byte, 0, k)
	for n := a.node; len(t.nodes[n].bytes) > 0; n = t.nodes[n].children[0] {
		out = append(out, t.nodes[n].bytes[0])
	}
	return string(out)
}

// determinedTokens returns the tokens that write the determined rest of SRC or of an
// exit word (see determinedRest) after written, the tokens written since the string
// began: the rest of the string's canonical encoding when written is its prefix, else
// the encoding of the rest alone. Nil when nothing is determined.
func (v *Vocab) determinedTokens(a *automaton, written []int) []int {
	s := a.determinedRest()
	if s == "" {
		return nil
	}
	rest := v.Tok.EncodeOrdinary(s)
	if whole := v.Tok.EncodeOrdinary(v.Tok.Decode(written) + s); len(whole) > len(written) && slices.Equal(whole[:len(written)], written) {
		rest = whole[len(written):]
	}
	c := *a
	for _, id := range rest {
		if v.special[id] != "" || !c.feedBytes(v.bytes[id]) {
			return nil // cannot happen: the bytes are the trie's
		}
	}
	return rest
}
