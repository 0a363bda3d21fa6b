package synth

import (
	"slices"
	"strconv"
	"strings"
)

// Normalize returns a canonical form of Python source, used both to count distinct
// generated programs and, by package decontam, to compare generated code with
// evaluation problems. Two sources that differ only in layout map to the same text.
//
// The rules, applied by a small lexer that knows Python's string literals:
//
//   - Comments are dropped, and so are lines left blank.
//   - Physical lines are joined into logical lines: inside brackets and after a
//     backslash continuation.
//   - Indentation is replaced by its nesting level, written as four spaces per level
//     (tabs advance to the next multiple of eight, as in Python's tokenizer).
//   - Whitespace between tokens is dropped, except one space between two tokens that
//     would otherwise merge (a name, keyword or number next to another one, or two
//     adjacent string literals), so "x = a+b" and "x=a + b" agree.
//   - A one-line string literal without a prefix, quotes or backslashes inside is
//     written with single quotes, so "abc" and 'abc' agree. Other literals (prefixed,
//     triple-quoted, or containing quotes or escapes) are kept byte for byte.
//   - Line endings become "\n"; there is no trailing newline.
//
// Identifiers are not renamed (see NormalizeNames for that). Normalize never fails;
// unterminated strings or brackets are kept as they are. It is idempotent.
func Normalize(source string) string {
	n := normalizer{src: strings.ReplaceAll(strings.ReplaceAll(source, "\r\n", "\n"), "\r", "\n")}
	n.run()
	return strings.Join(n.lines, "\n")
}

// NormalizeNames is Normalize that also renames identifiers canonically: every name
// that is not a keyword, a built-in or an attribute (a name right after ".") becomes
// _0, _1, ... in order of first appearance. Sources that differ only in layout and in
// the names of their variables, parameters and functions then agree; constants,
// attribute and method names, and the shape of the code must still match. It is the
// structural comparison of package decontam.
func NormalizeNames(source string) string {
	n := normalizer{src: strings.ReplaceAll(strings.ReplaceAll(source, "\r\n", "\n"), "\r", "\n"), rename: true}
	n.run()
	return strings.Join(n.lines, "\n")
}

type normalizer struct {
	src    string
	pos    int
	lines  []string // finished logical lines
	cur    strings.Builder
	indent []int    // stack of indentation widths, bottom 0
	depth  int      // bracket depth
	last   byte     // last byte written to cur on this logical line (0 when none)
	rename bool     // rename identifiers (NormalizeNames)
	names  []string // identifiers renamed so far; the i-th becomes _i
}

func (n *normalizer) run() {
	n.indent = []int{0}
	for n.pos < len(n.src) {
		n.logicalLine()
	}
}

// logicalLine reads one logical line starting at the beginning of a physical line.
func (n *normalizer) logicalLine() {
	width := 0
	for n.pos < len(n.src) {
		c := n.src[n.pos]
		if c == ' ' {
			width++
		} else if c == '\t' {
			width = (width/8 + 1) * 8
		} else if c == '\f' {
			width = 0
		} else {
			break
		}
		n.pos++
	}
	n.cur.Reset()
	n.last = 0
	n.depth = 0
	for n.pos < len(n.src) {
		c := n.src[n.pos]
		switch {
		case c == '\n':
			n.pos++
			if n.depth > 0 {
				continue
			}
			n.finish(width)
			return
		case c == '\\' && n.continuation():
			for n.pos < len(n.src) && n.src[n.pos] != '\n' {
				n.pos++
			}
			n.pos++
		case c == '\\':
			n.pos++ // a stray backslash (invalid Python) is dropped
		case c == ' ' || c == '\t' || c == '\f':
			n.pos++
		case c == '#':
			for n.pos < len(n.src) && n.src[n.pos] != '\n' {
				n.pos++
			}
		case c == '\'' || c == '"':
			n.str(n.pos, n.pos)
		case isWordByte(c):
			start := n.pos
			for n.pos < len(n.src) && isWordByte(n.src[n.pos]) {
				n.pos++
			}
			// A short run of letters right before a quote is a string prefix.
			if n.pos < len(n.src) && (n.src[n.pos] == '\'' || n.src[n.pos] == '"') && isStringPrefix(n.src[start:n.pos]) {
				n.str(start, n.pos)
				continue
			}
			n.emit(n.word(n.src[start:n.pos]))
		default:
			if c == '(' || c == '[' || c == '{' {
				n.depth++
			} else if (c == ')' || c == ']' || c == '}') && n.depth > 0 {
				n.depth--
			}
			n.pos++
			n.emit(string(c))
		}
	}
	n.finish(width)
}

