package grammar

import (
	"math"
)

// The nodes of a parsed branch test and their evaluation (branch_eval.go).

// pyExpr is a node of a parsed test.
type pyExpr interface {
	eval(env func(string) (string, bool)) (pyVal, bool)
}

type (
	pyName   string
	pyConst  struct{ v pyVal }
	pyBoolOp struct {
		and  bool
		args []pyExpr
	}
	pyNot struct{ x pyExpr }
	pyNeg struct{ x pyExpr }
	pyBin struct {
		op   string
		l, r pyExpr
	}
	pyCmp struct {
		ops  []string
		args []pyExpr
	}
	pySub     struct{ x, k pyExpr }
	pyLen     struct{ x pyExpr }
	pyDisplay struct {
		kind  pyKind
		items []pyExpr
	}
)

func (n pyName) eval(env func(string) (string, bool)) (pyVal, bool) {
	r, ok := env(string(n))
	if !ok {
		return pyVal{}, false
	}
	return parseRepr(r)
}

func (c pyConst) eval(func(string) (string, bool)) (pyVal, bool) { return c.v, true }

func (b pyBoolOp) eval(env func(string) (string, bool)) (pyVal, bool) {
	var v pyVal
	for _, a := range b.args {
		var ok bool
		if v, ok = a.eval(env); !ok {
			return v, false
		}
		if v.truth() != b.and {
			return v, true
		}
	}
	return v, true
}

func (n pyNot) eval(env func(string) (string, bool)) (pyVal, bool) {
	v, ok := n.x.eval(env)
	return pyBoolVal(!v.truth()), ok
}

func (n pyNeg) eval(env func(string) (string, bool)) (pyVal, bool) {
	v, ok := n.x.eval(env)
	if !ok || !v.numeric() || v.i == math.MinInt64 {
		return pyVal{}, false
	}
	return pyVal{kind: pyInt, i: -v.i}, true
}

func (b pyBin) eval(env func(string) (string, bool)) (pyVal, bool) {
	l, ok := b.l.eval(env)
	if !ok {
		return l, false
	}
	r, ok := b.r.eval(env)
	if !ok {
		return r, false
	}
	if b.op == "+" && l.kind == pyStr && r.kind == pyStr {
		return pyVal{kind: pyStr, s: l.s + r.s}, true
	}
	if v, ok, done := seqArith(b.op, l, r); done {
		return v, ok
	}
	if !l.numeric() || !r.numeric() {
		return pyVal{}, false
	}
	x, y := l.i, r.i
	var z int64
	switch b.op {
	case "+":
		z = x + y
		if (z > x) != (y > 0) {
			return pyVal{}, false
		}
	case "-":
		z = x - y
		if (z < x) != (y > 0) {
			return pyVal{}, false
		}
	case "*":
		if x != 0 && y != 0 {
			z = x * y
			if z/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
				return pyVal{}, false
			}
		}
	case "//", "%":
		if y == 0 || (x == math.MinInt64 && y == -1) {
			return pyVal{}, false
		}
		q, m := x/y, x%y
		if m != 0 && (m < 0) != (y < 0) { // Python floors
			q--
			m += y
		}
		z = q
		if b.op == "%" {
			z = m
		}
	default:
		return pyVal{}, false
	}
	return pyVal{kind: pyInt, i: z}, true
}

func (c pyCmp) eval(env func(string) (string, bool)) (pyVal, bool) {
	l, ok := c.args[0].eval(env)
	if !ok {
		return l, false
	}
	for k, op := range c.ops {
		r, ok := c.args[k+1].eval(env)
		if !ok {
			return r, false
		}
		t, ok := pyCompare(op, l, r)
		if !ok {
			return pyVal{}, false
		}
		if !t {
			return pyBoolVal(false), true
		}
		l = r
	}
	return pyBoolVal(true), true
}

func (s pySub) eval(env func(string) (string, bool)) (pyVal, bool) {
	x, ok := s.x.eval(env)
	if !ok {
		return x, false
	}
	k, ok := s.k.eval(env)
	if !ok {
		return pyVal{}, false
	}
	if x.kind == pyDict {
		if !k.hashable() {
			return pyVal{}, false
		}
		i, in := x.lookup(k)
		if !in {
			return pyVal{}, false // KeyError
		}
		return x.items[i+1], true
	}
	if !k.numeric() {
		return pyVal{}, false
	}
	var items []pyVal
	switch {
	case x.seq():
		items = x.items
	case x.kind == pyStr:
		for _, r := range x.s {
			items = append(items, pyVal{kind: pyStr, s: string(r)})
		}
	default:
		return pyVal{}, false
	}
	i := k.i
	if i < 0 {
		i += int64(len(items))
	}
	if i < 0 || i >= int64(len(items)) {
		return pyVal{}, false
	}
	return items[i], true
}

func (n pyLen) eval(env func(string) (string, bool)) (pyVal, bool) {
	x, ok := n.x.eval(env)
	switch {
	case !ok:
		return x, false
	case x.kind == pyStr || x.seq() || x.kind == pyDict || x.kind == pySet:
		return pyVal{kind: pyInt, i: int64(x.size())}, true
	}
	return pyVal{}, false
}

func (d pyDisplay) eval(env func(string) (string, bool)) (pyVal, bool) {
	v := pyVal{kind: d.kind}
	for _, e := range d.items {
		x, ok := e.eval(env)
		if !ok {
			return x, false
		}
		v.items = append(v.items, x)
	}
	return v, true
}
