package session

import "github.com/ndb-project/ndb/grammar"

// Frame is one frame of the call stack derived from the history.
type Frame struct {
	Func string
	Loc  grammar.Loc
	// ID is the state's frame instance when the backend knows it, else a number the
	// stack made up; it is stable while the frame is on the stack.
	ID int
}

// FuncLookup names the function whose body holds a location (from the tracer's
// parse; no execution). It returns "" for module-level code.
type FuncLookup func(grammar.Loc) string

// stack derives the call stack from the states visited, without running anything:
// entering a call (a call state forward, a return state backward) pushes a frame, and
// the state after leaving one (after a return forward, after a call backward) pops it.
// A state reached by a jump is matched to a frame already on the stack, by frame id
// when the backend knows it (recorded) or else by function name (neural), popping the
// frames above it; a state whose frame is not on the stack is pushed with an unknown
// caller.
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

// visit moves the stack to a state reached walking in direction dir.
func (s *stack) visit(st grammar.State, dir grammar.Direction) {
	if s.popNext && len(s.frames) > 0 {
		s.frames = s.frames[:len(s.frames)-1]
	}
	fwd := dir != grammar.Inverse
	entering := (fwd && st.Event == grammar.EventCall) || (!fwd && st.Event == grammar.EventReturn)
	s.popNext = (fwd && st.Event == grammar.EventReturn) || (!fwd && st.Event == grammar.EventCall)
	fn := s.funcOf(st)
	k := s.find(fn, st.Frame)
	if entering && (st.Frame == 0 || k < 0) || k < 0 {
		s.push(fn, st)
		return
	}
	s.frames = s.frames[:k+1]
	s.frames[k].Loc = st.Loc
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
