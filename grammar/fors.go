package grammar

import "slices"

// This file is the loop rule (docs/decisions.md, "Assignment facts"): after a line
// state at a `for NAME in EXPR:` header, the values NAME can hold in the next line
// state of the frame (forNext).

// ForFact is a `for NAME in EXPR:` header (trace/analyze.py, _fors): EXPR as
// ast.unparse writes it, or the arguments of `range(...)`; the names the header reads;
// and Again: the loop's body stores neither NAME nor any of them.
type ForFact struct {
	Name  string   `json:"name"`
	Expr  string   `json:"expr"`
	Range []string `json:"range"`
	Reads []string `json:"reads"`
	Again bool     `json:"again"`
}

// forNext returns the loop variable at prev's line (a line state of a frame of code
// c, at a `for` header) and the reprs it can hold in the next line state of the frame:
// when it is unbound, the loop starts, so the first element (none when the iterable
// is empty: then the variable is absent); when it is bound and the body changes
// neither it nor what the header reads (all immutable values), the first element (a
// loop entered again), the element after each one equal to it (the next pass) and its
// own value (the loop ends). False when not known or when more than eight.
func (p *Program) forNext(c int, prev *State) (name string, reprs []string, ok bool) {
	ff, ok := p.f.Codes[c].Fors[prev.Loc.Line]
	if !ok || !p.evaluable(c, prev) {
		return "", nil, false
	}
	env := prev.Locals.Get
	cur, bound := env(ff.Name)
	var vals []pyVal
	if !bound {
		first, ok := ff.first(env)
		if !ok {
			return "", nil, false
		}
		vals = []pyVal{first}
	} else {
		if !ff.Again {
			return "", nil, false // perhaps a later pass whose iterator the state does not show
		}
		for _, n := range ff.Reads {
			if r, ok := env(n); !ok || !immutableRepr.MatchString(r) {
				return "", nil, false
			}
		}
		cv, ok := parseRepr(cur)
		if !ok {
			return "", nil, false
		}
		next, ok := ff.after(cv, env)
		if !ok {
			return "", nil, false
		}
		if first, ok := ff.first(env); ok {
			vals = append(vals, first)
		}
		vals = append(append(vals, next...), cv)
	}
	for _, v := range vals {
		r, ok := v.repr()
		if !ok || len(r) > maxConstRepr {
			return "", nil, false
		}
		if !slices.Contains(reprs, r) {
			reprs = append(reprs, r)
		}
	}
	if len(reprs) > 8 {
		return "", nil, false
	}
	return ff.Name, reprs, true
}

// after returns the elements the iterator yields after one equal to cur: the next of
// a range, or the element after each equal one of a sequence.
func (ff ForFact) after(cur pyVal, env func(string) (string, bool)) ([]pyVal, bool) {
	if ff.Range != nil {
		start, stop, step, ok := ff.rangeArgs(env)
		if !ok || !cur.numeric() {
			return nil, false
		}
		n := cur.i + step
		if (n > cur.i) != (step > 0) {
			return nil, false // past int64
		}
		if step > 0 && (n >= stop || cur.i < start) || step < 0 && (n <= stop || cur.i > start) {
			return nil, true // the range ends (or cur is none of its values)
		}
		return []pyVal{{kind: pyInt, i: n}}, true
	}
	xs, ok := ff.elements(env)
	if !ok {
		return nil, false
	}
	var out []pyVal
	for k := 0; k+1 < len(xs); k++ {
		if pyEqual(xs[k], cur) {
			out = append(out, xs[k+1])
		}
	}
	return out, true
}

// first evaluates the iterable and returns its first element: a str's first
// character, a tuple's or list's first item, a dict's first key, range's start;
// false when it is empty or not known (a set: the order is the hash table's).
func (ff ForFact) first(env func(string) (string, bool)) (pyVal, bool) {
	if ff.Range != nil {
		start, stop, step, ok := ff.rangeArgs(env)
		if !ok || step > 0 && start >= stop || step < 0 && start <= stop {
			return pyVal{}, false // an empty range
		}
		return pyVal{kind: pyInt, i: start}, true
	}
	xs, ok := ff.elements(env)
	if !ok || len(xs) == 0 {
		return pyVal{}, false
	}
	return xs[0], true
}

// rangeArgs evaluates range's arguments: start, stop and step (not zero).
func (ff ForFact) rangeArgs(env func(string) (string, bool)) (start, stop, step int64, ok bool) {
	args := make([]int64, len(ff.Range))
	for i, e := range ff.Range {
		v, ok := evalExpr(e, env)
		if !ok || !v.numeric() {
			return 0, 0, 0, false // range() takes ints (and bools) only
		}
		args[i] = v.i
	}
	start, stop, step = 0, args[0], 1
	if len(args) > 1 {
		start, stop = args[0], args[1]
	}
	if len(args) > 2 {
		step = args[2]
	}
	return start, stop, step, step != 0 // step 0: ValueError
}

// elements evaluates a sequence iterable: a str's characters, a tuple's or list's
// items, a dict's keys in order; false for anything else (a set: the hash table's
// order).
func (ff ForFact) elements(env func(string) (string, bool)) ([]pyVal, bool) {
	v, ok := evalIterable(ff.Expr, env)
	if !ok {
		return nil, false
	}
	switch v.kind {
	case pyStr, pyTuple, pyList:
		return v.elems()
	case pyDict:
		var keys []pyVal
		for i := 0; i < len(v.items); i += 2 {
			keys = append(keys, v.items[i])
		}
		return keys, true
	}
	return nil, false
}
