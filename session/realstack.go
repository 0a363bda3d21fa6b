package session

// StackTeller is implemented by backends that know the real call stack of their
// current state (the recorded backend, which replays a real execution). A session
// shows that stack instead of the one it derives from the states it visited, which
// misses the frames a jump (a breakpoint, a reverse continue) went past.
type StackTeller interface {
	// CallStack returns the current state's frames, innermost first, each with its
	// frame instance as ID and its locals: a caller's are those it had when it made
	// the call, the innermost frame's those of its latest state that had any.
	CallStack() []Frame
}

// callStack is the stack a debugger shows: the backend's real one when it knows it,
// else the derived one.
func callStack(b Backend, derived *stack) []Frame {
	if t, ok := b.(StackTeller); ok {
		if frames := t.CallStack(); len(frames) > 0 {
			return frames
		}
	}
	return derived.snapshot()
}
