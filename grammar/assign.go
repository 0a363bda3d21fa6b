package grammar

import (
	"slices"
	"strconv"
	"strings"
)

// This file is the assignment rule (docs/decisions.md, "Assignment facts"): after a
// line state at a line that is one statement `NAME = EXPR` (or `A, B = EXPR`) or
// `NAME op= EXPR`, whose expression reads only locals with exactly known values, the
// next line state of the frame holds the value the statement stores, written as
// Python's repr writes it.

// AssignFact is the one assignment of a line (trace/analyze.py, _assigns): the name
// whose value it changes and the stored value's expression as ast.unparse writes it
// (`n + 1` for `n += 1`), in the subset the branch evaluator reads; with Key, the
// statement stores into an item of the name's list or dict (`d[k] = EXPR`); with
// Append, it is `NAME.append(APPEND)`; with Method, `NAME.METHOD(ARGS...)`, a method
// that changes a list or dict in place (assign_methods.go).
type AssignFact struct {
	Name string `json:"name"`
	// Names: the line is `A, B, ... = EXPR`, each name taking its part of the value.
	Names  []string `json:"names"`
	Expr   string   `json:"expr"`
	Key    string   `json:"key"`
	Append string   `json:"append"`
	Method string   `json:"method"`
	Args   []string `json:"args"`
	// Undo: the line is `NAME += BY` or `NAME -= BY` and BY does not read NAME
	// (assign_inverse.go).
	Undo *struct {
		Op string `json:"op"`
		By string `json:"by"`
	} `json:"undo"`
}

// value returns the value the assignment leaves in its name, on the locals env gives.
func (as AssignFact) value(env func(string) (string, bool)) (pyVal, bool) {
	if as.Key == "" && as.Append == "" && as.Method == "" {
		return evalExpr(as.Expr, env)
	}
	r, ok := env(as.Name)
	if !ok {
		return pyVal{}, false
	}
	cur, ok := parseRepr(r)
	if !ok {
		return pyVal{}, false
	}
	if as.Method != "" {
		return as.mutate(cur, env)
	}
	// The value put in must hold no list, dict or set: one could be the changed
	// object itself (`xs.append(xs)`, through an alias too), which Python writes `[...]`.
	if as.Append != "" {
		v, ok := evalExpr(as.Append, env)
		if !ok || cur.kind != pyList || !v.scalars() {
			return pyVal{}, false
		}
		return pyVal{kind: pyList, items: append(slices.Clone(cur.items), v)}, true
	}
	v, ok := evalExpr(as.Expr, env)
	if !ok || !v.scalars() {
		return pyVal{}, false
	}
	k, ok := evalExpr(as.Key, env)
	if !ok {
		return pyVal{}, false
	}
	out := pyVal{kind: cur.kind, items: slices.Clone(cur.items)}
	switch cur.kind {
	case pyDict:
		if !k.hashable() {
			return pyVal{}, false // TypeError
		}
		if i, found := cur.lookup(k); found {
			out.items[i+1] = v // the key object stays the first one stored
		} else {
			out.items = append(out.items, k, v)
		}
		return out, true
	case pyList:
		if !k.numeric() {
			return pyVal{}, false
		}
		i := k.i
		if i < 0 {
			i += int64(len(out.items))
		}
		if i < 0 || i >= int64(len(out.items)) {
			return pyVal{}, false // IndexError
		}
		out.items[i] = v
		return out, true
	}
	return pyVal{}, false // a str or tuple: TypeError
}

// scalars reports whether v is an int, bool, None or str, or a tuple of such.
func (v pyVal) scalars() bool {
	switch v.kind {
	case pyInt, pyBool, pyNone, pyStr:
		return true
	case pyTuple:
		for _, it := range v.items {
			if !it.scalars() {
				return false
			}
		}
		return true
	}
	return false
}

// EvalValue evaluates expr (the branch evaluator's subset, EvalBranch) on the locals
// that env gives and returns the repr Python writes for its value; ok is false where
// the value is not certain (as EvalBranch) or its repr is not (a set of several
// elements, whose order is the hash table's; a str with characters other than
// printable ASCII, \n, \r and \t, which Python may escape).
func EvalValue(expr string, env func(name string) (string, bool)) (repr string, ok bool) {
	v, ok := evalExpr(expr, env)
	if !ok {
		return "", false
	}
	return v.repr()
}

// evalExpr parses and evaluates expr (EvalBranch's subset).
func evalExpr(expr string, env func(name string) (string, bool)) (pyVal, bool) {
	e, ok := parseExpr(expr)
	if !ok {
		return pyVal{}, false
	}
	return e.eval(env)
}

// evalIterable parses and evaluates what a `for` header iterates over: an expression
// of EvalBranch's subset or an iterator (branch_iters.go), which the loop consumes.
func evalIterable(expr string, env func(name string) (string, bool)) (pyVal, bool) {
	e, ok := parseWhole(expr, true)
	if !ok {
		return pyVal{}, false
	}
	return e.eval(env)
}

