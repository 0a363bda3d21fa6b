package grammar

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The methods of builtin values the evaluator calls (branch_calls.go has the other
// calls). Each answers only where Python's result is certain: the case and
// whitespace rules of str are Unicode's, so those methods read ASCII strs only.

// pyMethods are the methods the evaluator calls, with the most arguments each takes.
var pyMethods = map[string]int{
	"copy": 0, "upper": 0, "lower": 0, "isdigit": 0, "isalpha": 0, "isalnum": 0, "isupper": 0,
	"islower": 0, "isspace": 0, "strip": 1, "lstrip": 1, "rstrip": 1, "split": 1, "startswith": 1,
	"endswith": 1, "replace": 3, "count": 2, "find": 2, "index": 2, "rfind": 2, "join": 1, "get": 2,
	"items": 0, "keys": 0, "values": 0, "partition": 1, "rpartition": 1,
	"isascii": 0, "removeprefix": 1, "removesuffix": 1, "ljust": 2, "rjust": 2, "center": 2, "zfill": 1,
	"capitalize": 0, "swapcase": 0, "title": 0,
}

// asciiSpace are the ASCII characters str.isspace, str.split and str.strip count as
// whitespace.
const asciiSpace = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func (m pyMethod) eval(env func(string) (string, bool)) (pyVal, bool) {
	x, ok := m.x.eval(env)
	if !ok {
		return x, false
	}
	args := make([]pyVal, len(m.args))
	for i, e := range m.args {
		if args[i], ok = e.eval(env); !ok {
			return pyVal{}, false
		}
	}
	if viewMethods[m.name] {
		return viewItems(x, m.name)
	}
	switch x.kind {
	case pyStr:
		return strMethod(x.s, m.name, args)
	case pyList, pyTuple:
		return seqMethod(x, m.name, args)
	case pyDict:
		return dictMethod(x, m.name, args)
	case pySet:
		if m.name == "copy" && len(args) == 0 {
			return pyVal{kind: pySet, items: slices.Clone(x.items)}, true
		}
	}
	return pyVal{}, false
}

func strOf(s string) pyVal { return pyVal{kind: pyStr, s: s} }
func intOf(i int) pyVal    { return pyVal{kind: pyInt, i: int64(i)} }

// strMethod calls a method of str s.
func strMethod(s, name string, args []pyVal) (pyVal, bool) {
	if v, ok, known := strMethodMore(s, name, args); known {
		return v, ok
	}
	allStr := true
	for _, a := range args {
		allStr = allStr && a.kind == pyStr
	}
	test := func(f func(rune) bool, cased bool) (pyVal, bool) {
		if !isASCII(s) || s == "" {
			return pyBoolVal(false), isASCII(s)
		}
		has := false
		for _, r := range s {
			if !f(r) {
				return pyBoolVal(false), true
			}
			has = has || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		}
		return pyBoolVal(has || !cased), true
	}
	isDigit := func(r rune) bool { return r >= '0' && r <= '9' }
	isLetter := func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
	switch {
	case len(args) == 0 && (name == "upper" || name == "lower"):
		if !isASCII(s) {
			return pyVal{}, false
		}
		if name == "upper" {
			return strOf(strings.ToUpper(s)), true
		}
		return strOf(strings.ToLower(s)), true
	case len(args) == 0 && name == "isdigit":
		return test(isDigit, false)
	case len(args) == 0 && name == "isalpha":
		return test(isLetter, false)
	case len(args) == 0 && name == "isalnum":
		return test(func(r rune) bool { return isDigit(r) || isLetter(r) }, false)
	case len(args) == 0 && name == "isspace":
		return test(func(r rune) bool { return strings.ContainsRune(asciiSpace, r) }, false)
	case len(args) == 0 && name == "isupper":
		return test(func(r rune) bool { return !(r >= 'a' && r <= 'z') }, true)
	case len(args) == 0 && name == "islower":
		return test(func(r rune) bool { return !(r >= 'A' && r <= 'Z') }, true)
	case name == "strip" || name == "lstrip" || name == "rstrip":
		cut := asciiSpace
		if len(args) == 1 {
			if args[0].kind == pyNone {
				args = nil
			} else if args[0].kind != pyStr {
				return pyVal{}, false
			} else {
				cut = args[0].s
			}
		}
		if len(args) == 0 && !isASCII(s) {
			return pyVal{}, false // Unicode whitespace
		}
		switch name {
		case "strip":
			return strOf(strings.Trim(s, cut)), true
		case "lstrip":
			return strOf(strings.TrimLeft(s, cut)), true
		}
		return strOf(strings.TrimRight(s, cut)), true
	case name == "split":
		var parts []string
		switch {
		case len(args) == 0 || args[0].kind == pyNone:
			if !isASCII(s) {
				return pyVal{}, false
			}
			parts = strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(asciiSpace, r) })
		case args[0].kind == pyStr && args[0].s != "":
			parts = strings.Split(s, args[0].s)
		default:
			return pyVal{}, false // ValueError: empty separator, or TypeError
		}
		out := pyVal{kind: pyList}
		for _, p := range parts {
			out.items = append(out.items, strOf(p))
		}
		return out, true
	case (name == "startswith" || name == "endswith") && len(args) == 1:
		has := strings.HasPrefix
		if name == "endswith" {
			has = strings.HasSuffix
		}
		switch a := args[0]; {
		case a.kind == pyStr:
			return pyBoolVal(has(s, a.s)), true
		case a.kind == pyTuple:
			for _, it := range a.items {
				if it.kind != pyStr {
					return pyVal{}, false
				}
			}
			for _, it := range a.items {
				if has(s, it.s) {
					return pyBoolVal(true), true
				}
			}
			return pyBoolVal(false), true
		}
	case (name == "partition" || name == "rpartition") && len(args) == 1 && allStr && args[0].s != "":
		i := strings.Index(s, args[0].s)
		if name == "rpartition" {
			i = strings.LastIndex(s, args[0].s)
		}
		parts := []string{s, "", ""}
		switch {
		case i >= 0:
			parts = []string{s[:i], args[0].s, s[i+len(args[0].s):]}
		case name == "rpartition":
			parts = []string{"", "", s}
		}
		return pyVal{kind: pyTuple, items: []pyVal{strOf(parts[0]), strOf(parts[1]), strOf(parts[2])}}, true
	case name == "replace" && len(args) == 2 && allStr:
		return strOf(strings.ReplaceAll(s, args[0].s, args[1].s)), true
	case name == "replace" && len(args) == 3 && args[0].kind == pyStr && args[1].kind == pyStr && args[2].numeric():
		return strOf(strings.Replace(s, args[0].s, args[1].s, int(max(min(args[2].i, 1<<30), -1)))), true
	case name == "count" && len(args) == 1 && allStr:
		return intOf(strings.Count(s, args[0].s)), true
	case (name == "find" || name == "index") && len(args) == 1 && allStr:
		i := strings.Index(s, args[0].s)
		if i < 0 {
			if name == "index" {
				return pyVal{}, false // ValueError
			}
			return intOf(-1), true
		}
		return intOf(utf8.RuneCountInString(s[:i])), true
	case name == "join" && len(args) == 1:
		items, ok := args[0].elems()
		if !ok {
			return pyVal{}, false
		}
		parts := make([]string, len(items))
		for i, it := range items {
			if it.kind != pyStr {
				return pyVal{}, false // TypeError
			}
			parts[i] = it.s
		}
		return strOf(strings.Join(parts, s)), true
	}
	return pyVal{}, false
}

