package grammar

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EvalBranch evaluates a branch test (ast.unparse of the subset trace/analyze.py
// accepts: names, int/str/bool/None literals, tuples and lists, not/and/or, unary
// minus, + - * // %, comparisons (chained), in, not in, `is None`, subscripts and
// len) on a frame's locals given as reprs, with Python's semantics, and reports its
// truth. ok is false whenever the answer is not certain: an unparsable test or
// repr (a float, a cut repr, a dict, an object), a name without a value, or anything
// Python would raise on (a TypeError, an IndexError, a division by zero) or that
// leaves int64. Only what Python evaluates is read: `and`/`or` and chained
// comparisons stop where Python stops. session.Eval is the looser evaluator of DAP
// evaluate; this one answers only where it is exact.
func EvalBranch(cond string, env func(name string) (string, bool)) (truth, ok bool) {
	p := &pyParser{s: cond}
	e, good := p.expr(0)
	if !good || p.skip() < len(p.s) {
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

// parseRepr reads a repr whole: an int, True, False, None, a str, or a tuple or list
// of those; anything else (a float, a cut repr ending in "...") is unknown.
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
	return p.boolOp(d, true)
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

func (p *pyParser) arith(d int) (pyExpr, bool) {
	x, ok := p.term(d)
	for ok {
		var o string
		switch {
		case p.op("+"):
			o = "+"
		case p.op("-"):
			o = "-"
		default:
			return x, true
		}
		var y pyExpr
		y, ok = p.term(d)
		x = pyBin{op: o, l: x, r: y}
	}
	return nil, false
}

func (p *pyParser) term(d int) (pyExpr, bool) {
	x, ok := p.unary(d)
	for ok {
		var o string
		switch {
		case p.op("*"):
			o = "*"
		case p.op("//"):
			o = "//"
		case p.op("%"):
			o = "%"
		default:
			return x, true
		}
		var y pyExpr
		y, ok = p.unary(d)
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
		if !p.op("[") {
			return x, true
		}
		var k pyExpr
		if k, ok = p.expr(d + 1); !ok || !p.op("]") {
			return nil, false
		}
		x = pySub{x: x, k: k}
	}
	return nil, false
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
			disp.items = append(disp.items, x)
			comma = p.op(",")
		}
		if kind == pyTuple && len(disp.items) == 1 && !comma {
			return disp.items[0], true // parentheses
		}
		return disp, true
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
		case "and", "or", "not", "in", "is", "if", "else", "lambda":
			return nil, false
		}
		return pyName(name), true
	}
	return nil, false
}

// literal reads a repr: an int, True, False, None, a str, a tuple or a list.
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

// str reads a Python str repr (or literal as ast.unparse writes it).
func (p *pyParser) str() (pyVal, bool) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return pyVal{kind: pyStr, s: b.String()}, true
		case c == '\n':
			return pyVal{}, false
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return pyVal{}, false
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				return pyVal{}, false
			}
			r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil || r > utf8.MaxRune || r >= 0xd800 && r < 0xe000 {
				return pyVal{}, false // a lone surrogate has no Go string
			}
			b.WriteRune(rune(r))
			p.i += n
		default:
			return pyVal{}, false
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
