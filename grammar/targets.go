package grammar

import (
	"slices"
)

// Targets are the states an action may lead to from a state, by the program facts:
// for each event, the code objects and their lines (a state of that event at that
// line, in a frame of that code object), and whether the exit state is allowed. The
// rules are in docs/decisions.md ("Program facts"); they follow the state trees of
// spec sections 2 and 3 (trace/walk.go) over what the facts say can happen.
type Targets struct {
	p    *Program
	Exit bool
	// NeverOnly: the only exit is a run cut off (never): a step, or a step_return,
	// from inside a frame cannot reach the end of the run otherwise (the next state,
	// the next one at its level, the frame's return or final exception come first).
	NeverOnly bool
	// set[ev][code] holds the allowed lines; tins the same lines as sorted tins of
	// their SRC strings' ends.
	set  [EventInvLineCall + 1]map[int]map[int]bool
	tins [EventInvLineCall + 1]map[int][]int32
	have [EventInvLineCall + 1]codeSet
	// prev holds the code objects the state the action starts from can belong to
	// and that have all of its locals: the diff marker (same frame, its locals kept)
	// narrows to them.
	prev codeSet
	// The value facts: the locals of a line state (nil: no rule) and the value of a
	// return at one line (nil: the static facts alone).
	locals *localsRule
	ret    *retOverride
	// callVals: the values of a call state's variables (values_inverse.go; nil: no
	// rule), and which rule set them.
	callVals map[string][]string
	callRule int
	// branch: the branch rule chose what follows prev's line (branch.go).
	branch bool
}

func (p *Program) newTargets() *Targets {
	t := &Targets{p: p}
	for ev := range t.set {
		t.set[ev] = map[int]map[int]bool{}
	}
	return t
}

// add allows a state of event ev at each of lines in a frame of code c.
func (t *Targets) add(ev Event, c int, lines ...int) {
	if len(lines) == 0 {
		return
	}
	m := t.set[ev][c]
	if m == nil {
		m = map[int]bool{}
		t.set[ev][c] = m
	}
	for _, l := range lines {
		if _, ok := t.p.lineTin[l]; ok {
			m[l] = true
		}
	}
}

// Has reports whether the targets allow a state of event ev at line (any code).
func (t *Targets) Has(ev Event, line int) bool {
	for _, m := range t.set[ev] {
		if m[line] {
			return true
		}
	}
	return false
}

// finish sorts the tins and notes which codes have lines per event.
func (t *Targets) finish() *Targets {
	for ev := range t.set {
		t.tins[ev] = map[int][]int32{}
		for c, m := range t.set[ev] {
			if len(m) == 0 {
				continue
			}
			ts := make([]int32, 0, len(m))
			for l := range m {
				ts = append(ts, t.p.lineTin[l])
			}
			slices.Sort(ts)
			t.tins[ev][c] = ts
			t.have[ev].add(c)
		}
	}
	return t
}

// codes are the code objects with a state of event ev allowed.
func (t *Targets) codes(ev Event) codeSet { return t.have[ev] }

// after adds what follows in code c per a.
func (t *Targets) after(c int, a After) {
	t.add(EventLine, c, a.Next...)
	t.add(EventReturn, c, a.Ret...)
	t.add(EventException, c, a.Exc...)
}

// callsFrom adds the call states of what line l of code c can call.
func (t *Targets) callsFrom(c, l int) {
	for _, g := range t.p.calleesOf(c, l) {
		t.add(EventCall, g, t.p.f.Codes[g].CallLines...)
	}
}

// cont adds what can follow a line event at l in code c: the frame's next events and
// the calls the line makes.
func (t *Targets) cont(c, l int) {
	t.after(c, t.p.f.Codes[c].AfterLine[l])
	t.callsFrom(c, l)
}

