package grammar

import (
	"regexp"
	"strconv"
)

// The evaluator's conversions: dict, bool, int and str of the values it knows. Each
// answers only where Python's result is certain.

// intText is the str int() reads here: an optional sign and ASCII digits (Python
// also takes spaces, underscores and other digits, left to the model).
var intText = regexp.MustCompile(`^[+-]?[0-9]+$`)

// convert calls conversion fn on args; known is false when fn is not a conversion.
func convert(fn string, args []pyVal) (v pyVal, ok, known bool) {
	switch fn {
	case "bool":
		if len(args) == 0 {
			return pyBoolVal(false), true, true
		}
		return pyBoolVal(len(args) == 1 && args[0].truth()), len(args) == 1, true
	case "int":
		if len(args) != 1 {
			return pyVal{}, false, true
		}
		a := args[0]
		switch {
		case a.numeric():
			return pyVal{kind: pyInt, i: a.i}, true, true
		case a.kind == pyStr && intText.MatchString(a.s):
			i, err := strconv.ParseInt(a.s, 10, 64)
			return pyVal{kind: pyInt, i: i}, err == nil, true
		}
		return pyVal{}, false, true
	case "str":
		if len(args) != 1 {
			return pyVal{}, false, true
		}
		if args[0].kind == pyStr {
			return args[0], true, true
		}
		r, ok := args[0].repr() // str() of the other values known is their repr
		return pyVal{kind: pyStr, s: r}, ok, true
	case "dict":
		return dictOf(args)
	}
	return pyVal{}, false, false
}

// dictOf is dict(args...): a copy of a dict, or a dict of (key, value) pairs.
func dictOf(args []pyVal) (v pyVal, ok, known bool) {
	out := pyVal{kind: pyDict}
	if len(args) == 0 {
		return out, true, true
	}
	if len(args) != 1 {
		return pyVal{}, false, true
	}
	if args[0].kind == pyDict {
		out.items = append(out.items, args[0].items...)
		return out, true, true
	}
	pairs, ok := args[0].iterItems()
	if !ok {
		return pyVal{}, false, true
	}
	for _, pr := range pairs {
		kv, ok := pr.elems()
		if !ok || len(kv) != 2 || !dictPut(&out, kv[0], kv[1]) {
			return pyVal{}, false, true // a pair that is not one
		}
	}
	return out, true, true
}