// word returns the canonical form of a name, keyword or number token.
func (n *normalizer) word(w string) string {
	if !n.rename || w[0] >= '0' && w[0] <= '9' || n.last == '.' || slices.Contains(pythonNames, w) {
		return w
	}
	i := slices.Index(n.names, w)
	if i < 0 {
		i = len(n.names)
		n.names = append(n.names, w)
	}
	return "_" + strconv.Itoa(i)
}

// continuation reports whether the backslash at pos ends its line (blanks and a
// comment after it are tolerated).
func (n *normalizer) continuation() bool {
	for i := n.pos + 1; i < len(n.src); i++ {
		switch n.src[i] {
		case ' ', '\t', '\f':
		case '\n', '#':
			return true
		default:
			return false
		}
	}
	return true
}

// str copies the string literal whose prefix starts at start and whose opening quote is
// at q, and advances past it.
func (n *normalizer) str(start, q int) {
	quote := n.src[q]
	triple := strings.HasPrefix(n.src[q:], strings.Repeat(string(quote), 3))
	i := q + 1
	if triple {
		i = q + 3
	}
	closed := false
	for i < len(n.src) {
		c := n.src[i]
		if c == '\\' {
			i += 2
			continue
		}
		if !triple && c == '\n' {
			break
		}
		if c == quote {
			if !triple {
				i++
				closed = true
				break
			}
			if strings.HasPrefix(n.src[i:], strings.Repeat(string(quote), 3)) {
				i += 3
				closed = true
				break
			}
		}
		i++
	}
	if i > len(n.src) {
		i = len(n.src)
	}
	lit := n.src[start:i]
	n.pos = i
	if !closed {
		n.depth = 0 // an unterminated string ends its logical line
	}
	if closed && !triple && start == q {
		body := lit[1 : len(lit)-1]
		if !strings.ContainsAny(body, "'\"\\") {
			lit = "'" + body + "'"
		}
	}
	n.emit(lit)
}

// emit appends a token, with a space only where two tokens would merge.
func (n *normalizer) emit(tok string) {
	if tok == "" {
		return
	}
	if n.last != 0 && (isWordByte(n.last) && isWordByte(tok[0]) || isQuote(n.last) && isQuote(tok[0])) {
		n.cur.WriteByte(' ')
	}
	n.cur.WriteString(tok)
	n.last = tok[len(tok)-1]
}

// finish closes the logical line; blank lines leave no trace and do not change the
// indentation.
func (n *normalizer) finish(width int) {
	if n.cur.Len() == 0 {
		return
	}
	for len(n.indent) > 1 && width < n.indent[len(n.indent)-1] {
		n.indent = n.indent[:len(n.indent)-1]
	}
	if width > n.indent[len(n.indent)-1] {
		n.indent = append(n.indent, width)
	}
	level := len(n.indent) - 1
	n.lines = append(n.lines, strings.Repeat("    ", level)+n.cur.String())
	n.cur.Reset()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isQuote(c byte) bool { return c == '\'' || c == '"' }

func isStringPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// pythonNames are the keywords and built-in names NormalizeNames keeps.
var pythonNames = []string{
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
	"if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
	"try", "while", "with", "yield", "match", "case",
	"abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr",
	"classmethod", "complex", "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter",
	"float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "hex", "id",
	"input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max",
	"min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr",
	"reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum",
	"super", "tuple", "type", "vars", "zip", "self", "Exception", "BaseException",
	"ArithmeticError", "AssertionError", "AttributeError", "IndexError", "KeyError",
	"LookupError", "NameError", "NotImplementedError", "OverflowError", "RecursionError",
	"RuntimeError", "StopIteration", "TypeError", "ValueError", "ZeroDivisionError",
}
