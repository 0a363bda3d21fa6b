package grammar

// A value's JSON string holds a Python repr. reprLex reads the repr's characters
// (the JSON escapes already undone) and keeps what makes a repr well formed: it starts
// the way a repr can start, its quotes close and its brackets balance. The tracer
// cuts a long repr and marks the cut with "...", so a repr ending in three dots may
// leave anything open; so may one that fills the string's budget (Limits.MaxRepr).
// Nothing else is checked: an object's own __repr__ is free text between balanced
// brackets.
type reprLex struct {
	started bool
	quote   byte  // the open string literal's quote, 0 outside one
	pyEsc   bool  // a backslash inside a string literal: the next character is taken
	lost    bool  // brackets nested deeper than the stack: no longer checked
	free    bool  // an object's text (<...>, a non-ASCII start): no end is checked
	word    bool  // in the name a repr starts with (None, Point, datetime.date, b)
	ended   bool  // the outermost quote or bracket has closed: only a cut mark may follow
	words   uint8 // reprWords that the name is still a prefix of, one bit each
	wlen    uint8 // the name's length so far (at most 255)
	dots    uint8
	depth   uint8
	stack   [reprMaxDepth]byte // the closing brackets expected, innermost last
}

// reprWords are the names that are a whole repr, and the bytes literal's prefix b
// (reprBytesPrefix), which a quote follows. Any other name must call: Point(x=1).
var reprWords = [...]string{"None", "True", "False", "inf", "nan", "Ellipsis", "NotImplemented", "b"}

// reprBytesPrefix is the bit of "b" in reprWords.
const reprBytesPrefix = 1 << (len(reprWords) - 1)

// reprMaxDepth is how deep reprLex follows brackets.
const reprMaxDepth = 24

// reprGeneric stands for a character that is neither a quote nor a bracket nor a
// backslash (an escaped control character, a \u character): like a non-ASCII one.
const reprGeneric = 0x80

// reprStart reports whether a repr can start with character c: a number or a sign, a
// string, a container, an object or a name (None, True, inf, Point(...), set()).
func reprStart(c byte) bool {
	switch {
	case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= 0x80:
		return true
	}
	switch c {
	case '-', '_', '\'', '"', '[', '(', '{', '<':
		return true
	}
	return false
}

// IsReprNeutral reports whether byte c stands for itself in a value's JSON string and
// leaves a started repr's quotes and brackets as they were: the bytes that the
// decoder's fast mask may take without asking the automaton.
func IsReprNeutral(c byte) bool {
	if !IsPlain(c) {
		return false
	}
	switch c {
	case '\'', '[', ']', '(', ')', '{', '}':
		return false
	}
	return true
}

// char reads the repr's next character c and reports whether the repr can go on.
func (r *reprLex) char(c byte) bool {
	if !r.started {
		if !reprStart(c) {
			return false
		}
		r.started = true
		r.free = c == '<' || c >= 0x80
		if isNameStart(c) {
			r.word, r.words = true, 1<<len(reprWords)-1
		}
	}
	cut := r.dots >= 3
	if c == '.' {
		r.dots = min(r.dots+1, 3)
	} else {
		r.dots = 0
	}
	switch {
	case (r.word || r.ended) && cut:
		return false // a cut mark ends the repr
	case r.word:
		return r.nameChar(c)
	case r.ended:
		return c == '.'
	case r.quote != 0:
		switch {
		case r.pyEsc:
			r.pyEsc = false
		case c == '\\':
			r.pyEsc = true
		case c == r.quote:
			r.quote = 0
			r.end()
		}
	case c == '\'' || c == '"':
		r.quote = c
	case c == '[' || c == '(' || c == '{':
		r.open(c)
	case c == ']' || c == ')' || c == '}':
		if r.lost {
			break
		}
		if r.depth == 0 || r.stack[r.depth-1] != c {
			return false
		}
		r.depth--
		r.end()
	}
	return true
}

