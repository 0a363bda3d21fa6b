package grammar

import (
	"strconv"
	"strings"
)

// The reader of branch tests (as ast.unparse writes them) and of value reprs.

// parseRepr reads a repr whole: an int, True, False, None, a str, or a tuple, list,
// dict or set of those; anything else (a float, a cut repr ending in "...") is unknown.
func parseRepr(r string) (pyVal, bool) {
	p := &pyParser{s: r}
	v, ok := p.literal(0)
	if !ok || p.skip() != len(p.s) {
		return pyVal{}, false
	}
	return v, true
}

// maxPyDepth bounds nesting in tests and reprs.
const maxPyDepth = 32

// pyParser reads tests and reprs.
type pyParser struct {
	s string
	i int
	// gens counts the generator expressions read, consumed those read as the one
	// argument of a builtin that consumes them (branch_comps.go): a whole
	// expression is read only when the two are equal.
	gens, consumed int
}

// parseExpr reads expr whole (EvalBranch's subset).
func parseExpr(expr string) (pyExpr, bool) { return parseWhole(expr, false) }

// parseWhole reads expr whole; iterable: expr is what a `for` header iterates over,
// which consumes an iterator written there (branch_iters.go).
func parseWhole(expr string, iterable bool) (pyExpr, bool) {
	p := &pyParser{s: expr}
	e, ok := p.expr(0)
	if ok && iterable && isIterNode(e) && p.gens == p.consumed+1 {
		p.consumed++
	}
	if !ok || p.skip() < len(p.s) || p.gens != p.consumed {
		return nil, false
	}
	return e, true
}

// arg reads an argument of builtin or method fn, which may be an iterator
// (branch_iters.go) or a generator expression where fn consumes it (first: it is
// the first argument).
func (p *pyParser) arg(d int, fn string, first bool) (pyExpr, bool) {
	before := p.gens
	x, ok := p.expr(d + 1)
	if !ok || p.gens == before {
		return x, ok
	}
	if isIterNode(x) && p.gens == before+1 && consumesAt(fn, first, p.peek(")")) {
		p.consumed++
	}
	return x, true
}

// iterable reads what a comprehension or a `for` header iterates over: an
// expression, or an iterator, which it consumes.
func (p *pyParser) iterable(d int) (pyExpr, bool) {
	before := p.gens
	x, ok := p.boolOp(d+1, true)
	if ok && isIterNode(x) && p.gens == before+1 {
		p.consumed++
	}
	return x, ok
}

func (p *pyParser) skip() int {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	return p.i
}

// word reports whether keyword w comes next (not as part of a longer name) and
// takes it.
func (p *pyParser) word(w string) bool {
	p.skip()
	if !strings.HasPrefix(p.s[p.i:], w) {
		return false
	}
	e := p.i + len(w)
	if e < len(p.s) && isNameByte(p.s[e]) {
		return false
	}
	p.i = e
	return true
}

// op takes operator o if it comes next.
func (p *pyParser) op(o string) bool {
	p.skip()
	if !strings.HasPrefix(p.s[p.i:], o) {
		return false
	}
	// "<" is not "<=", "/" is not "//" and "=" never stands alone.
	e := p.i + len(o)
	if (o == "<" || o == ">") && e < len(p.s) && p.s[e] == '=' {
		return false
	}
	p.i = e
	return true
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *pyParser) expr(d int) (pyExpr, bool) {
	if d > maxPyDepth {
		return nil, false
	}
	x, ok := p.boolOp(d, true)
	if !ok || !p.word("if") {
		return x, ok
	}
	// x if cond else y (ast.unparse parenthesizes one nested in x or cond).
	cond, ok := p.boolOp(d+1, true)
	if !ok || !p.word("else") {
		return nil, false
	}
	y, ok := p.expr(d + 1)
	if !ok {
		return nil, false
	}
	return pyIf{cond: cond, then: x, els: y}, true
}

