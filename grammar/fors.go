package grammar

// This file is the loop rule (docs/decisions.md, "Assignment facts"): after a line
// state at a `for NAME in EXPR:` header whose NAME is still unbound (the loop starts:
// nothing in the function deletes NAME, so a later pass would find it bound), the
// next line state of the frame is the body's first line with NAME holding EXPR's
// first element, or a line after the loop without NAME when EXPR is empty.

// ForFact is a `for NAME in EXPR:` header (trace/analyze.py, _fors): EXPR as
// ast.unparse writes it, or the arguments of `range(...)`.
type ForFact struct {
	Name  string   `json:"name"`
	Expr  string   `json:"expr"`
	Range []string `json:"range"`
}

// forFirst returns the loop variable at prev's line (a line state of a frame of code
// c, at a `for` header, the variable unbound) and the repr of the first element, when
// the iterable is known and not empty.
func (p *Program) forFirst(c int, prev *State) (name, repr string, ok bool) {
	cf := &p.f.Codes[c]
	if prev.Event != EventLine || !p.f.NoClass || cf.Kind != "function" || cf.Loose {
		return "", "", false
	}
	ff, ok := cf.Fors[prev.Loc.Line]
	if !ok {
		return "", "", false
	}
	if _, diff := prev.Locals.Get(DiffMarkerKey); diff {
		return "", "", false // a diff form leaves names out
	}
	if _, bound := prev.Locals.Get(ff.Name); bound {
		return "", "", false // perhaps a later pass, or a loop entered again
	}
	first, ok := ff.first(prev.Locals.Get)
	if !ok {
		return "", "", false
	}
	r, ok := first.repr()
	if !ok || len(r) > maxConstRepr {
		return "", "", false
	}
	return ff.Name, r, true
}

// first evaluates the iterable and returns its first element: a str's first
// character, a tuple's or list's first item, a dict's first key, range's start;
// false when it is empty or not known (a set: the order is the hash table's).
func (ff ForFact) first(env func(string) (string, bool)) (pyVal, bool) {
	if ff.Range != nil {
		args := make([]int64, len(ff.Range))
		for i, e := range ff.Range {
			v, ok := evalExpr(e, env)
			if !ok || !v.numeric() {
				return pyVal{}, false // range() takes ints (and bools) only
			}
			args[i] = v.i
		}
		start, stop, step := int64(0), args[0], int64(1)
		if len(args) > 1 {
			start, stop = args[0], args[1]
		}
		if len(args) > 2 {
			step = args[2]
		}
		if step == 0 || step > 0 && start >= stop || step < 0 && start <= stop {
			return pyVal{}, false // ValueError, or an empty range
		}
		return pyVal{kind: pyInt, i: start}, true
	}
	v, ok := evalExpr(ff.Expr, env)
	if !ok {
		return pyVal{}, false
	}
	switch v.kind {
	case pyStr, pyTuple, pyList:
		xs, _ := v.elems()
		if len(xs) == 0 {
			return pyVal{}, false
		}
		return xs[0], true
	case pyDict:
		if len(v.items) == 0 {
			return pyVal{}, false
		}
		return v.items[0], true
	}
	return pyVal{}, false
}
