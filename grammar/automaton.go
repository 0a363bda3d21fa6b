package grammar

// This file is the byte-level automaton of one generated state: what may follow an
// action, in the exact form DecodeNext reads (spec section 5), next to its decoder so
// that the language has one source of truth. With Targets (the program facts,
// targets.go) it also allows only the states the program can reach:
//
//	event token, then for call and line: a canonical locals object; <|src_sep|>;
//	SRC (a line of the context, byte for byte); for return and exception:
//	<|arg_sep|> and a JSON string; <|frame_sep|>. Or: <|exit_sep|> normal|error|never
//	<|frame_sep|>.
//
// Special tokens are atomic symbols (FeedSpecial); every other token is a run of
// bytes (feedByte). The automaton is a small value: checking whether a token fits is
// feeding it to a copy. Slices inside it (keys, names) are only ever appended to, so a
// copy that appends never changes what the original sees, and with spare capacity
// (reserve) it does not allocate.

// Limits bound a generated state so that generation always terminates.
type Limits struct {
	MaxTokens int // tokens per state before the structure is force-closed (default 512)
	MaxRepr   int // bytes of one JSON string's content (default 256)
	MaxKey    int // bytes of one variable name (default 64)
	MaxVars   int // entries of one locals object (default 48)
}

// WithDefaults fills the zero limits with their defaults.
func (l Limits) WithDefaults() Limits {
	if l.MaxTokens <= 0 {
		l.MaxTokens = 512
	}
	if l.MaxRepr <= 0 {
		l.MaxRepr = 256
	}
	if l.MaxKey <= 0 {
		l.MaxKey = 64
	}
	if l.MaxVars <= 0 {
		l.MaxVars = 48
	}
	return l
}

type phase uint8

const (
	phEvent    phase = iota // an event token or <|exit_sep|>
	phObjOpen               // '{'
	phObjFirst              // '"' (a key) or '}'
	phKey                   // inside a key string
	phColon                 // ':'
	phColonSp               // ' ' after ':'
	phValOpen               // '"' opening a value
	phVal                   // inside a value string
	phAfterVal              // ',' or '}'
	phCommaSp               // ' ' after ','
	phKeyOpen               // '"' opening a key after ", "
	phMarker                // the rest of the diff marker: `: ".."}`
	phSrcSep                // <|src_sep|>
	phSrc                   // SRC bytes, then the terminator token
	phArgOpen               // '"' opening the value after <|arg_sep|>
	phArgStr                // inside the value string
	phFrame                 // <|frame_sep|>
	phExit                  // normal|error|never, then <|frame_sep|>
	phDone                  // the state is complete
)

const markerRest = `: ".."}`

// jstr tracks one canonical JSON string's content (after the opening quote).
type jstr struct {
	n        int     // content bytes so far
	esc      int8    // 0: none; 1: after '\'; 2..5: after k = esc-2 hex digits of \u
	hex      rune    // the \u digits so far
	needLow  bool    // a high surrogate was written; a \u low surrogate must follow
	escStart int     // automaton offset of the current escape (or of the high surrogate)
	r        reprLex // a value's repr (automaton_repr.go); unused in keys
}

// Automaton is the grammar of one state after an action. The constrained decoder
// (package infer) asks it which tokens fit by feeding them to copies.
type Automaton struct {
	phase    phase
	ev       Event
	inverse  bool
	markerOK bool
	lim      Limits
	n        int // bytes consumed (special tokens count their text)

	s          jstr
	keys       []byte     // the bytes of every key so far, the current one last
	keyStart   int        // where the current key begins in keys
	names      [][2]int32 // the finished keys: spans of keys
	entryStart int        // offset where the current locals entry began (its ", " or '"')
	entries    int        // locals entries begun (keys opened, the diff marker's too)
	mi         int        // bytes of markerRest matched

	// after is the action that leads to this state; it narrows the first token:
	// continue leads only to an exit state, inv_step_call only to a call state,
	// step_return only to a return, an exception or the exit. Zero allows all.
	after ActionKind

	src  *trie // the context's SRC strings
	exit *trie // the exit words
	node int32 // position in src or exit
	srcN int   // SRC bytes written

	// The program facts (nil: the grammar alone): the targets the action allows,
	// the code objects the state can still belong to, and the position of the key
	// being written in the names trie (-1: off it).
	tg       *Targets
	alive    codeSet
	nameNode int32

	// The value being written must be one of vals (nil: any); vpos bytes of it are
	// written, and vdead marks the candidates left behind.
	vals  []string
	vpos  int
	vdead uint8
}