// peek reports whether operator o comes next, without taking it.
func (p *pyParser) peek(o string) bool {
	save := p.i
	ok := p.op(o)
	p.i = save
	return ok
}

// boolOp parses or (and=false... the loosest level first).
func (p *pyParser) boolOp(d int, or bool) (pyExpr, bool) {
	next := func() (pyExpr, bool) {
		if or {
			return p.boolOp(d, false)
		}
		return p.not(d)
	}
	w := "and"
	if or {
		w = "or"
	}
	x, ok := next()
	if !ok {
		return nil, false
	}
	args := []pyExpr{x}
	for p.word(w) {
		y, ok := next()
		if !ok {
			return nil, false
		}
		args = append(args, y)
	}
	if len(args) == 1 {
		return x, true
	}
	return pyBoolOp{and: !or, args: args}, true
}

func (p *pyParser) not(d int) (pyExpr, bool) {
	if p.word("not") {
		x, ok := p.not(d + 1)
		if !ok || d > maxPyDepth {
			return nil, false
		}
		return pyNot{x}, true
	}
	return p.comparison(d)
}

func (p *pyParser) compareOp() string {
	save := p.i
	for _, o := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if p.op(o) {
			return o
		}
	}
	if p.word("in") {
		return "in"
	}
	if p.word("not") {
		if p.word("in") {
			return "not in"
		}
		p.i = save
		return ""
	}
	if p.word("is") {
		if p.word("not") {
			return "is not"
		}
		return "is"
	}
	return ""
}

func (p *pyParser) comparison(d int) (pyExpr, bool) {
	x, ok := p.arith(d)
	if !ok {
		return nil, false
	}
	c := pyCmp{args: []pyExpr{x}}
	for {
		o := p.compareOp()
		if o == "" {
			break
		}
		y, ok := p.arith(d)
		if !ok {
			return nil, false
		}
		c.ops = append(c.ops, o)
		c.args = append(c.args, y)
	}
	if len(c.ops) == 0 {
		return x, true
	}
	return c, true
}

// The binary operators of each precedence level the parser reads, tried in order.
var (
	arithOps = []string{"+", "-"}
	termOps  = []string{"*", "//", "%"}
)

func (p *pyParser) arith(d int) (pyExpr, bool) { return p.binary(d, arithOps, p.term) }

func (p *pyParser) term(d int) (pyExpr, bool) { return p.binary(d, termOps, p.unary) }

// binary reads operand (op operand)* for one precedence level, left-associative.
func (p *pyParser) binary(d int, ops []string, operand func(int) (pyExpr, bool)) (pyExpr, bool) {
	x, ok := operand(d)
	for ok {
		o := ""
		for _, c := range ops {
			if p.op(c) {
				o = c
				break
			}
		}
		if o == "" {
			return x, true
		}
		var y pyExpr
		y, ok = operand(d)
		x = pyBin{op: o, l: x, r: y}
	}
	return nil, false
}

func (p *pyParser) unary(d int) (pyExpr, bool) {
	if d > maxPyDepth {
		return nil, false
	}
	if p.op("-") {
		x, ok := p.unary(d + 1)
		if !ok {
			return nil, false
		}
		if c, isConst := x.(pyConst); isConst && c.v.kind == pyInt && c.v.i >= 0 {
			return pyConst{pyVal{kind: pyInt, i: -c.v.i}}, true
		}
		return pyNeg{x}, true
	}
	return p.postfix(d)
}

func (p *pyParser) postfix(d int) (pyExpr, bool) {
	x, ok := p.primary(d)
	for ok {
		switch {
		case p.op("["):
			x, ok = p.subscript(d, x)
		case p.op("."):
			x, ok = p.method(d, x)
		default:
			return x, true
		}
	}
	return nil, false
}

