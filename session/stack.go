package session

import "github.com/ndb-project/ndb/grammar"

// Frame is one frame of the call stack derived from the history.
type Frame struct {
	Func string
	Loc  grammar.Loc
	// ID is the state's frame instance when the backend knows it, else a number the
	// stack made up; it is stable while the frame is on the stack.
	ID int
	// Locals are the frame's locals when the backend knows them (a caller's are those
	// it had when it made the call above it); nil when it does not.
	Locals grammar.Locals
	// Gap marks the frame that stands for callers nobody predicted: a neural session
	// that jumped (a breakpoint, a step out of a frame it never saw called) knows the
	// frame it landed in, not the chain of calls below it. It has no location.
	Gap bool
}

// GapName is the name a debugger shows for a Gap frame.
const GapName = "(frames not predicted)"

// FuncLookup names the function whose body holds a location (from the tracer's
// parse; no execution). It returns "" for module-level code.
type FuncLookup func(grammar.Loc) string

// stack derives the call stack from the states visited, without running anything:
// entering a call (a call state forward, a return state backward) pushes a frame, and
// the state after leaving one (after a return forward, after a call backward) pops it.
// A state reached by a jump is matched to a frame already on the stack, by frame id
// when the backend knows it (recorded) or else by function name (neural), popping the
// frames above it; a state whose frame is not on the stack is pushed with an unknown
// caller: below it the stack shows one Gap frame, never a caller line it cannot know.
type stack struct {
	frames  []Frame
	lookup  FuncLookup
	nextID  int
	popNext bool
}

func (s *stack) funcOf(st grammar.State) string {
	if st.Func != "" {
		return st.Func
	}
	if s.lookup != nil {
		if f := s.lookup(st.Loc); f != "" {
			return f
		}
	}
	return "<module>"
}

// move moves the stack to the state an action led to.
func (s *stack) move(st grammar.State, a grammar.Action) {
	dir := grammar.Forward
	if a.Kind.Inverse() {
		dir = grammar.Inverse
	}
	s.step(st, dir, a.Kind == grammar.Breakpoint || a.Kind == grammar.Continue)
}

// visit moves the stack to a state reached walking in direction dir.
func (s *stack) visit(st grammar.State, dir grammar.Direction) { s.step(st, dir, false) }

// step moves the stack to a state reached walking in direction dir; jump is set when
// the walk skipped the states between (a breakpoint), so that a call state reached
// is not a callee of the frame the walk left.
func (s *stack) step(st grammar.State, dir grammar.Direction, jump bool) {
	if s.popNext && len(s.frames) > 0 {
		s.frames = s.frames[:len(s.frames)-1]
	}
	fwd := dir != grammar.Inverse
	entering := (fwd && st.Event == grammar.EventCall) || (!fwd && st.Event == grammar.EventReturn)
	s.popNext = (fwd && st.Event == grammar.EventReturn) || (!fwd && st.Event == grammar.EventCall)
	fn := s.funcOf(st)
	k := s.find(fn, st.Frame)
	switch {
	case entering && !jump && (st.Frame == 0 || k < 0) || k < 0 && len(s.frames) == 0:
		s.push(fn, st)
	case k < 0 || entering && jump && st.Frame == 0:
		// Its callers are unknown: keep none of the frames (their lines would be
		// wrong), one Gap frame stands for them.
		s.frames = s.frames[:0]
		if fn != "<module>" { // module-level code has no caller
			s.frames = append(s.frames, Frame{Gap: true, Func: GapName})
		}
		s.push(fn, st)
	default:
		s.frames = s.frames[:k+1]
		s.frames[k].Loc = st.Loc
	}
}

func (s *stack) push(fn string, st grammar.State) {
	id := st.Frame
	if id == 0 {
		s.nextID--
		id = s.nextID
	}
	s.frames = append(s.frames, Frame{Func: fn, Loc: st.Loc, ID: id})
}

// find returns the index of the innermost frame that matches: by id when the state
// has one, else by function name; -1 when none does.
func (s *stack) find(fn string, id int) int {
	for k := len(s.frames) - 1; k >= 0; k-- {
		f := s.frames[k]
		if f.Gap {
			continue
		}
		if (id != 0 && f.ID == id) || (id == 0 && f.Func == fn) {
			return k
		}
	}
	return -1
}

// snapshot returns the frames innermost first, as a debugger shows them.
func (s *stack) snapshot() []Frame {
	out := make([]Frame, len(s.frames))
	for i, f := range s.frames {
		out[len(s.frames)-1-i] = f
	}
	return out
}
