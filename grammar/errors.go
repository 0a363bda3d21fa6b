package grammar

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeError reports where and why text does not follow the grammar.
type DecodeError struct {
	// Offset is the byte offset in the decoded text where the problem is.
	Offset int
	// Expected describes what the grammar allows there, e.g. `"<|src_sep|>"` or
	// `a source line of the context`.
	Expected string
	// Found is the text at Offset (a short excerpt; empty at the end of the text).
	Found string
}

// Error formats the error as `offset 57: expected "<|src_sep|>", found "{\"n\""`; the
// end of the text is written as `found end of text`.
func (e *DecodeError) Error() string {
	found := "end of text"
	if e.Found != "" {
		found = strconv.Quote(e.Found)
	}
	return fmt.Sprintf("offset %d: expected %s, found %s", e.Offset, e.Expected, found)
}

// excerptLen is the most bytes of found text a DecodeError shows.
const excerptLen = 24

// excerpt returns the text at off for a DecodeError: a whole special token when one
// starts there, otherwise up to excerptLen bytes, stopping before the next special
// token and never splitting a UTF-8 sequence.
func excerpt(text string, off int) string {
	if off < 0 || off >= len(text) {
		return ""
	}
	s := text[off:]
	if strings.HasPrefix(s, "<|") {
		for _, t := range SpecialTokens {
			if strings.HasPrefix(s, t) {
				return t
			}
		}
	}
	if i := strings.Index(s[min(1, len(s)):], "<|"); i >= 0 && i+1 < excerptLen {
		s = s[:i+1]
	}
	if len(s) > excerptLen {
		n := excerptLen
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			n = excerptLen
		}
		s = s[:n]
	}
	return s
}

// errAt builds a DecodeError at off in text.
func errAt(text string, off int, expected string) *DecodeError {
	return &DecodeError{Offset: off, Expected: expected, Found: excerpt(text, off)}
}

// quoteTokens formats tokens for an Expected field: `"<|a|>"` or
// `one of "<|a|>", "<|b|>"`.
func quoteTokens(toks ...string) string {
	if len(toks) == 1 {
		return strconv.Quote(toks[0])
	}
	var b strings.Builder
	b.WriteString("one of ")
	for i, t := range toks {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(t))
	}
	return b.String()
}
