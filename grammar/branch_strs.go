package grammar

import (
	"strings"
	"unicode/utf8"
)

// More str methods of the evaluator (branch_methods.go has the first ones): padding,
// prefixes and ASCII case changes. Each answers only where Python's result is
// certain; case changes only for ASCII strings, whose rules are simple.

// maxPad bounds the width a padding method may ask for.
const maxPad = 10000

// strMethodMore calls one of these methods of str s; known is false for the others.
func strMethodMore(s, name string, args []pyVal) (v pyVal, ok, known bool) {
	switch name {
	case "isascii":
		return pyBoolVal(isASCII(s)), len(args) == 0, true
	case "removeprefix", "removesuffix":
		if len(args) != 1 || args[0].kind != pyStr {
			return pyVal{}, false, true
		}
		if name == "removeprefix" {
			return strOf(strings.TrimPrefix(s, args[0].s)), true, true
		}
		return strOf(strings.TrimSuffix(s, args[0].s)), true, true
	case "ljust", "rjust", "center", "zfill":
		out, ok := pad(s, name, args)
		return strOf(out), ok, true
	case "find", "index", "count", "rfind":
		if name != "rfind" && len(args) != 2 {
			return pyVal{}, false, false // the one-argument forms: strMethod
		}
		return search(s, name, args)
	case "capitalize", "swapcase", "title":
		if len(args) != 0 || !isASCII(s) {
			return pyVal{}, false, true
		}
		return strOf(asciiCase(s, name)), true, true
	}
	return pyVal{}, false, false
}

// pad is s.ljust, rjust, center (width[, fillchar]) or zfill(width).
func pad(s, name string, args []pyVal) (string, bool) {
	if len(args) < 1 || len(args) > 2 || !args[0].numeric() || name == "zfill" && len(args) != 1 {
		return "", false
	}
	fill := " "
	if len(args) == 2 {
		if args[1].kind != pyStr || utf8.RuneCountInString(args[1].s) != 1 {
			return "", false // TypeError: the fill character must be exactly one character
		}
		fill = args[1].s
	}
	width, n := args[0].i, int64(utf8.RuneCountInString(s))
	if width > maxPad {
		return "", false
	}
	if n >= width {
		return s, true
	}
	marg := width - n
	switch name {
	case "ljust":
		return s + strings.Repeat(fill, int(marg)), true
	case "rjust":
		return strings.Repeat(fill, int(marg)) + s, true
	case "center":
		left := marg/2 + (marg & width & 1) // CPython's rounding
		return strings.Repeat(fill, int(left)) + s + strings.Repeat(fill, int(marg-left)), true
	}
	// zfill: the zeros go after a leading sign.
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[:1] + strings.Repeat("0", int(marg)) + s[1:], true
	}
	return strings.Repeat("0", int(marg)) + s, true
}

// asciiCase is capitalize, swapcase or title of ASCII s.
func asciiCase(s, name string) string {
	b := []byte(s)
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	flip := func(c byte) byte { return c ^ 0x20 }
	prevCased := false
	for i, c := range b {
		switch name {
		case "capitalize":
			if i == 0 && isLower(c) || i > 0 && isUpper(c) {
				b[i] = flip(c)
			}
		case "swapcase":
			if isLower(c) || isUpper(c) {
				b[i] = flip(c)
			}
		case "title":
			cased := isLower(c) || isUpper(c)
			if cased && (prevCased && isUpper(c) || !prevCased && isLower(c)) {
				b[i] = flip(c)
			}
			prevCased = cased
		}
	}
	return string(b)
}

// search is s.find, s.index, s.rfind or s.count of sub from start (args: sub[,
// start]), in code points as Python counts them.
func search(s, name string, args []pyVal) (v pyVal, ok, known bool) {
	if len(args) < 1 || len(args) > 2 || args[0].kind != pyStr {
		return pyVal{}, false, true
	}
	rs := []rune(s)
	start := int64(0)
	if len(args) == 2 {
		if !args[1].numeric() {
			return pyVal{}, false, true // TypeError (or None: left to the model)
		}
		start = args[1].i
		if start < 0 {
			start = max(start+int64(len(rs)), 0)
		}
	}
	missing := func() (pyVal, bool, bool) {
		switch name {
		case "index":
			return pyVal{}, false, true // ValueError
		case "count":
			return intOf(0), true, true
		}
		return intOf(-1), true, true
	}
	if start > int64(len(rs)) {
		return missing()
	}
	rest, sub := string(rs[start:]), args[0].s
	var i int
	switch name {
	case "count":
		return intOf(strings.Count(rest, sub)), true, true
	case "rfind":
		i = strings.LastIndex(rest, sub)
	default:
		i = strings.Index(rest, sub)
	}
	if i < 0 {
		return missing()
	}
	return intOf(int(start) + utf8.RuneCountInString(rest[:i])), true, true
}
