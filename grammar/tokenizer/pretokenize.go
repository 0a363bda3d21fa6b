package tokenizer

import (
	"unicode"
	"unicode/utf8"
)

// Pattern is the pre-tokenization regex of a trained Tokenizer, in the syntax of
// Oniguruma (which Hugging Face's tokenizers library uses). Text between special tokens
// is cut into the successive leftmost matches of this pattern, and BPE merges never
// cross a cut. The package does not use a regex engine: a hand-written matcher
// implements exactly this pattern (tests compare it with Python's regex module when that
// is installed).
//
// The alternatives, tried in order at each position:
//
//	[^\r\n\p{L}\p{N}_]?[\p{L}_][\p{L}\p{N}_]*
//		an identifier or word, with at most one non-word character before it:
//		" count", ".append", "(x", "_tmp"
//	 *\p{N}{1,3}\|?
//		1 to 3 digits, with the spaces before them and a '|' after them: the line
//		prefix "  5|" of CONTEXT and SRC lines is one pre-token; " 12", "123"
//	 ?[^\s\p{L}\p{N}_]+
//		a run of punctuation, with at most one space before it: `":`, ` "'`, ` +=`
//	\s*[\r\n]+
//		whitespace up to the last line break of a run (line breaks stay apart from the
//		indentation that follows)
//	\s+(?!\S)
//		whitespace but its last character, which goes to the next word: indentation
//		after "  5|" becomes 4k spaces and " word", so runs of 4k spaces merge well
//	\s+
//		any other whitespace
//
// Unlike GPT-2's pattern (GPT2Pattern) it has no English contractions (they would cut
// Python reprs like 's'), '_' and digits belong to identifiers, and digits come in
// groups of at most three. Every character is matched by some alternative, so the
// matches cover the text.
const Pattern = `[^\r\n\p{L}\p{N}_]?[\p{L}_][\p{L}\p{N}_]*| *\p{N}{1,3}\|?| ?[^\s\p{L}\p{N}_]+|\s*[\r\n]+|\s+(?!\S)|\s+`

// GPT2Pattern is GPT-2's pre-tokenization regex, the one of Hugging Face's ByteLevel
// pre-tokenizer with use_regex true. Load accepts tokenizer files that use it.
const GPT2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// splitKind selects a pre-tokenizer.
type splitKind uint8

const (
	splitNDB  splitKind = iota // Pattern
	splitGPT2                  // GPT2Pattern
	splitNone                  // no pre-tokenization: a whole segment is one piece
)

// char classes of the patterns.
const (
	clsOther  = iota // anything else: punctuation, symbols, controls, invalid UTF-8
	clsLetter        // \p{L}
	clsNumber        // \p{N}
	clsSpace         // \s (Unicode White_Space)
	clsUnder         // '_'
)

// asciiClass holds the class of every ASCII byte.
var asciiClass [utf8.RuneSelf]uint8

func init() {
	for b := range utf8.RuneSelf {
		asciiClass[b] = classOf(rune(b))
	}
}

func classOf(r rune) uint8 {
	switch {
	case r == '_':
		return clsUnder
	case unicode.IsLetter(r):
		return clsLetter
	case unicode.IsNumber(r):
		return clsNumber
	case unicode.IsSpace(r):
		return clsSpace
	}
	return clsOther
}

// charAt returns the class and byte width of the character at s[i]; an invalid UTF-8
// byte is a character of class clsOther and width 1 (as U+FFFD would be).
func charAt(s string, i int) (cls uint8, w int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classOf(r), w
}

// classAt is charAt with a class of -1 past the end of s.
func classAt(s string, i int) (cls int, w int) {
	if i >= len(s) {
		return -1, 0
	}
	c, w := charAt(s, i)
	return int(c), w
}

func isNewline(c byte) bool { return c == '\n' || c == '\r' }