// subscript reads what follows x[: an index, or a slice lo:hi:step whose parts may
// be left out, then the closing bracket.
func (p *pyParser) subscript(d int, x pyExpr) (pyExpr, bool) {
	part := func(stops ...string) (pyExpr, bool) {
		for _, s := range stops {
			if p.peek(s) {
				return nil, true
			}
		}
		return p.expr(d + 1)
	}
	lo, ok := part(":")
	if !ok {
		return nil, false
	}
	if !p.op(":") {
		if lo == nil || !p.op("]") {
			return nil, false
		}
		return pySub{x: x, k: lo}, true
	}
	s := pySlice{x: x, lo: lo}
	if s.hi, ok = part(":", "]"); !ok {
		return nil, false
	}
	if p.op(":") {
		if s.step, ok = part("]"); !ok {
			return nil, false
		}
	}
	return s, p.op("]")
}

// method reads a call of one of pyMethods after x and its arguments.
func (p *pyParser) method(d int, x pyExpr) (pyExpr, bool) {
	p.skip()
	s := p.i
	for p.i < len(p.s) && isNameByte(p.s[p.i]) {
		p.i++
	}
	m := pyMethod{x: x, name: p.s[s:p.i]}
	most, known := pyMethods[m.name]
	if !known || !p.op("(") {
		return nil, false
	}
	for !p.op(")") {
		if len(m.args) > 0 && !p.op(",") || len(m.args) == most {
			return nil, false
		}
		a, ok := p.arg(d, m.name, len(m.args) == 0)
		if !ok {
			return nil, false
		}
		m.args = append(m.args, a)
	}
	if viewMethods[m.name] {
		p.gens++ // a view: read only where consumed
	}
	return m, true
}

func (p *pyParser) primary(d int) (pyExpr, bool) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, false
	}
	c := p.s[p.i]
	switch {
	case c == '(' || c == '[':
		end, kind := ")", pyTuple
		if c == '[' {
			end, kind = "]", pyList
		}
		p.i++
		disp := pyDisplay{kind: kind}
		comma := false
		for !p.op(end) {
			if len(disp.items) > 0 && !comma {
				return nil, false
			}
			x, ok := p.expr(d + 1)
			if !ok {
				return nil, false
			}
			if len(disp.items) == 0 && p.word("for") {
				return p.compTail(d, pyComp{kind: pyList, gen: c == '(', elt: x}, end)
			}
			disp.items = append(disp.items, x)
			comma = p.op(",")
		}
		if kind == pyTuple && len(disp.items) == 1 && !comma {
			return disp.items[0], true // parentheses
		}
		return disp, true
	case c == '{':
		p.i++
		return p.braces(d)
	case c == '\'' || c == '"' || c >= '0' && c <= '9':
		v, ok := p.literal(d)
		return pyConst{v}, ok
	case isNameByte(c):
		s := p.i
		for p.i < len(p.s) && isNameByte(p.s[p.i]) {
			p.i++
		}
		name := p.s[s:p.i]
		switch name {
		case "True":
			return pyConst{pyBoolVal(true)}, true
		case "False":
			return pyConst{pyBoolVal(false)}, true
		case "None":
			return pyConst{pyVal{kind: pyNone}}, true
		case "len":
			if p.op("(") {
				x, ok := p.expr(d + 1)
				if !ok || !p.op(")") {
					return nil, false
				}
				return pyLen{x}, true
			}
		case "abs", "min", "max", "sorted", "sum", "any", "all", "list", "tuple",
			"enumerate", "zip", "reversed", "range", "dict", "bool", "int", "str", "divmod":
			if p.op("(") {
				call := pyCall{fn: name}
				for !p.op(")") {
					if len(call.args) > 0 && !p.op(",") {
						return nil, false
					}
					x, ok := p.arg(d, name, len(call.args) == 0)
					if !ok {
						return nil, false
					}
					call.args = append(call.args, x)
				}
				if iterFns[name] {
					p.gens++ // an iterator: read only where consumed
				}
				return call, true
			}
		case "and", "or", "not", "in", "is", "if", "else", "lambda", "for":
			return nil, false
		}
		return pyName(name), true
	}
	return nil, false
}

