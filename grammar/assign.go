package grammar

import (
	"strconv"
	"strings"
)

// This file is the assignment rule (docs/decisions.md, "Assignment facts"): after a
// line state at a line that is one statement `NAME = EXPR` or `NAME op= EXPR`, whose
// expression reads only locals with exactly known values, the next line state of the
// frame holds the value the statement stores, written as Python's repr writes it.

// AssignFact is the one assignment of a line (trace/analyze.py, _assigns): the name
// stored and the stored value's expression as ast.unparse writes it (`n + 1` for
// `n += 1`), in the subset the branch evaluator reads.
type AssignFact struct {
	Name string `json:"name"`
	Expr string `json:"expr"`
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
	p := &pyParser{s: expr}
	e, ok := p.expr(0)
	if !ok || p.skip() < len(p.s) {
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

// AssignRule reports whether the assignment rule (or the loop rule, fors.go) forces a
// value of the line state, for tests and statistics.
func (t *Targets) AssignRule() bool { return t.locals != nil && t.locals.assign }

// assignAfter returns the name that the assignment at prev's line (a line state of a
// frame of code c) stores and the repr of the value, when the facts know the line's
// assignment and its expression evaluates on prev's locals. The statement is the
// whole line, so when the frame's next line event comes (no exception left it) the
// store has run, once.
func (p *Program) assignAfter(c int, prev *State) (name, repr string, ok bool) {
	cf := &p.f.Codes[c]
	if prev.Event != EventLine || !p.f.NoClass || cf.Kind != "function" || cf.Loose {
		return "", "", false
	}
	as, ok := cf.Assigns[prev.Loc.Line]
	if !ok {
		return "", "", false
	}
	if _, diff := prev.Locals.Get(DiffMarkerKey); diff {
		return "", "", false // a diff form leaves names out
	}
	v, ok := EvalValue(as.Expr, prev.Locals.Get)
	if !ok || len(v) > maxConstRepr {
		return "", "", false // a longer repr could be cut by the tracer's repr limit
	}
	return as.Name, v, true
}
