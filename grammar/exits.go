package grammar

// This file decides which exit states an action can reach (docs/decisions.md, "Exit
// facts"). Every forward action may end the run when it is cut off (never); the
// normal and error exits need the run to get past the end of the trace first.

// exits sets t.NeverOnly and t.NoNormal for action a from prev, a state of a frame of
// code own (-1 or less: not known).
func (p *Program) exits(t *Targets, own int, prev *State, a Action) {
	switch a.Kind {
	case StepInto, StepOver, StepReturn:
		// Inside a frame, the next state, the next one at its level and the frame's
		// return or final exception all come before the end of the run.
		t.NeverOnly = prev.Event.HasLocals()
	case Breakpoint:
		t.NoNormal = own >= 0 && prev.Event.HasLocals() && p.stopsBeforeReturn(own, prev, a.Lines)
	}
}

// stopsBeforeReturn reports whether every way the frame of code c, from prev (its call
// or a line state), can return normally passes a line event at one of lines first.
// Then a breakpoint on those lines stops before the run exits normally: when c has a
// single frame (Facts.EntryCode), an exception that leaves it ends the run with an
// error, and no line can raise SystemExit, the one exception a run reports as a
// normal exit (Facts.NoSystemExit). The walk follows the frame's line events, the
// exceptions of each line to their handlers, and stops at the breakpoint lines;
// what a callee runs comes back to c as a return to the calling line or as an
// exception at it.
func (p *Program) stopsBeforeReturn(c int, prev *State, lines []Loc) bool {
	if !p.f.NoSystemExit || !p.singleFrame(c) || prev.Loc.File != "" {
		return false
	}
	cf := &p.f.Codes[c]
	stop := map[int]bool{}
	for _, b := range lines {
		if b.File == "" {
			stop[b.Line] = true
		}
	}
	var todo []After
	switch prev.Event {
	case EventCall:
		todo = append(todo, cf.Entry)
	case EventLine:
		a, ok := cf.AfterLine[prev.Loc.Line]
		if !ok {
			return false
		}
		todo = append(todo, a)
	default:
		return false
	}
	seenLine, seenExc := map[int]bool{}, map[int]bool{}
	for len(todo) > 0 {
		a := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if len(a.Ret) > 0 {
			return false
		}
		for _, n := range a.Next {
			if stop[n] || seenLine[n] {
				continue
			}
			seenLine[n] = true
			next, ok := cf.AfterLine[n]
			if !ok {
				return false
			}
			todo = append(todo, next)
		}
		for _, x := range a.Exc {
			if seenExc[x] {
				continue
			}
			seenExc[x] = true
			next, ok := cf.AfterExc[x]
			if !ok {
				return false
			}
			todo = append(todo, next)
		}
	}
	return true
}