// literal reads a repr: an int, True, False, None, a str, a tuple, a list, a dict or a set.
func (p *pyParser) literal(d int) (pyVal, bool) {
	p.skip()
	if d > maxPyDepth || p.i >= len(p.s) {
		return pyVal{}, false
	}
	c := p.s[p.i]
	switch {
	case c == '-' || c >= '0' && c <= '9':
		s := p.i
		if c == '-' {
			p.i++
		}
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i < len(p.s) && (isNameByte(p.s[p.i]) || p.s[p.i] == '.') {
			return pyVal{}, false // a float, 0x.., 1_000, 1e5 ...
		}
		txt := p.s[s:p.i]
		if len(txt) > 1 && (txt[0] == '0' || strings.HasPrefix(txt, "-0")) {
			return pyVal{}, false
		}
		n, err := strconv.ParseInt(txt, 10, 64)
		return pyVal{kind: pyInt, i: n}, err == nil
	case c == '\'' || c == '"':
		return p.str()
	case c == '(' || c == '[':
		end, kind := byte(')'), pyTuple
		if c == '[' {
			end, kind = ']', pyList
		}
		p.i++
		v := pyVal{kind: kind}
		comma := false
		for {
			p.skip()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				break
			}
			if len(v.items) > 0 && !comma {
				return pyVal{}, false
			}
			x, ok := p.literal(d + 1)
			if !ok {
				return pyVal{}, false
			}
			v.items = append(v.items, x)
			comma = p.op(",")
		}
		if kind == pyTuple && len(v.items) == 1 && !comma {
			return pyVal{}, false // (x) is no tuple repr
		}
		return v, true
	case c == '{':
		return p.dictOrSet(d)
	}
	if p.word("set()") {
		return pyVal{kind: pySet}, true
	}
	for _, w := range []string{"True", "False", "None"} {
		if p.word(w) {
			switch w {
			case "True":
				return pyBoolVal(true), true
			case "False":
				return pyBoolVal(false), true
			}
			return pyVal{kind: pyNone}, true
		}
	}
	return pyVal{}, false
}

// str reads a Python str repr (or literal as ast.unparse writes it): it finds the
// closing quote and decodes the literal with PyStringValue.
func (p *pyParser) str() (pyVal, bool) {
	q := p.s[p.i]
	for i := p.i + 1; i < len(p.s); i++ {
		switch p.s[i] {
		case '\\':
			i++
		case '\n':
			return pyVal{}, false
		case q:
			s, ok := PyStringValue(p.s[p.i : i+1])
			if !ok {
				return pyVal{}, false
			}
			p.i = i + 1
			return pyVal{kind: pyStr, s: s}, true
		}
	}
	return pyVal{}, false
}

// dictOrSet reads a dict repr ({} included) or a set repr. Keys and elements must be
// hashable and distinct, as in any real repr.
func (p *pyParser) dictOrSet(d int) (pyVal, bool) {
	p.i++ // {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return pyVal{kind: pyDict}, true
	}
	v := pyVal{kind: pySet}
	for first := true; ; first = false {
		k, ok := p.literal(d + 1)
		if !ok || !k.hashable() {
			return pyVal{}, false
		}
		if _, dup := v.lookup(k); dup && !first {
			return pyVal{}, false
		}
		if first && p.op(":") {
			v.kind = pyDict
		} else if !first && v.kind == pyDict && !p.op(":") {
			return pyVal{}, false
		}
		v.items = append(v.items, k)
		if v.kind == pyDict {
			x, ok := p.literal(d + 1)
			if !ok {
				return pyVal{}, false
			}
			v.items = append(v.items, x)
		}
		if p.op("}") {
			return v, true
		}
		if !p.op(",") {
			return pyVal{}, false
		}
	}
}