// open adds every state of the program (of the events in evs).
func (t *Targets) open(evs ...Event) {
	for c, cf := range t.p.f.Codes {
		for _, ev := range evs {
			switch ev {
			case EventCall:
				t.add(ev, c, cf.CallLines...)
			case EventLine, EventInvLineCall:
				t.add(ev, c, cf.Lines...)
			case EventReturn:
				t.add(ev, c, cf.Returns...)
			case EventException:
				t.add(ev, c, cf.AllLines...)
			}
		}
	}
}

var forwardEvents = []Event{EventCall, EventLine, EventReturn, EventException}
var inverseEvents = []Event{EventCall, EventLine, EventReturn, EventException, EventInvLineCall}

// Targets returns the states action a can lead to from prev (nil: the entry of a
// trajectory, where anything of the program goes). A state the facts cannot place (a
// line of no code object) leads to any state of the program.
func (p *Program) Targets(prev *State, a Action) *Targets {
	t := p.newTargets()
	t.Exit = !a.Kind.Inverse()
	if prev == nil || prev.Loc.File != "" {
		t.open(inverseEvents...)
		return t.finish()
	}
	codes := p.codesAt(prev.Event, prev.Loc.Line)
	if prev.Event == EventReturn {
		codes = p.returnedBy(codes, prev.Value)
	}
	for _, c := range codes {
		if p.hasNames(c, prev.Locals) {
			t.prev.add(c)
		}
	}
	if len(codes) == 0 {
		if a.Kind == Breakpoint {
			p.breakpoints(t, a.Lines)
		} else if a.Kind != Continue {
			t.open(inverseEvents...)
		}
		return t.finish()
	}
	l := prev.Loc.Line
	own := -1
	firstStop, first := 0, false // a breakpoint's stop at the first line from the call
	inverseLine := prev.Event == EventLine &&
		(a.Kind == InvStepInto || a.Kind == InvStepOver || a.Kind == InvStepCall)
	callFromReturn := prev.Event == EventReturn && a.Kind == InvStepCall
	atBreakpoint := a.Kind == Breakpoint && prev.Event.HasLocals()
	if a.Kind == StepInto || a.Kind == StepOver || a.Kind == StepReturn || inverseLine || callFromReturn || atBreakpoint {
		// The value facts need the one code object whose frame prev is in.
		for _, c := range codes {
			if t.prev.has(c) {
				if own >= 0 {
					own = -2
					break
				}
				own = c
			}
		}
		switch {
		case own < 0:
		case inverseLine:
			p.inverseValues(t, own, prev, a)
		case atBreakpoint:
			if firstStop, first = p.breakpointFirst(own, prev, a.Lines); first {
				t.locals = localsAtFirstLine(own, prev)
				t.Exit = false // nothing can end the program before the frame's first line
			} else {
				t.locals = p.localsAtBreakpoint(own, prev, a.Lines)
			}
		case callFromReturn:
			if t.callVals = p.callBeforeReturn(own, prev); t.callVals != nil {
				t.callRule = callRuleReturn
			}
		case a.Kind == StepReturn:
			// The return of prev's own frame (or its final exception).
			t.ret = p.retOnReturn(own, prev)
		default:
			t.locals = p.localsAfter(own, prev)
			t.ret = p.retAfter(own, prev)
		}
	}
	t.NeverOnly = (a.Kind == StepInto || a.Kind == StepOver || a.Kind == StepReturn) && prev.Event.HasLocals()
	for _, c := range codes {
		cf := &p.f.Codes[c]
		switch a.Kind {
		case StepInto, StepOver:
			switch prev.Event {
			case EventCall:
				t.after(c, cf.Entry)
				if cf.Loose || a.Kind == StepInto {
					// A resumed generator can call before its first line event.
					for _, m := range cf.AllLines {
						if cf.Loose {
							t.callsFrom(c, m)
						}
					}
				}
			case EventLine:
				var b *After
				if c == own {
					b = p.branchAfter(c, prev)
					if b == nil {
						b = p.forEntry(c, prev)
					}
				}
				if b != nil {
					t.after(c, *b)
					t.branch = true
				} else {
					t.after(c, cf.AfterLine[l])
				}
				if c == own && p.lineDecided(c, prev, b != nil, t.locals) {
					delete(t.set[EventException][c], l) // the line raises nothing
				}
				if a.Kind == StepInto {
					t.callsFrom(c, l)
				}
			case EventReturn:
				for _, s := range p.callersOf(c) {
					t.cont(s.code, s.line)
				}
				p.entryGoesOn(t)
			case EventException:
				x := cf.AfterExc[l]
				t.after(c, x)
				if x.Escapes {
					// The caller reports it at the line of the call, or (a for loop
					// ending on StopIteration, C code that catches it) goes on.
					for _, s := range p.callersOf(c) {
						t.add(EventException, s.code, s.line)
						t.cont(s.code, s.line)
					}
				}
			}
		case StepReturn:
			if prev.Event.HasLocals() && !cf.Loose {
				var b *After
				if c == own && prev.Event == EventLine {
					b = p.branchAfter(c, prev)
				}
				p.returnsAhead(t, c, prev, b)
				continue
			}
			t.add(EventReturn, c, cf.Returns...)
			t.add(EventException, c, cf.AllLines...)
			if prev.Event.HasValue() {
				for _, s := range p.callersOf(c) {
					t.add(EventReturn, s.code, p.f.Codes[s.code].Returns...)
					t.add(EventException, s.code, p.f.Codes[s.code].AllLines...)
				}
			}
		case Breakpoint:
			if c == own && p.breakpointUnreachable(c, prev, a.Lines) {
				continue // only the exit
			}
			if c == own && first {
				t.add(EventLine, c, firstStop) // the frame's first line event: breakpointFirst
				continue
			}
			p.breakpoints(t, a.Lines)
		case Continue:
		case InvStepCall:
			if prev.Event != EventCall {
				t.add(EventCall, c, cf.CallLines...)
				continue
			}
			for _, s := range p.callersOf(c) {
				t.add(EventCall, s.code, p.f.Codes[s.code].CallLines...)
			}
		case InvStepInto, InvStepOver:
			pi := p.preds()
			table := pi.into
			if a.Kind == InvStepOver {
				table = pi.over
				if prev.Event == EventCall {
					// The start of a level: the caller's line that made the call.
					for _, s := range p.callersOf(c) {
						t.add(EventLine, s.code, s.line)
					}
				}
			}
			for _, q := range table[node{prev.Event, l, c}] {
				t.add(q.ev, q.code, q.line)
			}
			if prev.Event == EventInvLineCall && a.Kind == InvStepOver {
				t.add(EventLine, c, l)
			}
			if prev.Event == EventInvLineCall && a.Kind == InvStepInto {
				// A run cut off inside a callee ends with any of its states.
				for _, g := range p.calleesOf(c, l) {
					gf := &p.f.Codes[g]
					t.add(EventCall, g, gf.CallLines...)
					t.add(EventLine, g, gf.Lines...)
					t.add(EventInvLineCall, g, gf.Lines...)
				}
			}
		}
	}
	if t.finish().empty() {
		// Nothing can come before (an inverse step from the first state): let the
		// model say something of the program rather than nothing.
		t.open(inverseEvents...)
		t.finish()
	}
	return t
}