// split calls yield with every piece of s in order; the pieces concatenate to s.
func (k splitKind) split(s string, yield func(piece string)) {
	if k == splitNone {
		if s != "" {
			yield(s)
		}
		return
	}
	next := nextNDB
	if k == splitGPT2 {
		next = nextGPT2
	}
	for i := 0; i < len(s); {
		j := next(s, i)
		yield(s[i:j])
		i = j
	}
}

// wordRun returns the end of the run of word characters (letters, digits, '_') at i.
func wordRun(s string, i int) int {
	for i < len(s) {
		c, w := charAt(s, i)
		if c != clsLetter && c != clsNumber && c != clsUnder {
			break
		}
		i += w
	}
	return i
}

// run returns the end of the run of characters of class cls at i.
func run(s string, i int, cls uint8) int {
	for i < len(s) {
		c, w := charAt(s, i)
		if c != cls {
			break
		}
		i += w
	}
	return i
}

// spaceTail returns the end of the match of the last three alternatives of both
// patterns at i, where a whitespace run starts: up to its last line break (only when
// newlines is set), else the run less its last character when a non-space follows and
// the run has more than one character, else the whole run.
func spaceTail(s string, i int, newlines bool) int {
	end, last, lastNL := i, i, -1
	for end < len(s) {
		c, w := charAt(s, end)
		if c != clsSpace {
			break
		}
		if w == 1 && isNewline(s[end]) {
			lastNL = end + 1
		}
		last = end
		end += w
	}
	switch {
	case newlines && lastNL >= 0:
		return lastNL
	case end < len(s) && last > i:
		return last
	}
	return end
}

// nextNDB returns the end of the match of Pattern at i < len(s).
func nextNDB(s string, i int) int {
	c0, w0 := charAt(s, i)
	// [^\r\n\p{L}\p{N}_]?[\p{L}_][\p{L}\p{N}_]*
	if c0 == clsLetter || c0 == clsUnder {
		return wordRun(s, i+w0)
	}
	if c0 != clsNumber && !isNewline(s[i]) {
		if c1, w1 := classAt(s, i+w0); c1 == clsLetter || c1 == clsUnder {
			return wordRun(s, i+w0+w1)
		}
	}
	// ' *\p{N}{1,3}\|?'
	j := i
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if c, _ := classAt(s, j); c == clsNumber {
		for n := 0; n < 3; n++ {
			c, w := classAt(s, j)
			if c != clsNumber {
				break
			}
			j += w
		}
		if j < len(s) && s[j] == '|' {
			j++
		}
		return j
	}
	// ' ?[^\s\p{L}\p{N}_]+'
	if c0 == clsOther {
		return run(s, i+w0, clsOther)
	}
	if s[i] == ' ' {
		if c1, w1 := classAt(s, i+1); c1 == clsOther {
			return run(s, i+1+w1, clsOther)
		}
	}
	// \s*[\r\n]+ | \s+(?!\S) | \s+ (c0 is a space here)
	return spaceTail(s, i, true)
}

// contractions of GPT2Pattern, in its order.
var contractions = []string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"}

// nextGPT2 returns the end of the match of GPT2Pattern at i < len(s).
func nextGPT2(s string, i int) int {
	if s[i] == '\'' {
		for _, c := range contractions {
			if len(s)-i >= len(c) && s[i:i+len(c)] == c {
				return i + len(c)
			}
		}
	}
	// ' ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+' ('_' is punctuation here)
	start := i
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := charAt(s, i+1); c1 != clsSpace {
			start = i + 1
		}
	}
	switch c, _ := charAt(s, start); c {
	case clsLetter:
		return run(s, start, clsLetter)
	case clsNumber:
		return run(s, start, clsNumber)
	case clsOther, clsUnder:
		return runOtherGPT2(s, start)
	}
	// \s+(?!\S) | \s+
	return spaceTail(s, i, false)
}

// runOtherGPT2 returns the end of the run of GPT-2 punctuation (clsOther or '_') at i.
func runOtherGPT2(s string, i int) int {
	for i < len(s) {
		c, w := charAt(s, i)
		if c != clsOther && c != clsUnder {
			break
		}
		i += w
	}
	return i
}
