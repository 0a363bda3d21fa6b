package grammar

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// DiffMarkerKey is the key (and value) of the diff marker entry `"..": ".."` that a
// diff-form locals object ends with when unchanged variables were left out. No Python
// variable can be called "..", so the encoder rejects a variable of that name.
const DiffMarkerKey = ".."

// diffMarkerEntry is the marker entry as written.
const diffMarkerEntry = `"..": ".."`

const hexDigits = "0123456789abcdef"

// AppendQuoteJSON appends s as a JSON string in the canonical form: exactly what
// Python's json.dumps(s) writes with default settings (ensure_ascii=True). `"` and `\`
// are escaped as \" and \\; \n \r \t \b \f by name; every other byte below 0x20 and DEL
// (0x7f) as \u00XX; every non-ASCII character as \uXXXX, with a surrogate pair for
// characters above U+FFFF; hex digits are lower-case; "/" is not escaped and there is
// no HTML escaping ("<", ">", "&" stay as they are).
//
// Decision: a byte that is not part of valid UTF-8 is written as \ufffd (one per
// byte, as Go's range loop reads it), so such a repr does not survive a round trip
// exactly; Python reprs are always valid text, so this arises only from corrupted input.
func AppendQuoteJSON(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		if c < utf8.RuneSelf {
			dst = appendEscape(dst, rune(c))
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			dst = appendEscape(dst, r)
			i += size
		}
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEscape appends the canonical escape of a character that is not written as
// itself.
func appendEscape(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	if r > 0xffff {
		r -= 0x10000
		dst = appendU(dst, 0xd800+(r>>10))
		return appendU(dst, 0xdc00+(r&0x3ff))
	}
	return appendU(dst, r)
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// QuoteJSON returns s as a canonical JSON string (see AppendQuoteJSON). It is the
// VALUE of return and exception states, and every key and value of LOCALS.
func QuoteJSON(s string) string { return string(AppendQuoteJSON(nil, s)) }

// UnquoteJSON parses a whole canonical JSON string (the exact output of QuoteJSON) and
// returns its value; anything else is a *DecodeError.
func UnquoteJSON(s string) (string, error) {
	v, n, err := parseJSONString(s, 0)
	if err != nil {
		return "", err
	}
	if n != len(s) {
		return "", errAt(s, n, "end of text")
	}
	return v, nil
}

// AppendLocals appends the canonical locals object: `{"name": "repr", ...}` with keys in
// the given order (json.dumps of a dict of strings), followed by the diff marker entry
// `"..": ".."` when marker is set (decision: the marker is always the last entry). It
// fails on a variable named ".." or two variables of the same name.
func AppendLocals(dst []byte, l Locals, marker bool) ([]byte, error) {
	if err := checkNames(l); err != nil {
		return dst, err
	}
	dst = append(dst, '{')
	for i, v := range l {
		if i > 0 {
			dst = append(dst, ',', ' ')
		}
		dst = AppendQuoteJSON(dst, v.Name)
		dst = append(dst, ':', ' ')
		dst = AppendQuoteJSON(dst, v.Repr)
	}
	if marker {
		if len(l) > 0 {
			dst = append(dst, ',', ' ')
		}
		dst = append(dst, diffMarkerEntry...)
	}
	return append(dst, '}'), nil
}

// EncodeLocals returns the canonical locals object of l (full form, no marker).
func EncodeLocals(l Locals) (string, error) {
	b, err := AppendLocals(nil, l, false)
	return string(b), err
}

// checkNames rejects names the locals object cannot hold.
func checkNames(l Locals) error {
	var seen map[string]bool
	if len(l) > 16 {
		seen = make(map[string]bool, len(l))
	}
	for i, v := range l {
		if v.Name == DiffMarkerKey {
			return fmt.Errorf("grammar: a variable may not be named %q (the diff marker)", DiffMarkerKey)
		}
		dup := false
		if seen != nil {
			dup = seen[v.Name]
			seen[v.Name] = true
		} else {
			for _, w := range l[:i] {
				if w.Name == v.Name {
					dup = true
					break
				}
			}
		}
		if dup {
			return fmt.Errorf("grammar: variable %q appears twice in the locals", v.Name)
		}
	}
	return nil
}

// ParseLocals parses a whole canonical locals object (the exact output of AppendLocals)
// and reports whether it ended with the diff marker; anything else is a *DecodeError.
func ParseLocals(s string) (l Locals, marker bool, err error) {
	l, marker, n, derr := parseLocals(s, 0)
	if derr != nil {
		return nil, false, derr
	}
	if n != len(s) {
		return nil, false, errAt(s, n, "end of text")
	}
	return l, marker, nil
}

// parseLocals parses a canonical locals object at text[off:] and returns the variables
// (never nil), whether the diff marker ended it, and the offset after the object.
// Besides the byte form it rejects a repeated name, a ".." key with another value than
// "..", and anything after the marker.
func parseLocals(text string, off int) (Locals, bool, int, *DecodeError) {
	if off >= len(text) || text[off] != '{' {
		return nil, false, off, errAt(text, off, `"{"`)
	}
	i := off + 1
	l := Locals{}
	// seen holds the names once there are more than a few: the duplicate check was a
	// scan of l, quadratic in the number of variables (a generated object with tens
	// of thousands of them stalled FuzzDecodeNext; fuzzwatch).
	var seen map[string]struct{}
	if i < len(text) && text[i] == '}' {
		return l, false, i + 1, nil
	}
	for {
		keyOff := i
		name, j, err := parseJSONString(text, i)
		if err != nil {
			if i >= len(text) || text[i] != '"' {
				err.Expected = `a variable name (JSON string)`
			}
			return nil, false, i, err
		}
		i = j
		if !hasPrefixAt(text, i, ": ") {
			return nil, false, i, errAt(text, i, `": "`)
		}
		i += 2
		valOff := i
		repr, j, err := parseJSONString(text, i)
		if err != nil {
			if i >= len(text) || text[i] != '"' {
				err.Expected = `a repr (JSON string)`
			}
			return nil, false, i, err
		}
		i = j
		if name == DiffMarkerKey {
			if repr != DiffMarkerKey {
				return nil, false, valOff, errAt(text, valOff, `"\"..\"" (the diff marker)`)
			}
			if i >= len(text) || text[i] != '}' {
				return nil, false, i, errAt(text, i, `"}" (the diff marker is the last entry)`)
			}
			return l, true, i + 1, nil
		}
		if duplicateName(l, seen, name) {
			return nil, false, keyOff, errAt(text, keyOff, "a variable not already in the object")
		}
		l = append(l, Var{Name: name, Repr: repr})
		if seen != nil {
			seen[name] = struct{}{}
		} else if len(l) > 16 {
			seen = make(map[string]struct{}, 2*len(l))
			for _, v := range l {
				seen[v.Name] = struct{}{}
			}
		}
		if i < len(text) && text[i] == '}' {
			return l, false, i + 1, nil
		}
		if !hasPrefixAt(text, i, ", ") {
			return nil, false, i, errAt(text, i, `", " or "}"`)
		}
		i += 2
	}
}

// duplicateName reports whether name is in l: a scan while l is short, the set
// seen once it is not.
func duplicateName(l Locals, seen map[string]struct{}, name string) bool {
	if seen != nil {
		_, ok := seen[name]
		return ok
	}
	for _, v := range l {
		if v.Name == name {
			return true
		}
	}
	return false
}

func hasPrefixAt(text string, off int, p string) bool {
	return len(text)-off >= len(p) && text[off:off+len(p)] == p
}

// parseJSONString parses a canonical JSON string at text[off:] and returns its value
// and the offset after the closing quote. Only the exact bytes AppendQuoteJSON writes
// are accepted: an escape where the character is written as itself, an upper-case hex
// digit, \/ or \u escapes of characters with a named escape, raw control or non-ASCII
// bytes, and unpaired surrogates are errors naming the canonical form expected.
func parseJSONString(text string, off int) (string, int, *DecodeError) {
	if off >= len(text) || text[off] != '"' {
		return "", off, errAt(text, off, `"\"" (a JSON string)`)
	}
	start := off + 1
	i := start
	// Fast path: no escapes.
	for i < len(text) {
		c := text[i]
		if c == '"' {
			return text[start:i], i + 1, nil
		}
		if c == '\\' || c < 0x20 || c >= 0x7f {
			break
		}
		i++
	}
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, text[start:i]...)
	for {
		if i >= len(text) {
			return "", i, errAt(text, i, `"\"" (end of the JSON string)`)
		}
		c := text[i]
		switch {
		case c == '"':
			return string(buf), i + 1, nil
		case c == '\\':
			r, n, err := parseEscape(text, i)
			if err != nil {
				return "", err.Offset, err
			}
			buf = utf8.AppendRune(buf, r)
			i += n
		case c < 0x20 || c >= 0x7f:
			r, _ := utf8.DecodeRuneInString(text[i:])
			return "", i, errAt(text, i, strconv.Quote(string(appendEscape(nil, r)))+" (an escape)")
		default:
			buf = append(buf, c)
			i++
		}
	}
}

// parseEscape parses the canonical escape at text[off:] (text[off] is '\\') and returns
// the character and the escape's length.
func parseEscape(text string, off int) (rune, int, *DecodeError) {
	if off+1 >= len(text) {
		return 0, 0, errAt(text, off+1, `an escape character`)
	}
	switch text[off+1] {
	case '"':
		return '"', 2, nil
	case '\\':
		return '\\', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'u':
	default:
		return 0, 0, errAt(text, off, `one of "\\\"", "\\\\", "\\n", "\\r", "\\t", "\\b", "\\f", "\\u"`)
	}
	r, err := parseHex4(text, off)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case r >= 0xd800 && r < 0xdc00:
		if !hasPrefixAt(text, off+6, `\u`) {
			return 0, 0, errAt(text, off+6, `"\\u" (the low half of a surrogate pair)`)
		}
		lo, err := parseHex4(text, off+6)
		if err != nil {
			return 0, 0, err
		}
		if lo < 0xdc00 || lo >= 0xe000 {
			return 0, 0, errAt(text, off+6, `a low surrogate "\\udc00".."\\udfff"`)
		}
		return 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00), 12, nil
	case r >= 0xdc00 && r < 0xe000:
		return 0, 0, errAt(text, off, `a character (a low surrogate needs a high one before it)`)
	case (r >= 0x20 && r < 0x7f) || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		want := string(appendEscape(nil, r))
		if r >= 0x20 && r < 0x7f && r != '"' && r != '\\' {
			want = string(r)
		}
		return 0, 0, errAt(text, off, strconv.Quote(want)+" (canonical form)")
	}
	return r, 6, nil
}

// parseHex4 parses the four lower-case hex digits of the \u escape at text[off:].
func parseHex4(text string, off int) (rune, *DecodeError) {
	var r rune
	for k := 0; k < 4; k++ {
		p := off + 2 + k
		if p >= len(text) {
			return 0, errAt(text, p, "a lower-case hex digit")
		}
		c := text[p]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		default:
			return 0, errAt(text, p, "a lower-case hex digit")
		}
	}
	return r, nil
}
