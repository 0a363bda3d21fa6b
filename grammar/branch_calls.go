package grammar

import (
	"slices"
	"strings"
)

// The evaluator's conditional expressions, slices, builtin calls and methods
// (branch_expr.go has the rest). Each answers only where Python's result is certain.

type (
	pyIf    struct{ cond, then, els pyExpr }
	pySlice struct{ x, lo, hi, step pyExpr } // a part left out is nil
	pyCall  struct {
		fn   string // the builtins primary reads (branch_parse.go)
		args []pyExpr
	}
	pyMethod struct {
		x    pyExpr
		name string
		args []pyExpr
	}
)

func (n pyIf) eval(env func(string) (string, bool)) (pyVal, bool) {
	c, ok := n.cond.eval(env)
	if !ok {
		return c, false
	}
	if c.truth() {
		return n.then.eval(env)
	}
	return n.els.eval(env)
}

// maxBuilt bounds what `*` and `+` build from sequences (items or bytes): past it
// the evaluator answers nothing rather than build it.
const maxBuilt = 4096

// seqArith is `+` on two lists or two tuples and `*` of a str, list or tuple by an
// int (either side); done is false for other operands.
func seqArith(op string, l, r pyVal) (v pyVal, ok, done bool) {
	switch {
	case op == "+" && l.seq() && l.kind == r.kind:
		if len(l.items)+len(r.items) > maxBuilt {
			return pyVal{}, false, true
		}
		items := append(slices.Clone(l.items), r.items...)
		return pyVal{kind: l.kind, items: items}, true, true
	case op == "*" && r.numeric() && (l.kind == pyStr || l.seq()):
	case op == "*" && l.numeric() && (r.kind == pyStr || r.seq()):
		l, r = r, l
	default:
		return pyVal{}, false, false
	}
	n := max(r.i, 0)
	size := int64(len(l.items))
	if l.kind == pyStr {
		size = int64(len(l.s))
	}
	if size == 0 {
		n = 0 // nothing to repeat, however often
	} else if n > maxBuilt/size {
		return pyVal{}, false, true
	}
	if l.kind == pyStr {
		return pyVal{kind: pyStr, s: strings.Repeat(l.s, int(n))}, true, true
	}
	out := pyVal{kind: l.kind}
	for range n {
		out.items = append(out.items, l.items...)
	}
	return out, true, true
}

// elems returns the elements of a str (one-character strs), tuple or list.
func (v pyVal) elems() ([]pyVal, bool) {
	switch {
	case v.seq():
		return v.items, true
	case v.kind == pyStr:
		var out []pyVal
		for _, r := range v.s {
			out = append(out, pyVal{kind: pyStr, s: string(r)})
		}
		return out, true
	}
	return nil, false
}

// sliceIndex reads a slice bound: nil (absent), None, or an int.
func sliceIndex(e pyExpr, env func(string) (string, bool)) (i int64, given, ok bool) {
	if e == nil {
		return 0, false, true
	}
	v, ok := e.eval(env)
	switch {
	case !ok:
		return 0, false, false
	case v.kind == pyNone:
		return 0, false, true
	case v.numeric():
		return v.i, true, true
	}
	return 0, false, false // TypeError
}