// seqMethod calls a method of a list or tuple.
func seqMethod(x pyVal, name string, args []pyVal) (pyVal, bool) {
	switch {
	case name == "copy" && len(args) == 0 && x.kind == pyList:
		return pyVal{kind: pyList, items: slices.Clone(x.items)}, true
	case name == "count" && len(args) == 1:
		n := 0
		for _, it := range x.items {
			if pyEqual(it, args[0]) {
				n++
			}
		}
		return intOf(n), true
	case name == "index" && len(args) == 1:
		for i, it := range x.items {
			if pyEqual(it, args[0]) {
				return intOf(i), true
			}
		}
	}
	return pyVal{}, false // ValueError, or not a method of it
}

// dictMethod calls a method of a dict.
func dictMethod(x pyVal, name string, args []pyVal) (pyVal, bool) {
	switch {
	case name == "copy" && len(args) == 0:
		return pyVal{kind: pyDict, items: slices.Clone(x.items)}, true
	case name == "get" && len(args) >= 1:
		if !args[0].hashable() {
			return pyVal{}, false // TypeError
		}
		if i, ok := x.lookup(args[0]); ok {
			return x.items[i+1], true
		}
		if len(args) == 2 {
			return args[1], true
		}
		return pyVal{kind: pyNone}, true
	}
	return pyVal{}, false
}