// NewAutomaton starts the grammar of the state after action `after` (zero: any) in
// context ctx; prev is the state the action started from (nil for none), which
// decides whether the diff marker is allowed. With targets (Program.Targets) only
// the states they allow are accepted; nil leaves the grammar alone.
func NewAutomaton(ctx Context, dir Direction, prev *State, after ActionKind, targets *Targets, lim Limits) Automaton {
	a := Automaton{
		inverse:  dir == Inverse,
		markerOK: prev != nil && prev.Event.HasLocals(),
		lim:      lim.WithDefaults(),
		exit:     exitTrie,
		after:    after,
	}
	if targets != nil {
		a.tg, a.src = targets, targets.p.src
		if targets.NeverOnly {
			a.exit = exitNeverTrie
		}
	} else {
		a.src = srcTrie(ctx)
	}
	return a
}

// eventAllowed reports whether tok may open the state after the action a.after.
func (a *Automaton) eventAllowed(tok string) bool {
	switch a.after {
	case Continue:
		return tok == TokenExitSep
	case InvStepCall:
		return tok == TokenCallSep
	case StepReturn:
		return tok == TokenReturnSep || tok == TokenExceptionSep || tok == TokenExitSep
	}
	return true
}

// firstToken is what a forced close opens the state with: the line separator, or
// what the action allows when that is not it.
func (a *Automaton) firstToken() string {
	switch a.after {
	case Continue:
		return TokenExitSep
	case InvStepCall:
		return TokenCallSep
	case StepReturn:
		return TokenReturnSep
	}
	return TokenLineSep
}

// Done reports whether the state is complete (its <|frame_sep|> was fed).
func (a *Automaton) Done() bool { return a.phase == phDone }

// FeedSpecial feeds one special token and reports whether it fits.
func (a *Automaton) FeedSpecial(tok string) bool {
	switch a.phase {
	case phEvent:
		if !a.eventAllowed(tok) {
			return false
		}
		if tok == TokenExitSep {
			if a.inverse || (a.tg != nil && !a.tg.Exit) {
				return false
			}
			a.phase, a.node = phExit, 0
			break
		}
		ev, ok := EventOfToken(tok)
		if !ok || (ev == EventInvLineCall && !a.inverse) {
			return false
		}
		if a.tg != nil {
			if a.alive = a.tg.codes(ev); a.alive.empty() {
				return false
			}
		}
		a.ev = ev
		if ev.HasLocals() {
			a.phase = phObjOpen
		} else {
			a.phase = phSrcSep
		}
	case phSrcSep:
		if tok != TokenSrcSep {
			return false
		}
		a.phase, a.node, a.srcN = phSrc, 0, 0
	case phSrc:
		if !a.src.term(a.node) || !a.lineAllowed(a.src.nodes[a.node].line) {
			return false
		}
		switch {
		case a.ev.HasValue() && tok == TokenArgSep:
			a.phase, a.vals = phArgOpen, nil
			if a.tg != nil && a.ev == EventReturn {
				a.setVals(a.tg.retValues(a.alive, a.src.nodes[a.node].line))
			}
		case !a.ev.HasValue() && tok == TokenFrameSep:
			a.phase = phDone
		default:
			return false
		}
	case phExit:
		if tok != TokenFrameSep || !a.exit.term(a.node) {
			return false
		}
		a.phase = phDone
	case phFrame:
		if tok != TokenFrameSep {
			return false
		}
		a.phase = phDone
	default:
		return false
	}
	a.n += len(tok)
	return true
}

// FeedBytes feeds the bytes of an ordinary token and reports whether they fit.
func (a *Automaton) FeedBytes(b []byte) bool {
	for _, c := range b {
		if !a.FeedByte(c) {
			return false
		}
	}
	return true
}

// feedByte feeds one byte.
func (a *Automaton) FeedByte(c byte) bool {
	ok := a.byteOK(c)
	if ok {
		a.n++
	}
	return ok
}

