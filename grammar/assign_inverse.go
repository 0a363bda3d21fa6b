package grammar

import (
	"slices"
	"strings"
)

// This file is the assignment rule reversed (docs/decisions.md, "Assignment facts"):
// before a line state P whose only possible previous line in the frame is `NAME +=
// BY` or `NAME -= BY` (or `NAME.append(X)`, `NAME.extend(X)`, `NAME.insert(I, X)`,
// `NAME.reverse()`), NAME held P's value with the step undone. BY (X, I) does not read
// NAME and the line stores nothing else, so BY has the same value on P's locals.

// undoBefore returns the name and the reprs NAME can have had at the line state before
// prev (a line state of a frame of code c) when every line state that can come right
// before prev in the frame (preds) is at one such line, and the step can be undone:
// an int minus (or plus) an int, or a str without the str suffix it was given. An int
// 0 or 1 may have been False or True (True + 1 == 2): both are given.
func (p *Program) undoBefore(c int, prev *State, preds []node) (name string, reprs []string, ok bool) {
	if !p.evaluable(c, prev) {
		return "", nil, false
	}
	line := -1
	for _, q := range preds {
		if q.ev != EventLine || q.code != c {
			continue
		}
		if line >= 0 && q.line != line {
			return "", nil, false
		}
		line = q.line
	}
	as, ok := p.f.Codes[c].Assigns[line]
	if line < 0 || !ok || as.Undo == nil {
		return "", nil, false
	}
	env := prev.Locals.Get
	cur, ok := env(as.Name)
	if !ok {
		return "", nil, false
	}
	after, ok := parseRepr(cur)
	if !ok {
		return "", nil, false
	}
	if as.Undo.Op != "+" && as.Undo.Op != "-" {
		before, ok := as.unmutate(after, env)
		if !ok {
			return "", nil, false
		}
		r, ok := before.repr()
		if !ok || len(r) > maxConstRepr {
			return "", nil, false
		}
		return as.Name, []string{r}, true
	}
	by, ok := evalExpr(as.Undo.By, env)
	if !ok {
		return "", nil, false
	}
	var before pyVal
	switch {
	case after.kind == pyInt && by.numeric():
		op := "-" // the value before: after - by (after += by), after + by (after -= by)
		if as.Undo.Op == "-" {
			op = "+"
		}
		v, ok := pyBin{op: op, l: pyConst{after}, r: pyConst{by}}.eval(env)
		if !ok {
			return "", nil, false
		}
		before = v
	case after.kind == pyStr && by.kind == pyStr && as.Undo.Op == "+" && strings.HasSuffix(after.s, by.s):
		before = pyVal{kind: pyStr, s: strings.TrimSuffix(after.s, by.s)}
	default:
		return "", nil, false
	}
	r, ok := before.repr()
	if !ok || len(r) > maxConstRepr {
		return "", nil, false
	}
	reprs = []string{r}
	if before.kind == pyInt && (before.i == 0 || before.i == 1) {
		reprs = append(reprs, map[int64]string{0: "False", 1: "True"}[before.i])
	}
	return as.Name, reprs, true
}

// unmutate undoes an in-place list method on after, NAME's list in P: the value the
// list had before the line, when the method's arguments (which do not read NAME)
// hold values that show what the call put in. A value put in must hold no list,
// dict or set, and must not equal the list itself (it could be an alias of it, which
// the call changed too).
func (as AssignFact) unmutate(after pyVal, env func(string) (string, bool)) (pyVal, bool) {
	if after.kind != pyList {
		return pyVal{}, false
	}
	args := []string{as.Append}
	if as.Append == "" {
		args = as.Args
	}
	vals := make([]pyVal, 0, len(args))
	for _, e := range args {
		v, ok := evalExpr(e, env)
		if !ok || pyEqual(v, after) {
			return pyVal{}, false
		}
		vals = append(vals, v)
	}
	items, n := after.items, len(after.items)
	op := as.Undo.Op
	switch {
	case op == "reverse" && len(vals) == 0:
		out := slices.Clone(items)
		slices.Reverse(out)
		return pyVal{kind: pyList, items: out}, true
	case op == "append" && len(vals) == 1 && vals[0].scalars() && n > 0 && pyEqual(items[n-1], vals[0]):
		return pyVal{kind: pyList, items: slices.Clone(items[:n-1])}, true
	case op == "extend" && len(vals) == 1:
		xs, ok := vals[0].iterItems()
		if !ok || !allScalars(xs) || len(xs) > n {
			return pyVal{}, false
		}
		for k, x := range xs {
			if !pyEqual(items[n-len(xs)+k], x) {
				return pyVal{}, false
			}
		}
		return pyVal{kind: pyList, items: slices.Clone(items[:n-len(xs)])}, true
	case op == "insert" && len(vals) == 2 && vals[0].numeric() && vals[1].scalars() && n > 0:
		i, m := vals[0].i, int64(n-1) // the index as list.insert clamped it, on the old length
		if i < 0 {
			i = max(i+m, 0)
		}
		i = min(i, m)
		if !pyEqual(items[i], vals[1]) {
			return pyVal{}, false
		}
		return pyVal{kind: pyList, items: slices.Delete(slices.Clone(items), int(i), int(i)+1)}, true
	}
	return pyVal{}, false
}
