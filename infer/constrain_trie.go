package infer

import "github.com/ndb-project/ndb/grammar"

// trie is a byte trie over a set of strings (the SRC lines of a context, or the exit
// words). Node 0 is the root.
type trie struct {
	nodes []trieNode
}

type trieNode struct {
	bytes    []byte  // the children's bytes
	children []int32 // the children's nodes, parallel to bytes
	isTerm   bool    // a whole string ends here
}

func newTrie(words []string) *trie {
	t := &trie{nodes: []trieNode{{}}}
	for _, w := range words {
		n := int32(0)
		for i := 0; i < len(w); i++ {
			next := t.child(n, w[i])
			if next < 0 {
				next = int32(len(t.nodes))
				t.nodes = append(t.nodes, trieNode{})
				t.nodes[n].bytes = append(t.nodes[n].bytes, w[i])
				t.nodes[n].children = append(t.nodes[n].children, next)
			}
			n = next
		}
		t.nodes[n].isTerm = true
	}
	return t
}

// child is the node after byte c from node n, or -1.
func (t *trie) child(n int32, c byte) int32 {
	nd := &t.nodes[n]
	for i, b := range nd.bytes {
		if b == c {
			return nd.children[i]
		}
	}
	return -1
}

// term reports whether a whole string ends at node n.
func (t *trie) term(n int32) bool { return t.nodes[n].isTerm }

// complete returns the bytes that lead from node n to the nearest whole string
// (following first children), or prefer when prefer continues from n.
func (t *trie) complete(n int32, prefer string) string {
	m := n
	ok := true
	for i := 0; i < len(prefer); i++ {
		if m = t.child(m, prefer[i]); m < 0 {
			ok = false
			break
		}
	}
	if ok && m >= 0 && t.term(m) {
		return prefer
	}
	var out []byte
	for !t.term(n) {
		nd := &t.nodes[n]
		if len(nd.bytes) == 0 {
			break
		}
		out = append(out, nd.bytes[0])
		n = nd.children[0]
	}
	return string(out)
}

// srcTrie is the trie of every SRC string of ctx.
func srcTrie(ctx grammar.Context) *trie {
	var words []string
	for _, l := range ctx.Lines() {
		if s, ok := ctx.Src(l); ok {
			words = append(words, s)
		}
	}
	return newTrie(words)
}

// exitTrie is the trie of the exit words.
var exitTrie = newTrie([]string{string(grammar.ExitNormal), string(grammar.ExitError), string(grammar.ExitNever)})

// finish force-closes the state from wherever the automaton stands, so that it
// decodes: an unfinished escape or locals entry is cut off (text is returned shorter),
// open strings and objects are closed, SRC is completed (to defSrc when nothing of it
// was written yet and defSrc is a line of the context), a value is closed, and
// <|frame_sep|> ends it. It returns the completed text.
func (a *automaton) finish(text []byte, defSrc string) []byte {
	switch a.phase {
	case phKey, phColon, phColonSp, phValOpen, phCommaSp, phKeyOpen:
		first := text[a.entryStart] == '"'
		text, a.n = text[:a.entryStart], a.entryStart
		a.phase = phAfterVal
		if first {
			a.phase = phObjFirst
		}
	case phVal, phArgStr:
		if a.s.esc != 0 || a.s.needLow {
			text, a.n = text[:a.s.escStart], a.s.escStart
			a.s.esc, a.s.needLow = 0, false
		}
	}
	for guard := 0; a.phase != phDone && guard < 64; guard++ {
		var piece string
		special := false
		switch a.phase {
		case phEvent:
			piece, special = a.firstToken(), true
		case phObjOpen:
			piece = "{"
		case phObjFirst, phAfterVal:
			piece = "}"
		case phVal:
			piece = `"`
		case phMarker:
			piece = markerRest[a.mi:]
		case phSrcSep:
			piece, special = grammar.TokenSrcSep, true
		case phSrc:
			if !a.src.term(a.node) {
				prefer := ""
				if a.node == 0 {
					prefer = defSrc
				}
				piece = a.src.complete(a.node, prefer)
				break
			}
			piece, special = grammar.TokenFrameSep, true
			if a.ev.HasValue() {
				piece = grammar.TokenArgSep
			}
		case phArgOpen:
			piece = `"`
		case phArgStr:
			piece = `"`
		case phFrame:
			piece, special = grammar.TokenFrameSep, true
		case phExit:
			if !a.exit.term(a.node) {
				piece = a.exit.complete(a.node, "")
				break
			}
			piece, special = grammar.TokenFrameSep, true
		}
		var ok bool
		if special {
			ok = a.feedSpecial(piece)
		} else {
			ok = a.feedBytes([]byte(piece))
		}
		if !ok || piece == "" {
			break // cannot happen for a well-formed automaton; the decode check reports it
		}
		text = append(text, piece...)
	}
	return text
}