// entryGoesOn adds the calls an open entry expression (Facts.EntryOpen) can make after
// one of its calls returned: any function's. (An exception that leaves a call of the
// entry ends the run: an expression cannot catch it.)
func (p *Program) entryGoesOn(t *Targets) {
	if !p.f.EntryOpen {
		return
	}
	for g, gf := range p.f.Codes {
		if g > 0 {
			t.add(EventCall, g, gf.CallLines...)
		}
	}
}

// empty reports whether the targets allow nothing at all.
func (t *Targets) empty() bool {
	if t.Exit {
		return false
	}
	for _, h := range t.have {
		if !h.empty() {
			return false
		}
	}
	return true
}

// breakpoints adds the line states at the breakpoint lines.
func (p *Program) breakpoints(t *Targets, lines []Loc) {
	for _, b := range lines {
		if b.File != "" {
			continue
		}
		for c := range p.f.Codes {
			if p.lines[c][b.Line] {
				t.add(EventLine, c, b.Line)
			}
		}
	}
}

// node is an abstract state: an event at a line in a frame of a code object.
type node struct {
	ev   Event
	line int
	code int
}

// predIndex holds the inverse relations of the forward order with inv_line_call
// twins (spec section 3): into[P] are the states that can come right before P, over[P]
// those that can come right before P at its level.
type predIndex struct {
	into, over map[node][]node
}