func (a *Automaton) byteOK(c byte) bool {
	switch a.phase {
	case phObjOpen:
		if c != '{' {
			return false
		}
		a.phase = phObjFirst
	case phObjFirst, phKeyOpen:
		if c == '}' && a.phase == phObjFirst {
			if !a.closeOK() {
				return false
			}
			a.phase = phSrcSep
			return true
		}
		if c != '"' || (a.phase == phObjFirst && !a.moreOK()) {
			return false
		}
		if a.phase == phObjFirst {
			a.entryStart = a.n
		}
		a.phase, a.s, a.keyStart, a.nameNode = phKey, jstr{}, len(a.keys), 0
		a.entries++
	case phKey:
		closed, ok := a.strByte(c, a.lim.MaxKey)
		if !ok {
			return false
		}
		if !closed {
			if a.tg != nil && !a.keyByteOK(c) {
				return false
			}
			a.keys = append(a.keys, c)
			return true
		}
		key := a.keys[a.keyStart:]
		if string(key) == DiffMarkerKey { // comparing string(bytes) does not allocate
			if !a.markerAllowed() {
				return false
			}
			if a.tg != nil {
				a.alive = a.alive.and(a.tg.prev)
			}
			a.phase, a.mi = phMarker, 0
			return true
		}
		for _, n := range a.names {
			if string(a.keys[n[0]:n[1]]) == string(key) {
				return false
			}
		}
		if a.tg != nil && !a.keyDone(key) {
			return false
		}
		a.vals = nil
		if r := a.rule(); r != nil {
			a.setVals(r.forced[string(key)])
		} else if a.ev == EventCall {
			a.setVals(a.tg.callValues(string(key)))
		}
		a.names = append(a.names, [2]int32{int32(a.keyStart), int32(len(a.keys))})
		a.phase = phColon
	case phColon:
		if c != ':' {
			return false
		}
		a.phase = phColonSp
	case phColonSp:
		if c != ' ' {
			return false
		}
		a.phase = phValOpen
	case phValOpen:
		if c != '"' {
			return false
		}
		a.phase, a.s = phVal, jstr{}
	case phVal:
		was := a.s
		closed, ok := a.strByte(c, a.lim.MaxRepr)
		if !ok || !a.s.reprByte(c, was, closed, a.lim.MaxRepr) || (a.vals != nil && !a.valByte(c, closed)) {
			return false
		}
		if closed {
			a.phase = phAfterVal
		}
	case phAfterVal:
		switch {
		case c == '}' && a.closeOK():
			a.phase = phSrcSep
		case c == ',' && len(a.names) < a.lim.MaxVars && a.moreOK():
			a.entryStart = a.n
			a.phase = phCommaSp
		default:
			return false
		}
	case phCommaSp:
		if c != ' ' {
			return false
		}
		a.phase = phKeyOpen
	case phMarker:
		if c != markerRest[a.mi] {
			return false
		}
		a.mi++
		if a.mi == len(markerRest) {
			a.phase = phSrcSep
		}
	case phSrc, phExit:
		t := a.src
		if a.phase == phExit {
			t = a.exit
		}
		next := t.child(a.node, c)
		if next < 0 || (a.phase == phSrc && a.tg != nil && !a.underAllowed(next)) {
			return false
		}
		a.node = next
		if a.phase == phSrc {
			a.srcN++
		}
	case phArgOpen:
		if c != '"' {
			return false
		}
		a.phase, a.s = phArgStr, jstr{}
	case phArgStr:
		was := a.s
		closed, ok := a.strByte(c, a.lim.MaxRepr)
		if !ok || !a.s.reprByte(c, was, closed, a.lim.MaxRepr) || (a.vals != nil && !a.valByte(c, closed)) {
			return false
		}
		if closed {
			a.phase = phFrame
		}
	default:
		return false
	}
	return true
}

// strByte feeds byte c of a canonical JSON string's content (the string is open) and
// reports whether it closed the string. Past max content bytes only the closing
// quote (or the rest of an escape) is allowed.
func (a *Automaton) strByte(c byte, max int) (closed, ok bool) {
	s := &a.s
	switch {
	case s.esc == 1:
		switch c {
		case '"', '\\', 'n', 'r', 't', 'b', 'f':
			if s.needLow {
				return false, false
			}
			s.esc = 0
		case 'u':
			s.esc, s.hex = 2, 0
		default:
			return false, false
		}
	case s.esc >= 2:
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = rune(c - '0')
		case c >= 'a' && c <= 'f':
			d = rune(c-'a') + 10
		default:
			return false, false
		}
		s.hex = s.hex<<4 | d
		k := int(s.esc - 1) // digits read
		shift := uint(4 * (4 - k))
		lo, hi := s.hex<<shift, (s.hex+1)<<shift-1
		if !hexViable(lo, hi, s.needLow) {
			return false, false
		}
		if k < 4 {
			s.esc++
			break
		}
		s.esc = 0
		switch {
		case s.needLow:
			s.needLow = false
		case s.hex >= 0xd800 && s.hex < 0xdc00:
			s.needLow = true
		}
	case s.needLow:
		if c != '\\' {
			return false, false
		}
		s.esc = 1
	case c == '"':
		return true, true
	case s.n >= max:
		return false, false
	case c == '\\':
		s.esc, s.escStart = 1, a.n
	case c < 0x20 || c >= 0x7f:
		return false, false
	}
	s.n++
	return false, true
}

// hexViable reports whether some \u value in [lo, hi] is canonical: not a character
// written as itself or with a named escape, and a low surrogate exactly when one is
// needed after a high one.
func hexViable(lo, hi rune, needLow bool) bool {
	if needLow {
		return hi >= 0xdc00 && lo <= 0xdfff
	}
	for _, r := range [][2]rune{{0, 7}, {0xb, 0xb}, {0xe, 0x1f}, {0x7f, 0xdbff}, {0xe000, 0xffff}} {
		if hi >= r[0] && lo <= r[1] {
			return true
		}
	}
	return false
}