// nameChar reads character c of the name that the repr starts with: more of the
// name (dots included: datetime.date, or a cut mark), the call's opening bracket, or
// the quote of a bytes literal.
func (r *reprLex) nameChar(c byte) bool {
	switch {
	case isNameStart(c) || c >= '0' && c <= '9':
		var keep uint8
		for i, w := range reprWords {
			if r.words&(1<<i) != 0 && int(r.wlen) < len(w) && w[r.wlen] == c {
				keep |= 1 << i
			}
		}
		r.words, r.wlen = keep, min(r.wlen+1, 255)
	case c == '.':
		r.words = 0
	case c == '(':
		r.word = false
		r.open(c)
	case (c == '\'' || c == '"') && r.wlen == 1 && r.words&reprBytesPrefix != 0:
		r.word = false
		r.quote = c
	default:
		return false
	}
	return true
}

// isNameStart reports whether c can start a Python name (ASCII only).
func isNameStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// open pushes the bracket that closes opening bracket c.
func (r *reprLex) open(c byte) {
	if r.lost {
		return
	}
	if int(r.depth) == len(r.stack) {
		r.lost = true
		return
	}
	r.stack[r.depth] = closer(c)
	r.depth++
}

// end marks the repr ended when the quote or bracket just closed was the outermost.
func (r *reprLex) end() {
	if !r.free && !r.lost && r.depth == 0 && r.quote == 0 {
		r.ended = true
	}
}

// wholeWord reports whether the name read so far is a whole repr (None, True, inf).
func (r *reprLex) wholeWord() bool {
	for i, w := range reprWords {
		if r.words&(1<<i) != 0 && 1<<i != reprBytesPrefix && int(r.wlen) == len(w) {
			return true
		}
	}
	return false
}

// closer is the bracket that closes opening bracket c.
func closer(c byte) byte {
	switch c {
	case '[':
		return ']'
	case '(':
		return ')'
	}
	return '}'
}

// closes reports whether the repr read so far is a whole one (or a cut one).
func (r *reprLex) closes() bool {
	if !r.started {
		return false
	}
	switch {
	case r.dots >= 3 || r.lost:
		return true
	case r.word:
		return r.wholeWord()
	case r.ended:
		return r.dots == 0
	}
	return r.quote == 0 && r.depth == 0
}

// plain reports whether every repr-neutral byte (IsReprNeutral) may come next: the
// repr has started and is past its name and short of its end.
func (r *reprLex) plain() bool { return r.started && !r.word && !r.ended }

// finish is what a forced close writes before the closing quote, at most room bytes:
// nothing when the repr closes, else the cut mark (or None for an empty repr). A repr
// that fills its budget closes whatever it holds.
func (r *reprLex) finish(room int) string {
	if r.closes() {
		return ""
	}
	s := "..."[r.dots:] // the dots already written begin the mark
	if !r.started {
		s = "None"
	}
	return s[:min(len(s), max(room, 0))]
}

// reprByte feeds value-string byte c to the repr, given the string's state before it
// (was) and whether c closed the string: a plain byte is a character, an escape gives
// its character when it ends, the closing quote asks whether the repr is whole. A
// string at its budget closes whatever it holds.
func (s *jstr) reprByte(c byte, was jstr, closed bool, max int) bool {
	if closed {
		return s.n >= max || s.r.closes()
	}
	switch {
	case was.esc == 0 && !was.needLow && c != '\\':
		return s.r.char(c)
	case was.esc == 1 && s.esc == 0:
		switch c {
		case '"', '\\':
			return s.r.char(c)
		}
		return s.r.char(reprGeneric)
	case was.esc >= 2 && s.esc == 0 && !s.needLow:
		return s.r.char(reprGeneric) // a \u character (the low half of a pair included)
	}
	return true
}

// orNone is v, or None (as much of it as a value may hold) for a forced close that
// must write a value no fact gives: a repr is never empty.
func (a *Automaton) orNone(v string) string {
	if v != "" {
		return v
	}
	return "None"[:min(4, a.lim.MaxRepr)]
}
