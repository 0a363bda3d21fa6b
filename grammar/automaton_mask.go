package grammar

// This file is what the constrained decoder's fast mask (infer/constrain_mask.go)
// needs to know of where the automaton stands, without changing what it allows.

// IsPlain reports whether c stands for itself inside a canonical JSON string.
func IsPlain(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' }

// Phase is where an automaton stands, for tests and statistics.
func (a *Automaton) Phase() int { return int(a.phase) }

// EscapePending reports whether an escape (or a surrogate pair) is open in a string.
func (a *Automaton) EscapePending() bool { return a.s.esc != 0 || a.s.needLow }

// InWord reports whether a is writing SRC or an exit word.
func (a *Automaton) InWord() bool { return a.phase == phSrc || a.phase == phExit }

// PlainRoom reports whether a is inside a JSON string with no escape pending, and how
// many repr-neutral bytes (IsReprNeutral) the string can still take. Under the program facts a key is not
// free text (its names are narrowed), so keys report false.
func (a *Automaton) PlainRoom() (room int, ok bool) {
	limit := a.lim.MaxRepr
	switch a.phase {
	case phKey:
		if a.tg != nil {
			return 0, false
		}
		limit = a.lim.MaxKey
	case phVal, phArgStr:
		if a.vals != nil {
			return 0, false // the value facts narrow it
		}
		if !a.s.r.plain() {
			return 0, false // a repr's start, name and end are not free text
		}
	default:
		return 0, false
	}
	if a.s.esc != 0 || a.s.needLow {
		return 0, false
	}
	return max(limit-a.s.n, 0), true
}

// TakesSpecial reports whether a special token can follow in a's phase.
func (a *Automaton) TakesSpecial() bool {
	switch a.phase {
	case phEvent, phSrcSep, phSrc, phExit, phFrame:
		return true
	}
	return false
}

var allBytes = func() (b [256]byte) {
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

// FirstBytes returns the bytes an ordinary token may start with in a's phase (a
// superset: each is still fed), using buf for one or two bytes.
func (a *Automaton) FirstBytes(buf *[2]byte) []byte {
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

// ForcedSpecial returns the special token that is the only thing a can take next,
// when its phase says so at a glance.
func (a *Automaton) ForcedSpecial() (string, bool) {
	switch a.phase {
	case phSrcSep:
		return TokenSrcSep, true
	case phFrame:
		return TokenFrameSep, true
	case phSrc:
		nd := &a.src.nodes[a.node]
		if !nd.isTerm {
			return "", false
		}
		if a.tg != nil {
			if _, n := a.allowedLinesUnder(a.node); n != 1 || !a.lineAllowed(nd.line) {
				return "", false
			}
		} else if len(nd.bytes) != 0 {
			return "", false
		}
		if a.ev.HasValue() {
			return TokenArgSep, true
		}
		return TokenFrameSep, true
	case phExit:
		if nd := &a.exit.nodes[a.node]; nd.isTerm && len(nd.bytes) == 0 {
			return TokenFrameSep, true
		}
	}
	return "", false
}

// Punctuation reports whether a stands where only one or two fixed bytes can come
// (between the parts of a locals object).
func (a *Automaton) Punctuation() bool {
	switch a.phase {
	case phEvent, phKey, phVal, phArgStr, phDone, phSrc, phExit, phSrcSep, phFrame:
		return false
	}
	return true
}

// Reserve gives a's keys and names spare capacity, so that the copies fed while
// masking append without allocating (one token appends fewer bytes than it has).
func (a *Automaton) Reserve(tokenMax int) {
	if cap(a.keys)-len(a.keys) < tokenMax {
		a.keys = append(make([]byte, 0, 2*len(a.keys)+max(4*tokenMax, 256)), a.keys...)
	}
	if cap(a.names)-len(a.names) < tokenMax {
		a.names = append(make([][2]int32, 0, 2*len(a.names)+max(2*tokenMax, 64)), a.names...)
	}
}

// Clip gives a's keys and names slices of their own (for tests that keep states
// along one walk).
func (a *Automaton) Clip() {
	a.keys = append([]byte(nil), a.keys...)[:len(a.keys):len(a.keys)]
	a.names = append([][2]int32(nil), a.names...)[:len(a.names):len(a.names)]
}

// DeterminedRest returns the bytes that must follow in SRC or in an exit word when
// only one string (one allowed line) continues from a, or in a value the value facts
// force (with its closing quote), or "".
func (a *Automaton) DeterminedRest() string {
	t := a.src
	switch a.phase {
	case phVal, phArgStr:
		return a.valueRest()
	case phSrc:
		if a.tg != nil {
			lines, n := a.allowedLinesUnder(a.node)
			if n != 1 {
				return ""
			}
			return a.tg.p.srcText[lines[0]][a.srcN:]
		}
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

// FeedText feeds a state's text (special tokens written out) and reports whether the
// automaton accepts all of it. A special token's text is taken as the token where the
// automaton takes a special token, else as bytes (as a tokenizer would write text
// that merely looks like one, in SRC or a repr).
func (a *Automaton) FeedText(text string) bool {
	for i := 0; i < len(text); {
		if text[i] == '<' && a.TakesSpecial() {
			fed := false
			for _, tok := range SpecialTokens {
				if len(text)-i >= len(tok) && text[i:i+len(tok)] == tok {
					c := *a
					if c.FeedSpecial(tok) {
						*a, i, fed = c, i+len(tok), true
					}
					break
				}
			}
			if fed {
				continue
			}
		}
		if !a.FeedByte(text[i]) {
			return false
		}
		i++
	}
	return true
}