// repr is the repr Python writes for v, where it is certain (EvalValue).
func (v pyVal) repr() (string, bool) {
	var b strings.Builder
	if !v.writeRepr(&b, 0) {
		return "", false
	}
	return b.String(), true
}

// writeRepr writes v's repr; false where it is not certain.
func (v pyVal) writeRepr(b *strings.Builder, depth int) bool {
	if depth > maxPyDepth {
		return false
	}
	switch v.kind {
	case pyInt:
		b.WriteString(strconv.FormatInt(v.i, 10))
	case pyBool:
		b.WriteString(map[bool]string{true: "True", false: "False"}[v.i != 0])
	case pyNone:
		b.WriteString("None")
	case pyStr:
		for _, r := range v.s {
			if (r < 0x20 || r > 0x7e) && r != '\n' && r != '\r' && r != '\t' {
				return false
			}
		}
		b.WriteString(PyStringRepr(v.s))
	case pyTuple, pyList, pySet:
		if v.kind == pySet && len(v.items) > 1 {
			return false
		}
		if v.kind == pySet && len(v.items) == 0 {
			b.WriteString("set()")
			return true
		}
		open, close := "[", "]"
		switch v.kind {
		case pyTuple:
			open, close = "(", ")"
		case pySet:
			open, close = "{", "}"
		}
		b.WriteString(open)
		for i, it := range v.items {
			if i > 0 {
				b.WriteString(", ")
			}
			if !it.writeRepr(b, depth+1) {
				return false
			}
		}
		if v.kind == pyTuple && len(v.items) == 1 {
			b.WriteByte(',')
		}
		b.WriteString(close)
	case pyDict:
		b.WriteByte('{')
		for i := 0; i+1 < len(v.items); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			if !v.items[i].writeRepr(b, depth+1) {
				return false
			}
			b.WriteString(": ")
			if !v.items[i+1].writeRepr(b, depth+1) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return false
	}
	return true
}

// retExprAt returns the repr that the return at prev's line (a line state of a frame
// of code c at a line that is one `return EXPR`) gives right after it: EXPR on prev's
// locals, when it evaluates (then Python raises nothing there and calls nothing).
func (p *Program) retExprAt(c int, prev *State) (string, bool) {
	expr, ok := p.f.Codes[c].RetExprs[prev.Loc.Line]
	if !ok || !p.evaluable(c, prev) {
		return "", false
	}
	v, ok := EvalValue(expr, prev.Locals.Get)
	if !ok || len(v) > maxConstRepr {
		return "", false
	}
	return v, true
}

// AssignRule reports whether the assignment rule (or the loop rule, fors.go) forces a
// value of the line state, for tests and statistics.
func (t *Targets) AssignRule() bool { return t.locals != nil && t.locals.assign }

// storedVar is a variable an assignment stores and the repr of its new value.
type storedVar struct{ name, repr string }

// assignAfter returns the variables that the assignment at prev's line (a line state
// of a frame of code c) stores and the reprs of their values, when the facts know the
// line's assignment and its expression evaluates on prev's locals: one, or with
// Names each its part of the value unpacked. The statement is the whole line, so
// when the frame's next line event comes (no exception left it) the store has run,
// once.
func (p *Program) assignAfter(c int, prev *State) ([]storedVar, bool) {
	as, ok := p.f.Codes[c].Assigns[prev.Loc.Line]
	if !ok || !p.evaluable(c, prev) {
		return nil, false
	}
	val, ok := as.value(prev.Locals.Get)
	if !ok {
		return nil, false
	}
	names, parts := []string{as.Name}, []pyVal{val}
	if as.Names != nil {
		names = as.Names
		if parts, ok = val.elems(); !ok || len(parts) != len(names) {
			return nil, false // ValueError or TypeError: the line raises
		}
	}
	out := make([]storedVar, len(names))
	for k, part := range parts {
		v, ok := part.repr()
		if !ok || len(v) > maxConstRepr {
			return nil, false // a longer repr could be cut by the tracer's repr limit
		}
		out[k] = storedVar{names[k], v}
	}
	return out, true
}

// lineDecided reports whether the statement of prev's line (a line state of a frame
// of code c) is one the evaluator answered for (branched: the branch rule did; else
// the assignment or loop rule did, as rule, localsAfter's, records), so that it
// raises nothing: the evaluator answers only where Python raises nothing, and the
// line calls no code object (a comprehension's frame could meet the recursion
// limit). A run the time limit cuts ends without an exception event (the tracer
// leaves it out).
func (p *Program) lineDecided(c int, prev *State, branched bool, rule *localsRule) bool {
	if len(p.f.Codes[c].Callees[prev.Loc.Line]) > 0 {
		return false
	}
	return branched || rule != nil && rule.evaluated
}
