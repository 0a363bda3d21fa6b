package grammar

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// randomContext returns a single-file context (with or without a path) or one of
// several files, with lines that hold special-token text, trailing whitespace and blank
// lines.
func randomContext(r *rand.Rand) Context {
	texts := []string{"x = 1", "", "   ", "def f(a, b):", "    return a + b", "s = '<|frame_sep|>'",
		"t = \"<|src_sep|>  3| x = 1\"", "print('é 😀')  ", "\tif x:", "y = {\"..\": \"..\"}", "z = 1 # <|arg_sep|>"}
	nfiles := 1
	if r.IntN(3) == 0 {
		nfiles = 2 + r.IntN(2)
	}
	if nfiles == 1 {
		var b strings.Builder
		for n := 1 + r.IntN(14); n > 0; n-- {
			b.WriteString(texts[r.IntN(len(texts))])
			b.WriteString([]string{"\n", "\r\n", "\r"}[r.IntN(3)])
		}
		path := ""
		if r.IntN(3) == 0 {
			path = "prog.py"
		}
		return NewContext(path, b.String())
	}
	files := make([]ContextFile, nfiles)
	for i := range files {
		files[i].Path = fmt.Sprintf("pkg/m%d.py", i)
		n := 0
		for k := 1 + r.IntN(8); k > 0; k-- {
			n += 1 + r.IntN(3)
			files[i].Lines = append(files[i].Lines, SourceLine{N: n * (1 + 99*r.IntN(2)), Text: texts[r.IntN(len(texts))]})
		}
		// Line numbers may repeat after the scaling above; keep the first of each.
		seen := map[int]bool{}
		kept := files[i].Lines[:0]
		for _, l := range files[i].Lines {
			if !seen[l.N] {
				seen[l.N] = true
				kept = append(kept, l)
			}
		}
		files[i].Lines = kept
	}
	c, err := NewContextFiles(files...)
	if err != nil {
		panic(err)
	}
	return c
}

// randomLocals mutates locals the way a line of Python can: change values, bind new
// names (usually at the end, sometimes before existing ones), delete or reorder.
func randomLocals(r *rand.Rand, prev Locals) Locals {
	l := prev.Clone()
	names := []string{"a", "b", "n", "i", "s", "result", "é", "x\"y", "_", "self", "c"}
	switch r.IntN(10) {
	case 0: // delete one
		if len(l) > 0 {
			k := r.IntN(len(l))
			l = append(l[:k], l[k+1:]...)
		}
	case 1: // insert a new variable at a random place
		name := names[r.IntN(len(names))]
		if _, ok := l.Get(name); !ok {
			k := r.IntN(len(l) + 1)
			l = append(l[:k], append(Locals{{name, randomString(r)}}, l[k:]...)...)
		}
	case 2: // reorder
		r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	case 3, 4: // nothing changes
	default: // change some values, maybe append a new one
		for i := range l {
			if r.IntN(3) == 0 {
				l[i].Repr = randomString(r)
			}
		}
		if r.IntN(2) == 0 {
			name := names[r.IntN(len(names))]
			if _, ok := l.Get(name); !ok {
				l = append(l, Var{name, randomString(r)})
			}
		}
	}
	if l == nil {
		l = Locals{}
	}
	return l
}

// randomTrajectory returns a valid trajectory: random states and actions of one
// direction, frames repeating so that diff forms occur, sometimes ending in an exit.
func randomTrajectory(r *rand.Rand) Trajectory {
	ctx := randomContext(r)
	locs := ctx.Lines()
	dir := Forward
	if r.IntN(3) == 0 {
		dir = Inverse
	}
	events := []Event{EventCall, EventLine, EventLine, EventLine, EventReturn, EventException}
	kinds := []ActionKind{StepInto, StepOver, StepReturn, Breakpoint, Continue}
	if dir == Inverse {
		events = append(events, EventInvLineCall)
		kinds = []ActionKind{InvStepInto, InvStepOver, InvStepCall}
	}
	frame := 1
	var prev State
	state := func(first bool) State {
		s := State{Event: events[r.IntN(len(events))], Loc: locs[r.IntN(len(locs))], Frame: frame}
		if r.IntN(4) == 0 {
			frame = 1 + r.IntN(3)
			s.Frame = frame
		}
		if r.IntN(20) == 0 {
			s.Frame = 0
		}
		switch {
		case s.Event.HasLocals():
			base := prev.Locals
			if first || !prev.Event.HasLocals() {
				base = Locals{{"a", "1"}, {"b", "'x'"}}[:r.IntN(3)]
			}
			s.Locals = randomLocals(r, base)
		case s.Event.HasValue():
			s.Value = randomString(r)
		}
		return s
	}
	t := Trajectory{Context: ctx, Direction: dir}
	t.Start = state(true)
	prev = t.Start
	for n := r.IntN(12); n > 0; n-- {
		a := Action{Kind: kinds[r.IntN(len(kinds))]}
		if a.Kind == Breakpoint {
			for _, i := range r.Perm(len(locs))[:1+r.IntN(min(3, len(locs)))] {
				a.Lines = append(a.Lines, locs[i])
			}
		}
		if n == 1 && r.IntN(3) == 0 {
			t.Steps = append(t.Steps, Step{Action: a, Exit: []Exit{ExitNormal, ExitError, ExitNever}[r.IntN(3)]})
			break
		}
		s := state(false)
		t.Steps = append(t.Steps, Step{Action: a, State: s})
		prev = s
	}
	return t
}
