package grammar

// trie is a byte trie over a set of strings (the SRC lines of a context, or the exit
// words). Node 0 is the root.
type trie struct {
	nodes []trieNode
}

type trieNode struct {
	bytes    []byte  // the children's bytes
	children []int32 // the children's nodes, parallel to bytes
	isTerm   bool    // a whole string ends here
	line     int     // for a SRC trie: the line number of the string ending here

	// tin and tout number the nodes in depth-first order (tour): node m is below n
	// (or n) exactly when tin[n] <= tin[m] < tout[n].
	tin, tout int32
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

// find returns the node where string s ends, or -1.
func (t *trie) find(s string) int32 {
	n := int32(0)
	for i := 0; i < len(s) && n >= 0; i++ {
		n = t.child(n, s[i])
	}
	return n
}

// tour numbers the nodes in depth-first order (tin, tout).
func (t *trie) tour() {
	var clock int32
	var walk func(n int32)
	walk = func(n int32) {
		t.nodes[n].tin = clock
		clock++
		for _, c := range t.nodes[n].children {
			walk(c)
		}
		t.nodes[n].tout = clock
	}
	walk(0)
}

// srcTrie is the trie of every SRC string of ctx; a string's end holds its line
// number.
func srcTrie(ctx Context) *trie {
	var words []string
	var lines []int
	for _, l := range ctx.Lines() {
		if s, ok := ctx.Src(l); ok {
			words = append(words, s)
			lines = append(lines, l.Line)
		}
	}
	t := newTrie(words)
	for i, w := range words {
		if n := t.find(w); n >= 0 {
			t.nodes[n].line = lines[i]
		}
	}
	return t
}

// exitTrie is the trie of the exit words; exitNeverTrie allows a run cut off alone.
var exitTrie = newTrie([]string{string(ExitNormal), string(ExitError), string(ExitNever)})
var exitNeverTrie = newTrie([]string{string(ExitNever)})

// Finish force-closes the state from wherever the automaton stands, so that it
// decodes: an unfinished escape or locals entry is cut off (text is returned shorter),
// open strings and objects are closed, SRC is completed (to defSrc when nothing of it
// was written yet and defSrc is a line of the context), a value is closed, and
// <|frame_sep|> ends it. It returns the completed text.
func (a *Automaton) Finish(text []byte, defSrc string) []byte {
	switch a.phase {
	case phKey, phColon, phColonSp, phValOpen, phCommaSp, phKeyOpen:
		first := text[a.entryStart] == '"'
		text, a.n = text[:a.entryStart], a.entryStart
		if a.phase == phColon || a.phase == phColonSp || a.phase == phValOpen {
			a.names = a.names[:len(a.names)-1] // its key was finished: it goes too
		}
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
			if r := a.rule(); r != nil && r.mustMarker {
				piece = diffMarkerEntry + "}"
				if a.phase == phAfterVal {
					piece = ", " + piece
				}
			}
			if name, ok := a.missingParam(); ok {
				// A call state holds every parameter: None for the rest.
				piece = `"` + name + `": "` + a.orNone(a.forcedCallValue(name)) + `"`
				if a.phase == phAfterVal {
					piece = ", " + piece
				}
			}
			if name := a.missingKey(); name != "" && len(a.names) < a.lim.MaxVars {
				// A line state holds the variable its line's assignment changed (or
				// one bound on every path to a breakpoint's stop).
				piece = `"` + name + `": "` + a.orNone(a.rule().firstForced(name)) + `"`
				if a.phase == phAfterVal {
					piece = ", " + piece
				}
			} else if name := a.missingPresent(); name != "" && piece == "}" && len(a.names) < a.lim.MaxVars {
				// The full form holds every variable still bound: end with the marker
				// (the diff form) where it may, else write the variable.
				if a.markerAllowed() {
					piece = diffMarkerEntry + "}"
				} else {
					piece = `"` + name + `": "` + a.orNone(a.rule().firstForced(name)) + `"`
				}
				if a.phase == phAfterVal {
					piece = ", " + piece
				}
			}
		case phVal:
			piece = a.finishVal()
		case phMarker:
			piece = markerRest[a.mi:]
		case phSrcSep:
			piece, special = TokenSrcSep, true
		case phSrc:
			if a.tg != nil {
				if rest, ok := a.srcCompletion(defSrc); ok {
					piece = rest
					if piece != "" {
						break
					}
				}
			} else if !a.src.term(a.node) {
				prefer := ""
				if a.node == 0 {
					prefer = defSrc
				}
				piece = a.src.complete(a.node, prefer)
				break
			}
			piece, special = TokenFrameSep, true
			if a.ev.HasValue() {
				piece = TokenArgSep
			}
		case phArgOpen:
			piece = `"`
		case phArgStr:
			piece = a.finishVal()
		case phFrame:
			piece, special = TokenFrameSep, true
		case phExit:
			if !a.exit.term(a.node) {
				piece = a.exit.complete(a.node, "")
				break
			}
			piece, special = TokenFrameSep, true
		}
		var ok bool
		if special {
			ok = a.FeedSpecial(piece)
		} else {
			ok = a.FeedBytes([]byte(piece))
		}
		if !ok || piece == "" {
			break // cannot happen for a well-formed automaton; the decode check reports it
		}
		text = append(text, piece...)
	}
	return text
}
