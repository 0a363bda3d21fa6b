package grammar

// This file narrows where a step_return from inside a frame ends (docs/decisions.md,
// "Program facts"): at a return or an exception the frame can still reach.

// returnsAhead adds the return and exception states of code c's frame that prev, its
// call or a line state, can still reach: the walk follows the frame's line events
// from prev (through the branch that prev's line takes, when the branch rule knows
// it) and each exception to its handler. A line the facts do not know opens every
// return and exception of c.
func (p *Program) returnsAhead(t *Targets, c int, prev *State, branch *After) {
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
			t.add(EventReturn, c, cf.Returns...)
			t.add(EventException, c, cf.AllLines...)
			return
		}
		start = a
	}
	seenLine, seenExc := map[int]bool{}, map[int]bool{}
	todo := []After{start}
	for len(todo) > 0 {
		a := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		t.add(EventReturn, c, a.Ret...)
		t.add(EventException, c, a.Exc...)
		for _, n := range a.Next {
			if seenLine[n] {
				continue
			}
			seenLine[n] = true
			next, ok := cf.AfterLine[n]
			if !ok {
				t.add(EventReturn, c, cf.Returns...)
				t.add(EventException, c, cf.AllLines...)
				return
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
				t.add(EventReturn, c, cf.Returns...)
				t.add(EventException, c, cf.AllLines...)
				return
			}
			todo = append(todo, next)
		}
	}
}
