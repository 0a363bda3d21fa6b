package grammar

import "slices"

// This file is the loop rule (docs/decisions.md, "Assignment facts"): after a line
// state at a `for NAME in EXPR:` (or `for A, B in EXPR:`) header, the values the loop
// variables can hold in the next line state of the frame (forNext).

// ForFact is a `for NAME in EXPR:` header (trace/analyze.py, _fors), or with Names a
// `for A, B, ... in EXPR:` header that unpacks each element: EXPR as ast.unparse
// writes it, or the arguments of `range(...)`; the names the header reads; and
// Again: the loop's body stores neither the variables nor any of those names.
type ForFact struct {
	Name  string   `json:"name"`
	Names []string `json:"names"`
	Expr  string   `json:"expr"`
	Range []string `json:"range"`
	Reads []string `json:"reads"`
	Again bool     `json:"again"`
}

// loopVar is a loop variable and the reprs it can hold in the next line state.
type loopVar struct {
	name  string
	reprs []string
}

// targets are the header's variables: Name, or Names.
func (ff ForFact) targets() []string {
	if ff.Names != nil {
		return ff.Names
	}
	return []string{ff.Name}
}

// forNext returns the loop variables at prev's line (a line state of a frame of code
// c, at a `for` header) and the reprs each can hold in the next line state of the
// frame: when one is unbound, the loop starts, so the first element (none when the
// iterable is empty: then the variables are absent); when they are bound and the
// body changes neither them nor what the header reads (all immutable values), the
// first element (a loop entered again), the element after each one equal to the
// variables' (the next pass) and their own values (the loop ends). A header that
// unpacks gives each variable its part of those elements. False when not known or
// when more than eight.
func (p *Program) forNext(c int, prev *State) ([]loopVar, bool) {
	ff, ok := p.f.Codes[c].Fors[prev.Loc.Line]
	if !ok || !p.evaluable(c, prev) {
		return nil, false
	}
	env := prev.Locals.Get
	names := ff.targets()
	var cur []pyVal
	for _, n := range names {
		r, bound := env(n)
		if !bound {
			cur = nil
			break
		}
		v, ok := parseRepr(r)
		if !ok {
			return nil, false
		}
		cur = append(cur, v)
	}
	var vals []pyVal
	if cur == nil {
		first, ok := ff.first(env)
		if !ok {
			return nil, false
		}
		vals = []pyVal{first}
	} else {
		if !ff.Again {
			return nil, false // perhaps a later pass whose iterator the state does not show
		}
		for _, n := range ff.Reads {
			if r, ok := env(n); !ok || !immutableRepr.MatchString(r) {
				return nil, false
			}
		}
		next, ok := ff.after(cur, env)
		if !ok {
			return nil, false
		}
		if first, ok := ff.first(env); ok {
			vals = append(vals, first)
		}
		vals = append(vals, next...)
	}
	out := make([]loopVar, len(names))
	for k, n := range names {
		out[k].name = n
		var parts []pyVal
		for _, v := range vals {
			part, ok := ff.part(v, k, len(names))
			if !ok {
				return nil, false
			}
			parts = append(parts, part)
		}
		if cur != nil {
			parts = append(parts, cur[k]) // the loop ends: the variables keep their values
		}
		for _, part := range parts {
			r, ok := part.repr()
			if !ok || len(r) > maxConstRepr {
				return nil, false
			}
			if !slices.Contains(out[k].reprs, r) {
				out[k].reprs = append(out[k].reprs, r)
			}
		}
		if len(out[k].reprs) > 8 {
			return nil, false
		}
	}
	return out, true
}

// part is the k-th of n variables' part of element v: v itself for one variable, else
// v unpacked (false when it does not unpack to n).
func (ff ForFact) part(v pyVal, k, n int) (pyVal, bool) {
	if ff.Names == nil {
		return v, true
	}
	xs, ok := v.elems()
	if !ok || len(xs) != n {
		return pyVal{}, false // ValueError or TypeError: the loop raises
	}
	return xs[k], true
}

// after returns the elements the iterator yields after one that gave the variables
// the values cur: the next of a range, or the element after each such element of a
// sequence.
func (ff ForFact) after(cur []pyVal, env func(string) (string, bool)) ([]pyVal, bool) {
	if ff.Range != nil {
		start, stop, step, ok := ff.rangeArgs(env)
		if len(cur) != 1 || !ok || !cur[0].numeric() {
			return nil, false
		}
		n := cur[0].i + step
		if (n > cur[0].i) != (step > 0) {
			return nil, false // past int64
		}
		if step > 0 && (n >= stop || cur[0].i < start) || step < 0 && (n <= stop || cur[0].i > start) {
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
		if ff.gives(xs[k], cur) {
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

// gives reports whether element v gives the loop variables the values cur.
func (ff ForFact) gives(v pyVal, cur []pyVal) bool {
	for k := range cur {
		part, ok := ff.part(v, k, len(cur))
		if !ok || !pyEqual(part, cur[k]) {
			return false
		}
	}
	return true
}

// forEntry is the successor of prev's line when it is the `for` header of a loop
// that starts (its variables unbound in a frame of code c) over an iterable that the
// state shows has a first element: the body's first line, the header's nearest
// successor below it (the loop's exit is after the body, or an enclosing loop's
// header above it). Nil when not known, or when the body shares the header's line.
func (p *Program) forEntry(c int, prev *State) *After {
	cf := &p.f.Codes[c]
	l := prev.Loc.Line
	ff, ok := cf.Fors[l]
	if !ok || !p.evaluable(c, prev) {
		return nil
	}
	for _, n := range ff.targets() {
		if _, bound := prev.Locals.Get(n); bound {
			return nil
		}
	}
	if _, ok := ff.first(prev.Locals.Get); !ok {
		return nil
	}
	body := 0
	for _, m := range cf.AfterLine[l].Next {
		if m == l {
			return nil
		}
		if m > l && (body == 0 || m < body) {
			body = m
		}
	}
	if body == 0 {
		return nil
	}
	return &After{Next: []int{body}}
}