func (s pySlice) eval(env func(string) (string, bool)) (pyVal, bool) {
	x, ok := s.x.eval(env)
	if !ok {
		return x, false
	}
	items, ok := x.elems()
	if !ok {
		return pyVal{}, false
	}
	lo, hasLo, ok1 := sliceIndex(s.lo, env)
	hi, hasHi, ok2 := sliceIndex(s.hi, env)
	step, hasStep, ok3 := sliceIndex(s.step, env)
	if !ok1 || !ok2 || !ok3 || hasStep && step == 0 {
		return pyVal{}, false // ValueError: slice step cannot be zero
	}
	if !hasStep {
		step = 1
	}
	n := int64(len(items))
	// CPython's PySlice_AdjustIndices.
	adjust := func(i int64, given bool, dflt int64) int64 {
		if !given {
			return dflt
		}
		if i < 0 {
			i += n
			if i < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if i >= n {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return i
	}
	if step > 0 {
		lo, hi = adjust(lo, hasLo, 0), adjust(hi, hasHi, n)
	} else {
		lo, hi = adjust(lo, hasLo, n-1), adjust(hi, hasHi, -1)
	}
	var out []pyVal
	for i := lo; step > 0 && i < hi || step < 0 && i > hi; i += step {
		out = append(out, items[i])
		if step > n || step < -n {
			break // the next index is past the sequence (and i + step could overflow)
		}
	}
	if x.kind == pyStr {
		var b strings.Builder
		for _, c := range out {
			b.WriteString(c.s)
		}
		return pyVal{kind: pyStr, s: b.String()}, true
	}
	return pyVal{kind: x.kind, items: out}, true
}

func (c pyCall) eval(env func(string) (string, bool)) (pyVal, bool) {
	args := make([]pyVal, len(c.args))
	for i, e := range c.args {
		v, ok := e.eval(env)
		if !ok {
			return v, false
		}
		args[i] = v
	}
	if iterFns[c.fn] {
		return iterCall(c.fn, args)
	}
	if v, ok, known := convert(c.fn, args); known {
		return v, ok
	}
	switch {
	case c.fn == "abs" && len(args) == 1 && args[0].numeric():
		i := args[0].i
		if i < 0 {
			if i == -i { // math.MinInt64: past int64
				return pyVal{}, false
			}
			i = -i
		}
		return pyVal{kind: pyInt, i: i}, true
	case c.fn == "sorted" && len(args) == 1:
		return sortedOf(args[0])
	case c.fn == "divmod" && len(args) == 2:
		q, ok := pyBin{op: "//", l: pyConst{args[0]}, r: pyConst{args[1]}}.eval(nil)
		if !ok {
			return pyVal{}, false
		}
		m, ok := pyBin{op: "%", l: pyConst{args[0]}, r: pyConst{args[1]}}.eval(nil)
		return pyVal{kind: pyTuple, items: []pyVal{q, m}}, ok
	case c.fn == "sum" && len(args) == 1:
		xs, ok := args[0].iterItems()
		if !ok {
			return pyVal{}, false
		}
		var total int64
		for _, x := range xs {
			if !x.numeric() {
				return pyVal{}, false // TypeError (or a float: not exact here)
			}
			s := total + x.i
			if (s > total) != (x.i > 0) && x.i != 0 {
				return pyVal{}, false // past int64
			}
			total = s
		}
		return pyVal{kind: pyInt, i: total}, true
	case (c.fn == "any" || c.fn == "all") && len(args) == 1:
		xs, ok := args[0].iterItems()
		if !ok {
			return pyVal{}, false
		}
		for _, x := range xs {
			if x.truth() == (c.fn == "any") {
				return pyBoolVal(c.fn == "any"), true
			}
		}
		return pyBoolVal(c.fn == "all"), true
	case (c.fn == "list" || c.fn == "tuple") && len(args) <= 1:
		out := pyVal{kind: pyList}
		if c.fn == "tuple" {
			out.kind = pyTuple
		}
		if len(args) == 1 {
			xs, ok := args[0].iterItems()
			if !ok {
				return pyVal{}, false
			}
			out.items = slices.Clone(xs)
		}
		return out, true
	case (c.fn == "min" || c.fn == "max") && len(args) > 0:
		xs := args
		if len(args) == 1 {
			var ok bool
			if xs, ok = orderable(args[0]); !ok {
				return pyVal{}, false
			}
		} else if _, ok := orderable(pyVal{kind: pyList, items: args}); !ok {
			return pyVal{}, false
		}
		if len(xs) == 0 {
			return pyVal{}, false // ValueError: an empty sequence
		}
		best := xs[0]
		for _, x := range xs[1:] {
			a, b := x, best // min: x < best
			if c.fn == "max" {
				a, b = best, x // max: x > best, which is best < x for these values
			}
			if lt, _ := pyLess(a, b); lt {
				best = x
			}
		}
		return best, true
	}
	return pyVal{}, false
}

// sortedOf is sorted(v): a new list of v's elements in order (a stable sort).
func sortedOf(v pyVal) (pyVal, bool) {
	xs, ok := orderable(v)
	if !ok {
		return pyVal{}, false
	}
	xs = slices.Clone(xs)
	slices.SortStableFunc(xs, func(a, b pyVal) int {
		switch lt, _ := pyLess(a, b); {
		case lt:
			return -1
		case pyEqual(a, b):
			return 0
		}
		return 1
	})
	return pyVal{kind: pyList, items: xs}, true
}

// orderable returns the elements of a str, tuple or list (a dict's keys) when every
// two of them compare without error: all ints and bools, or all strs (then sorting,
// min and max raise nowhere, whatever pairs they compare).
func orderable(v pyVal) ([]pyVal, bool) {
	xs, ok := v.iterItems()
	if !ok {
		return nil, false
	}
	for _, x := range xs {
		if !(x.numeric() && xs[0].numeric() || x.kind == pyStr && xs[0].kind == pyStr) {
			return nil, false
		}
	}
	return xs, true
}
