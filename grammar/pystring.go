package grammar

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// PyStringValue decodes a Python str literal written with single or double quotes
// (no prefix, no triple quotes), with the escapes Python's repr uses. ok is false for
// anything else, and for a lone surrogate (Go has no string for it, and U+FFFD in
// its place would make different strings equal).
func PyStringValue(lit string) (string, bool) {
	if len(lit) < 2 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] {
		return "", false
	}
	q := lit[0]
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == q {
			return "", false // an unescaped quote inside
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", false
		}
		switch e := body[i]; e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+width > len(body) {
				return "", false
			}
			r, err := strconv.ParseUint(body[i+1:i+1+width], 16, 32)
			if err != nil || r > utf8.MaxRune || r >= 0xd800 && r < 0xe000 {
				return "", false // a lone surrogate has no Go string: unknown, not U+FFFD
			}
			b.WriteRune(rune(r))
			i += width
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

// PyStringRepr writes s the way Python's repr writes a str: single quotes unless s
// holds a single quote and no double quote; \\, \n, \r, \t and other control
// characters escaped.
func PyStringRepr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + strconv.FormatInt(int64(r)|0x100, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
