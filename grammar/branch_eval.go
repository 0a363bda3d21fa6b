package grammar

import (
	"strings"
	"unicode/utf8"
)

// EvalBranch evaluates a branch test (ast.unparse of the subset trace/analyze.py
// accepts: names, int/str/bool/None literals, tuples and lists, not/and/or, unary
// minus, + - * // %, comparisons (chained), in, not in, `is None`, subscripts and
// len) on a frame's locals given as reprs (ints, str, True, False, None, and tuples,
// lists, dicts and sets of those), with Python's semantics, and reports its truth. ok
// is false whenever the answer is not certain: an unparsable test or repr (a float, a
// cut repr, an object), a name without a value, or anything Python would raise on (a
// TypeError, an IndexError, a KeyError, a division by zero) or that leaves int64. Only what Python evaluates is read: `and`/`or` and chained
// comparisons stop where Python stops. session.Eval is the looser evaluator of DAP
// evaluate; this one answers only where it is exact.
func EvalBranch(cond string, env func(name string) (string, bool)) (truth, ok bool) {
	e, good := parseExpr(cond)
	if !good {
		return false, false
	}
	v, good := e.eval(env)
	if !good {
		return false, false
	}
	return v.truth(), true
}

// pyKind is the type of a value the branch evaluator knows.
type pyKind uint8

const (
	pyInt pyKind = iota
	pyBool
	pyNone
	pyStr
	pyTuple
	pyList
	pyDict // items alternate key, value
	pySet
)

type pyVal struct {
	kind  pyKind
	i     int64 // int, bool (0 or 1)
	s     string
	items []pyVal
}

func (v pyVal) numeric() bool { return v.kind == pyInt || v.kind == pyBool }
func (v pyVal) seq() bool     { return v.kind == pyTuple || v.kind == pyList }

func (v pyVal) truth() bool {
	switch v.kind {
	case pyInt, pyBool:
		return v.i != 0
	case pyNone:
		return false
	case pyStr:
		return v.s != ""
	default:
		return len(v.items) > 0
	}
}

// hashable reports whether v can be a dict key or set element (else TypeError).
func (v pyVal) hashable() bool {
	switch v.kind {
	case pyList, pyDict, pySet:
		return false
	case pyTuple:
		for _, e := range v.items {
			if !e.hashable() {
				return false
			}
		}
	}
	return true
}

// size is len(v) for a str, tuple, list, dict or set.
func (v pyVal) size() int {
	switch v.kind {
	case pyStr:
		return utf8.RuneCountInString(v.s)
	case pyDict:
		return len(v.items) / 2
	}
	return len(v.items)
}

// lookup finds key k among a dict's keys or a set's elements (Python's hash and ==
// agree on these values: 1, True and 1.0 are one key).
func (v pyVal) lookup(k pyVal) (int, bool) {
	step := 1
	if v.kind == pyDict {
		step = 2
	}
	for i := 0; i < len(v.items); i += step {
		if pyEqual(v.items[i], k) {
			return i, true
		}
	}
	return 0, false
}

func pyBoolVal(b bool) pyVal {
	if b {
		return pyVal{kind: pyBool, i: 1}
	}
	return pyVal{kind: pyBool}
}

// pyEqual is Python's == on known values (never raises for these types).
func pyEqual(a, b pyVal) bool {
	switch {
	case a.numeric() && b.numeric():
		return a.i == b.i
	case a.kind != b.kind:
		return false
	case a.kind == pyNone:
		return true
	case a.kind == pyStr:
		return a.s == b.s
	case a.kind == pyDict:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := 0; i < len(a.items); i += 2 {
			j, ok := b.lookup(a.items[i])
			if !ok || !pyEqual(a.items[i+1], b.items[j+1]) {
				return false
			}
		}
		return true
	case a.kind == pySet:
		if len(a.items) != len(b.items) {
			return false
		}
		for _, e := range a.items {
			if _, ok := b.lookup(e); !ok {
				return false
			}
		}
		return true
	default:
		if len(a.items) != len(b.items) {
			return false
		}
		for k := range a.items {
			if !pyEqual(a.items[k], b.items[k]) {
				return false
			}
		}
		return true
	}
}

// pyLess is Python's a < b; ok false where Python raises TypeError.
func pyLess(a, b pyVal) (less, ok bool) {
	switch {
	case a.numeric() && b.numeric():
		return a.i < b.i, true
	case a.kind == pyStr && b.kind == pyStr:
		return a.s < b.s, true // UTF-8 byte order is code point order
	case a.seq() && a.kind == b.kind:
		for k := 0; k < len(a.items) && k < len(b.items); k++ {
			if !pyEqual(a.items[k], b.items[k]) {
				return pyLess(a.items[k], b.items[k])
			}
		}
		return len(a.items) < len(b.items), true
	}
	return false, false
}

func pyCompare(op string, a, b pyVal) (bool, bool) {
	switch op {
	case "==":
		return pyEqual(a, b), true
	case "!=":
		return !pyEqual(a, b), true
	case "<":
		return pyLess(a, b)
	case ">":
		return pyLess(b, a)
	case "<=":
		// Python calls __le__: for sequences, the first unequal pair decides.
		l, ok := pyLess(b, a)
		return !l, ok && comparable(a, b)
	case ">=":
		l, ok := pyLess(a, b)
		return !l, ok && comparable(a, b)
	case "in", "not in":
		in, ok := pyContains(b, a)
		return in == (op == "in"), ok
	case "is", "is not":
		if b.kind != pyNone {
			return false, false
		}
		return (a.kind == pyNone) == (op == "is"), true
	}
	return false, false
}

// comparable reports whether <= and >= are defined between a and b as < is (the same
// pairs; for sequences the deciding pair must be orderable, which pyLess checked).
func comparable(a, b pyVal) bool {
	return a.numeric() && b.numeric() || a.kind == pyStr && b.kind == pyStr || a.seq() && a.kind == b.kind
}

func pyContains(c, x pyVal) (bool, bool) {
	switch {
	case c.kind == pyStr:
		if x.kind != pyStr {
			return false, false
		}
		return strings.Contains(c.s, x.s), true
	case c.kind == pyDict || c.kind == pySet:
		if !x.hashable() {
			return false, false
		}
		_, in := c.lookup(x)
		return in, true
	case c.seq():
		for _, e := range c.items {
			if pyEqual(e, x) {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}
