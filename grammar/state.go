package grammar

// Equal reports whether two variable lists hold the same variables in the same order
// (nil and empty are equal).
func (l Locals) Equal(o Locals) bool {
	if len(l) != len(o) {
		return false
	}
	for i := range l {
		if l[i] != o[i] {
			return false
		}
	}
	return true
}

// Equal reports whether two states are the same as far as the language can tell: same
// Event, Loc, Locals (as an ordered list; nil and empty are equal) and Value. Frame and
// Func are not serialized and are ignored, so a state equals the one decoded from its
// encoding (in a single-file context write Loc.File as "", as decoding does).
func (s State) Equal(o State) bool {
	return s.Event == o.Event && s.Loc == o.Loc && s.Value == o.Value && s.Locals.Equal(o.Locals)
}

// Equal reports whether two steps are the same: equal actions and either the same exit
// or equal states (see State.Equal).
func (s Step) Equal(o Step) bool {
	if !s.Action.Equal(o.Action) || s.Exit != o.Exit {
		return false
	}
	return s.Exit != "" || s.State.Equal(o.State)
}

// Equal reports whether two trajectories are the same: equal contexts (Context.Equal),
// direction, start state and steps (Step.Equal).
func (t Trajectory) Equal(o Trajectory) bool {
	if t.Direction != o.Direction || !t.Context.Equal(o.Context) || !t.Start.Equal(o.Start) || len(t.Steps) != len(o.Steps) {
		return false
	}
	for i := range t.Steps {
		if !t.Steps[i].Equal(o.Steps[i]) {
			return false
		}
	}
	return true
}
