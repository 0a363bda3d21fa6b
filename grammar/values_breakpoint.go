package grammar

import "slices"

// This file is the value facts of a breakpoint (docs/decisions.md, "Value facts of a
// breakpoint"). A breakpoint stops at the first future line event at one of its lines
// in any frame, so what prev's frame keeps says something about the stop only when
// the stop is certainly in that frame: when prev's function has a single frame in the
// run (Facts.EntryCode: the entry expression calls it once and nothing else can) and
// no frame of another code object can reach a breakpoint line first (onlyIn).

// localsAtBreakpoint returns the rule for the line state that a breakpoint on lines
// from prev (a line or call state of a frame of code c) stops at, or nil. A local that
// nothing the frame can still run stores or deletes (the reach of prev's line, or from
// the call every instruction of the code), and not a cell, keeps prev's value when
// the value is immutable or nothing the frame can still run changes an object; the
// names the frame can still store may appear, and those every path has bound at the
// breakpoint lines must (boundAt). Either form may be written: the facts do not know
// which names a path between the two deletes.
func (p *Program) localsAtBreakpoint(c int, prev *State, lines []Loc) *localsRule {
	if !p.singleFrame(c) {
		return nil
	}
	vf := p.valueCode(c)
	if vf == nil || len(lines) == 0 || !p.onlyIn(c, prev, lines) {
		return nil // a frame of another code object can stop there first
	}
	reach, ok := reachFrom(vf, prev)
	if !ok {
		return nil
	}
	cf := &p.f.Codes[c]
	order, _, ok := localsOrder(cf.Names, prev.Locals)
	if !ok {
		return nil
	}
	pure := reach.Pure && p.f.Closed
	r := &localsRule{code: c, forced: map[string][]string{}}
	var kept []Var
	for _, v := range prev.Locals {
		changeable := slices.Contains(reach.Stores, v.Name) ||
			!pure && (slices.Contains(vf.Cells, v.Name) || !p.f.NoClass || !immutableRepr.MatchString(v.Repr)) && !p.untouched(c, v)
		if changeable {
			r.keys = append(r.keys, content(v.Name))
		} else {
			kept = append(kept, v)
		}
	}
	stops := make([]int, len(lines))
	for i, b := range lines {
		stops[i] = b.Line
	}
	// Names that can become bound: those stored, and cells when other code runs;
	// but not a name that no path has bound yet at any stop.
	fresh := slices.Clone(reach.Stores)
	if !pure {
		fresh = append(fresh, vf.Cells...)
	}
	unbound := unboundAt(vf, stops)
	for _, n := range fresh {
		if _, ok := prev.Locals.Get(n); ok || n == "" || n[0] == '.' || slices.Contains(r.keys, content(n)) || slices.Contains(unbound, n) {
			continue
		}
		if _, ok := order[n]; !ok {
			return nil
		}
		r.keys = append(r.keys, content(n))
	}
	r.showKept(kept)
	bound := boundAt(vf, stops)
	r.requireNew(prev, bound)
	r.requirePresent(prev, bound)
	return r
}

// boundAt returns the locals (not cells) that every path from the frame's call has
// bound at a line event at any of lines (LineValues.Bound): bound at whichever of them
// a stop is at.
func boundAt(vf *ValueFacts, lines []int) []string {
	return atEveryStop(vf, lines, func(lv LineValues) []string { return lv.Bound })
}

// unboundAt returns the names that no path from the frame's call has bound yet at a
// line event at any of lines (LineValues.Unbound): unbound at whichever of them a stop
// is at.
func unboundAt(vf *ValueFacts, lines []int) []string {
	return atEveryStop(vf, lines, func(lv LineValues) []string { return lv.Unbound })
}