// preds builds the inverse relations on first use.
func (p *Program) preds() *predIndex {
	p.predOnce.Do(p.buildPreds)
	return p.pred
}

func (p *Program) buildPreds() {
	pi := &predIndex{into: map[node][]node{}, over: map[node][]node{}}
	for c, cf := range p.f.Codes {
		var all []node
		for _, l := range cf.CallLines {
			all = append(all, node{EventCall, l, c})
		}
		for _, l := range cf.Lines {
			all = append(all, node{EventLine, l, c}, node{EventInvLineCall, l, c})
		}
		for _, l := range cf.Returns {
			all = append(all, node{EventReturn, l, c})
		}
		for _, l := range cf.AllLines {
			all = append(all, node{EventException, l, c})
		}
		for _, q := range all {
			into, over := p.succTwin(q)
			for _, s := range into {
				pi.into[s] = append(pi.into[s], q)
			}
			for _, s := range over {
				pi.over[s] = append(pi.over[s], q)
			}
		}
	}
	p.pred = pi
}

// succTwin returns what can follow q in forward order with inv_line_call twins, and
// what can follow it at its level.
func (p *Program) succTwin(q node) (into, over []node) {
	cf := &p.f.Codes[q.code]
	after := func(out []node, c int, a After) []node {
		for _, l := range a.Next {
			out = append(out, node{EventLine, l, c})
		}
		for _, l := range a.Ret {
			out = append(out, node{EventReturn, l, c})
		}
		for _, l := range a.Exc {
			out = append(out, node{EventException, l, c})
		}
		return out
	}
	calls := func(out []node, c, l int) []node {
		for _, g := range p.calleesOf(c, l) {
			for _, m := range p.f.Codes[g].CallLines {
				out = append(out, node{EventCall, m, g})
			}
		}
		return out
	}
	switch q.ev {
	case EventCall:
		into = after(nil, q.code, cf.Entry)
		if cf.Loose {
			for _, m := range cf.AllLines {
				into = calls(into, q.code, m)
			}
		}
		over = into
	case EventLine:
		into = calls(after(nil, q.code, cf.AfterLine[q.line]), q.code, q.line)
		over = append(after(nil, q.code, cf.AfterLine[q.line]), node{EventInvLineCall, q.line, q.code})
	case EventInvLineCall:
		into = after(nil, q.code, cf.AfterLine[q.line])
		over = into
	case EventReturn, EventException:
		if q.ev == EventException {
			x := cf.AfterExc[q.line]
			into = after(nil, q.code, x)
			if !x.Escapes {
				return into, into
			}
		}
		for _, s := range p.callersOf(q.code) {
			into = append(into, node{EventInvLineCall, s.line, s.code})
			if q.ev == EventException {
				into = append(into, node{EventException, s.line, s.code})
			}
			into = calls(into, s.code, s.line)
		}
		over = into
	}
	return into, over
}

// hasNames reports whether every local of l is a name of code c.
func (p *Program) hasNames(c int, l Locals) bool {
	cf := &p.f.Codes[c]
	if cf.OpenNames {
		return true
	}
	for _, v := range l {
		if !slices.Contains(cf.Names, v.Name) {
			return false
		}
	}
	return true
}
