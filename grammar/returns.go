package grammar

import "strings"

// This file is about returns (docs/decisions.md, "Program facts"): what a frame can
// still reach from a state (where a step_return from inside it can end, and whether
// a breakpoint in a function with a single frame can still stop), and which frames
// can have returned a value.

// ahead is what the frame of a code object can still do from a state: the lines of
// its line events, and the lines of its return and exception events.
type ahead struct {
	lines, rets, excs map[int]bool
}

// frameAhead walks code c's frame from prev, its call or a line state (through the
// branch that prev's line takes, when the branch rule knows it: branch), following
// its line events and each exception to its handler. False when the facts do not
// know a line on the way.
func (p *Program) frameAhead(c int, prev *State, branch *After) (ahead, bool) {
	cf := &p.f.Codes[c]
	var start After
	switch {
	case branch != nil:
		start = *branch
	case prev.Event == EventCall:
		start = cf.Entry
	default:
		a, ok := cf.AfterLine[prev.Loc.Line]
		if !ok {
			return ahead{}, false
		}
		start = a
	}
	out := ahead{lines: map[int]bool{}, rets: map[int]bool{}, excs: map[int]bool{}}
	todo := []After{start}
	for len(todo) > 0 {
		a := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, r := range a.Ret {
			out.rets[r] = true
		}
		for _, n := range a.Next {
			if out.lines[n] {
				continue
			}
			out.lines[n] = true
			next, ok := cf.AfterLine[n]
			if !ok {
				return ahead{}, false
			}
			todo = append(todo, next)
		}
		for _, x := range a.Exc {
			if out.excs[x] {
				continue
			}
			out.excs[x] = true
			next, ok := cf.AfterExc[x]
			if !ok {
				return ahead{}, false
			}
			todo = append(todo, next)
		}
	}
	return out, true
}

// returnsAhead adds the return and exception states of code c's frame that prev, its
// call or a line state, can still reach (frameAhead); where the walk does not know
// the way, every return and exception of c.
func (p *Program) returnsAhead(t *Targets, c int, prev *State, branch *After) {
	ah, ok := p.frameAhead(c, prev, branch)
	if !ok {
		cf := &p.f.Codes[c]
		t.add(EventReturn, c, cf.Returns...)
		t.add(EventException, c, cf.AllLines...)
		return
	}
	for r := range ah.rets {
		t.add(EventReturn, c, r)
	}
	for x := range ah.excs {
		t.add(EventException, c, x)
	}
}

// breakpointUnreachable reports whether a breakpoint on lines from prev (a call or
// line state of code c) cannot stop at all: c has a single frame (values.go,
// singleFrame), no other frame can stop at the lines first (onlyIn), and the frame
// cannot reach them from prev. The run then ends first (the entry made one call).
func (p *Program) breakpointUnreachable(c int, prev *State, lines []Loc) bool {
	if !p.singleFrame(c) || !prev.Event.HasLocals() || !p.onlyIn(c, prev, lines) {
		return false
	}
	var branch *After
	if prev.Event == EventLine {
		branch = p.branchAfter(c, prev)
	}
	ah, ok := p.frameAhead(c, prev, branch)
	if !ok {
		return false
	}
	for _, b := range lines {
		if ah.lines[b.Line] {
			return false
		}
	}
	return true
}

// compStarts are the bytes the repr of what a comprehension returns starts with ("<"
// for a repr that failed).
var compStarts = map[string]string{"<listcomp>": "[<", "<setcomp>": "{s<", "<dictcomp>": "{<"}

// returnedBy keeps the codes whose frame can return the value whose repr is value:
// a list, set or dict comprehension returns what it built, so a return of another
// kind at its line is its function's (CruxEval's input task starts at such a return).
func (p *Program) returnedBy(codes []int, value string) []int {
	out := codes[:0:0]
	for _, c := range codes {
		cf := &p.f.Codes[c]
		if starts, ok := compStarts[cf.Name]; ok && cf.Kind == "comprehension" &&
			(value == "" || !strings.ContainsRune(starts, rune(value[0]))) {
			continue
		}
		out = append(out, c)
	}
	return out
}
