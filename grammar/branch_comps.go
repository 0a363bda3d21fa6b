package grammar

// The evaluator's comprehensions and dict displays (branch_expr.go has the rest):
// [ELT for T in ITER if C ...], {K: V for T in ITER if C ...}, a generator
// expression as the one argument of a builtin that consumes it whole, and
// {K: V, ...}. Each answers only where Python's result is certain.

type (
	// pyComp is a comprehension with one for clause; T is one name or a tuple of
	// names (unpack). A generator expression (gen) evaluates to the list of what it
	// yields: the parser takes one only where a consumer reads it whole.
	pyComp struct {
		kind    pyKind // pyList or pyDict
		gen     bool
		key     pyExpr // a dict's key
		elt     pyExpr
		targets []string
		unpack  bool
		iter    pyExpr
		conds   []pyExpr
	}
	// pyDictDisplay is {K: V, ...}.
	pyDictDisplay struct{ keys, vals []pyExpr }
)

// maxCompItems bounds what a comprehension iterates over.
const maxCompItems = 4096

// iterItems returns what iterating over v yields, in order: a str's characters, a
// tuple's or list's items, a dict's keys. A set's order is its hash table's: unknown.
func (v pyVal) iterItems() ([]pyVal, bool) {
	if v.kind == pyDict {
		keys := make([]pyVal, 0, len(v.items)/2)
		for i := 0; i < len(v.items); i += 2 {
			keys = append(keys, v.items[i])
		}
		return keys, true
	}
	return v.elems()
}

// dictPut sets key k to x in dict d, as Python does: a key equal to one present
// keeps that key object and its place, and takes the new value.
func dictPut(d *pyVal, k, x pyVal) bool {
	if !k.hashable() {
		return false // TypeError: unhashable
	}
	if i, ok := d.lookup(k); ok {
		d.items[i+1] = x
		return true
	}
	d.items = append(d.items, k, x)
	return true
}

func (c pyComp) eval(env func(string) (string, bool)) (pyVal, bool) {
	it, ok := c.iter.eval(env)
	if !ok {
		return pyVal{}, false
	}
	xs, ok := it.iterItems()
	if !ok || len(xs) > maxCompItems {
		return pyVal{}, false
	}
	out := pyVal{kind: c.kind}
	for _, x := range xs {
		inner, ok := c.bind(x, env)
		if !ok {
			return pyVal{}, false
		}
		keep := true
		for _, cond := range c.conds {
			v, ok := cond.eval(inner)
			if !ok {
				return pyVal{}, false
			}
			if !v.truth() {
				keep = false
				break
			}
		}
		if !keep {
			continue
		}
		var k pyVal
		if c.kind == pyDict {
			if k, ok = c.key.eval(inner); !ok {
				return pyVal{}, false
			}
		}
		v, ok := c.elt.eval(inner)
		if !ok {
			return pyVal{}, false
		}
		if c.kind == pyDict {
			if !dictPut(&out, k, v) {
				return pyVal{}, false
			}
		} else {
			out.items = append(out.items, v)
		}
	}
	return out, true
}

// bind returns env with the comprehension's targets bound to item x (given, like
// every local, as a repr).
func (c pyComp) bind(x pyVal, env func(string) (string, bool)) (func(string) (string, bool), bool) {
	vals := []pyVal{x}
	if c.unpack {
		var ok bool
		if vals, ok = x.elems(); !ok || len(vals) != len(c.targets) {
			return nil, false // ValueError or TypeError: cannot unpack
		}
	}
	bound := make(map[string]string, len(c.targets))
	for i, n := range c.targets {
		r, ok := vals[i].repr()
		if !ok {
			return nil, false
		}
		bound[n] = r // a name twice in the target takes the last, as in Python
	}
	return func(n string) (string, bool) {
		if r, ok := bound[n]; ok {
			return r, true
		}
		return env(n)
	}, true
}

func (d pyDictDisplay) eval(env func(string) (string, bool)) (pyVal, bool) {
	out := pyVal{kind: pyDict}
	for i := range d.keys {
		k, ok := d.keys[i].eval(env)
		if !ok {
			return pyVal{}, false
		}
		v, ok := d.vals[i].eval(env)
		if !ok || !dictPut(&out, k, v) {
			return pyVal{}, false
		}
	}
	return out, true
}

// compTail reads what follows a comprehension's first part (the elt, or a dict's
// key and value), from after `for` to the closing bracket end.
func (p *pyParser) compTail(d int, c pyComp, end string) (pyExpr, bool) {
	for {
		p.skip()
		s := p.i
		for p.i < len(p.s) && isNameByte(p.s[p.i]) {
			p.i++
		}
		name := p.s[s:p.i]
		if name == "" || name[0] >= '0' && name[0] <= '9' || isKeyword(name) {
			return nil, false
		}
		c.targets = append(c.targets, name)
		if !p.op(",") {
			break
		}
		c.unpack = true
		if save := p.i; p.word("in") {
			p.i = save // a one-name tuple: `for a, in xs`
			break
		}
	}
	if !p.word("in") {
		return nil, false
	}
	var ok bool
	if c.iter, ok = p.iterable(d); !ok {
		return nil, false
	}
	for p.word("if") {
		cond, ok := p.boolOp(d+1, true)
		if !ok {
			return nil, false
		}
		c.conds = append(c.conds, cond)
	}
	if !p.op(end) {
		return nil, false // another for clause, or not Python
	}
	if c.gen {
		p.gens++
	}
	return c, true
}

// braces reads what follows `{`: a dict display or a dict comprehension (a set is
// not read: its order is the hash table's).
func (p *pyParser) braces(d int) (pyExpr, bool) {
	disp := pyDictDisplay{}
	for !p.op("}") {
		if len(disp.keys) > 0 && !p.op(",") {
			return nil, false
		}
		if len(disp.keys) > 0 && p.op("}") {
			break
		}
		k, ok := p.expr(d + 1)
		if !ok || !p.op(":") {
			return nil, false
		}
		v, ok := p.expr(d + 1)
		if !ok {
			return nil, false
		}
		if len(disp.keys) == 0 && p.word("for") {
			return p.compTail(d, pyComp{kind: pyDict, key: k, elt: v}, "}")
		}
		disp.keys, disp.vals = append(disp.keys, k), append(disp.vals, v)
	}
	return disp, true
}

// consumesAt reports whether builtin or method fn reads an iterator argument whole
// (and so may take one) at the argument's place: first, and only when nothing
// follows it (last).
func consumesAt(fn string, first, last bool) bool {
	switch fn {
	case "sum", "any", "all", "list", "tuple", "sorted", "min", "max", "join", "dict":
		return first && last
	case "enumerate":
		return first
	case "zip":
		return true
	}
	return false
}

// isKeyword reports whether name is a keyword the evaluator's grammar reads.
func isKeyword(name string) bool {
	switch name {
	case "and", "or", "not", "in", "is", "if", "else", "for", "lambda", "True", "False", "None":
		return true
	}
	return false
}
