package grammar

import "strings"

// This file is the assignment rule reversed (docs/decisions.md, "Assignment facts"):
// before a line state P whose only possible previous line in the frame is `NAME +=
// BY` or `NAME -= BY`, NAME held P's value with the step undone. BY does not read NAME
// and the line stores nothing else, so BY has the same value on P's locals.

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