// atEveryStop returns the names that names(line) holds at every one of lines. Lines
// with no line event in the code are no stops.
func atEveryStop(vf *ValueFacts, lines []int, names func(LineValues) []string) []string {
	var out []string
	first := true
	for _, l := range lines {
		lv, ok := vf.Lines[l]
		if !ok {
			continue
		}
		if first {
			out, first = slices.Clone(names(lv)), false
			continue
		}
		out = slices.DeleteFunc(out, func(n string) bool { return !slices.Contains(names(lv), n) })
	}
	return out
}

// requireNew makes the locals object show the names of bound that prev's frame has not
// bound yet: a change, so either form writes it (required).
func (r *localsRule) requireNew(prev *State, bound []string) {
	for _, n := range bound {
		k := content(n)
		if _, had := prev.Locals.Get(n); had || !slices.Contains(r.keys, k) || slices.Contains(r.required, k) {
			continue
		}
		r.required = append(r.required, k)
	}
}

// requirePresent makes the full form show the names of bound that prev has: still
// bound at the stop.
func (r *localsRule) requirePresent(prev *State, bound []string) {
	for _, n := range bound {
		k := content(n)
		if _, had := prev.Locals.Get(n); !had || !slices.Contains(r.keys, k) || slices.Contains(r.present, k) {
			continue
		}
		r.present = append(r.present, k)
	}
}

// breakpointFirst returns the line a breakpoint on lines stops at from prev, the call
// state of a frame of code c, when that is the frame's first line event: the call
// can lead only to one line (no return or exception comes first), and it is a
// breakpoint line. Nothing runs between the call event and the first line event, so
// the stop is there, with the call's locals (localsAtFirstLine).
func (p *Program) breakpointFirst(c int, prev *State, lines []Loc) (int, bool) {
	if c < 0 || prev.Event != EventCall {
		return 0, false
	}
	cf := &p.f.Codes[c]
	e := cf.Entry
	if cf.Loose || len(e.Next) != 1 || len(e.Ret) != 0 || len(e.Exc) != 0 {
		return 0, false
	}
	for _, b := range lines {
		if b.File == "" && b.Line == e.Next[0] {
			return b.Line, true
		}
	}
	return 0, false
}

// localsAtFirstLine is the rule for the state a breakpoint stops at in the first line
// event of prev's frame (breakpointFirst): prev's locals, every one with its value,
// in the full form a breakpoint's state is written in.
func localsAtFirstLine(c int, prev *State) *localsRule {
	r := &localsRule{code: c, forced: map[string][]string{}, noMarker: true}
	r.showKept(prev.Locals)
	return r
}

// onlyIn reports whether no frame but prev's, of code c, can have the first line event
// at any of lines (all in the program's file): no other code object has a line event
// there, or, from c's call, every other that has one is made only in c's frame at one
// of the lines (madeAtStop), so that its frames come after c's line event there.
func (p *Program) onlyIn(c int, prev *State, lines []Loc) bool {
	fromCall := prev.Event == EventCall && !p.f.Codes[c].Loose
	for _, b := range lines {
		if b.File != "" {
			return false
		}
		for g := range p.f.Codes {
			if g != c && p.lines[g][b.Line] && !(fromCall && p.madeAtStop(g, c, lines)) {
				return false
			}
		}
	}
	return true
}

// madeAtStop reports whether every frame of code g comes after a line event of c's
// frame at one of lines: g, or the code it is nested in up to c, is made only by c's
// instructions at those lines. A line event fires before the first instruction that
// a frame runs on a line, so c's frame stops there before it makes the function.
func (p *Program) madeAtStop(g, c int, lines []Loc) bool {
	for range len(p.f.Codes) {
		cf := &p.f.Codes[g]
		if len(cf.MadeLines) == 0 {
			return false
		}
		if cf.Parent != c {
			g = cf.Parent
			continue
		}
		for _, l := range cf.MadeLines {
			if !slices.ContainsFunc(lines, func(b Loc) bool { return b.File == "" && b.Line == l }) {
				return false
			}
		}
		return true
	}
	return false
}
