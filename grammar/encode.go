package grammar

import (
	"errors"
	"fmt"
)

// Encoder writes one trajectory piece by piece, in the exact byte form of spec section
// 5: Start first (the context, the direction and the entry state), then for every step
// Action and either State or Exit (or Step for both). Each call returns only the bytes
// it adds, so the concatenation of all results is the trajectory's text, and a prompt
// can end right after an action. A call that fails changes nothing, so the caller may
// retry with corrected input. The zero Encoder is not usable; call NewEncoder.
//
// The encoder remembers the previous state and the pending action to choose between
// the full and the diff form of locals (see State).
type Encoder struct {
	ix  *contextIndex
	dir Direction

	started bool
	done    bool
	prev    State
	pending bool
	action  Action
}

// NewEncoder returns an encoder for a trajectory over ctx in direction dir. Problems
// with ctx or dir are reported by Start.
func NewEncoder(ctx Context, dir Direction) *Encoder {
	return &Encoder{ix: ctx.index(), dir: dir}
}

// Prev returns the last state written (the one the next action starts from), and false
// before Start.
func (e *Encoder) Prev() (State, bool) { return e.prev, e.started }

// Done reports whether the trajectory has ended with an exit state.
func (e *Encoder) Done() bool { return e.done }

// Start returns `<|trace_context_start|>` CONTEXT DIRECTION followed by the entry
// state s, always with full locals. It may be called once.
func (e *Encoder) Start(s State) (string, error) {
	b, err := e.appendStart(nil, s)
	return string(b), err
}

// Action returns the text of action a (`<|action_sep|>` and the action's token, and
// for a breakpoint the SRC of each location separated by `<|src_sep|>`). It must follow
// Start or a state, and be followed by State or Exit. Forward trajectories take forward
// actions only, inverse ones inverse actions only.
func (e *Encoder) Action(a Action) (string, error) {
	b, err := e.appendAction(nil, a)
	return string(b), err
}

// State returns the text of state s, the result of the pending action. Call and line
// states carry LOCALS in full or in the diff form (spec section 5): the diff form shows
// only the variables whose repr changed or that are new (in s's order), and ends with
// the marker `"..": ".."` when unchanged variables were left out. It is used when all
// of these hold: s is a line state (call states are always full); the previous state
// has locals (call or line) and the same non-zero Frame as s; the pending action is not
// a breakpoint; no variable of the previous state is missing from s; and (decision)
// the previous state's variables are, in their order, the first variables of s. A diff
// cannot say where a new variable goes (decoding appends new variables after the known
// ones), so when f_locals puts a new variable before existing ones the full form is
// written instead, which keeps every round trip exact. Otherwise the full form is
// written. A diff with nothing changed and nothing left out is `{}`.
func (e *Encoder) State(s State) (string, error) {
	b, err := e.appendState(nil, s)
	return string(b), err
}

// Exit returns the exit state text `<|exit_sep|>` EXIT `<|frame_sep|>`, the result of
// the pending action. It ends the trajectory.
func (e *Encoder) Exit(x Exit) (string, error) {
	b, err := e.appendExit(nil, x)
	return string(b), err
}

// Step returns the text of a whole step: its action and then its exit state when
// st.Exit is set (st.State must then be the zero State), otherwise its state.
func (e *Encoder) Step(st Step) (string, error) {
	b, err := e.appendStep(nil, st)
	return string(b), err
}

// EncodeTrajectory returns the text of a trajectory: `<|trace_context_start|>` CONTEXT
// DIRECTION STATE (ACTION STATE)* [ACTION EXIT]. Only the last step may be an exit. See
// Encoder for the rules; a location missing from the context, an action of the wrong
// direction, an invalid event or exit, or a malformed state is an error.
func EncodeTrajectory(t Trajectory) (string, error) {
	b, err := AppendTrajectory(nil, t)
	return string(b), err
}

// EncodePrompt returns the text of t followed by action a: the prompt from which the
// model writes the state that a leads to.
func EncodePrompt(t Trajectory, a Action) (string, error) {
	e := NewEncoder(t.Context, t.Direction)
	b, err := e.appendStart(nil, t.Start)
	if err != nil {
		return "", err
	}
	for i, st := range t.Steps {
		if b, err = e.appendStep(b, st); err != nil {
			return "", fmt.Errorf("grammar: step %d: %w", i, err)
		}
	}
	if b, err = e.appendAction(b, a); err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendTrajectory appends the text of t to dst (see EncodeTrajectory), so one buffer
// can be reused when encoding many trajectories. On error dst is returned unchanged.
func AppendTrajectory(dst []byte, t Trajectory) ([]byte, error) {
	e := NewEncoder(t.Context, t.Direction)
	b, err := e.appendStart(dst, t.Start)
	if err != nil {
		return dst, err
	}
	for i, st := range t.Steps {
		if b, err = e.appendStep(b, st); err != nil {
			return dst, fmt.Errorf("grammar: step %d: %w", i, err)
		}
	}
	return b, nil
}

func (e *Encoder) appendStart(b []byte, s State) ([]byte, error) {
	if e.started {
		return b, errors.New("grammar: Start called twice")
	}
	if e.ix.err != nil {
		return b, e.ix.err
	}
	if !e.dir.Valid() {
		return b, fmt.Errorf("grammar: invalid direction %d", e.dir)
	}
	n := len(b)
	b = append(b, TokenTraceContextStart...)
	b = append(b, e.ix.text...)
	b = append(b, e.dir.Token()...)
	b, err := e.appendStateText(b, s, false)
	if err != nil {
		return b[:n], fmt.Errorf("grammar: start state: %w", err)
	}
	e.started = true
	e.prev = s
	return b, nil
}

func (e *Encoder) appendStep(b []byte, st Step) ([]byte, error) {
	n := len(b)
	b, err := e.appendAction(b, st.Action)
	if err != nil {
		return b, err
	}
	if st.Exit != "" {
		if st.State.Event != 0 {
			err = errors.New("grammar: a step has both a state and an exit")
		} else {
			b, err = e.appendExit(b, st.Exit)
		}
	} else {
		b, err = e.appendState(b, st.State)
	}
	if err != nil {
		e.pending = false
		return b[:n], err
	}
	return b, nil
}

func (e *Encoder) appendAction(b []byte, a Action) ([]byte, error) {
	switch {
	case !e.started:
		return b, errors.New("grammar: an action before the start state")
	case e.done:
		return b, errors.New("grammar: an action after the exit state")
	case e.pending:
		return b, errors.New("grammar: two actions in a row")
	}
	if err := a.Validate(); err != nil {
		return b, err
	}
	if a.Kind.Inverse() != (e.dir == Inverse) {
		return b, fmt.Errorf("grammar: action %s in a %s trajectory", a.Kind, e.dir)
	}
	n := len(b)
	b = append(b, TokenActionSep...)
	b = append(b, a.Kind.Token()...)
	for i, l := range a.Lines {
		src, ok := e.ix.srcOf(l)
		if !ok {
			return b[:n], fmt.Errorf("grammar: breakpoint location %s is not in the context", l)
		}
		c, _ := e.ix.canon(l)
		for _, m := range a.Lines[:i] {
			if mc, _ := e.ix.canon(m); mc == c {
				return b[:n], fmt.Errorf("grammar: breakpoint line %s appears twice", l)
			}
		}
		if i > 0 {
			b = append(b, TokenSrcSep...)
		}
		b = append(b, src...)
	}
	e.pending = true
	e.action = a
	return b, nil
}

func (e *Encoder) appendState(b []byte, s State) ([]byte, error) {
	if !e.pending {
		return b, errors.New("grammar: a state without an action before it")
	}
	diff := s.Event == EventLine && e.prev.Event.HasLocals() && e.prev.Frame != 0 &&
		e.prev.Frame == s.Frame && e.action.Kind != Breakpoint
	b, err := e.appendStateText(b, s, diff)
	if err != nil {
		return b, err
	}
	e.pending = false
	e.prev = s
	return b, nil
}

func (e *Encoder) appendExit(b []byte, x Exit) ([]byte, error) {
	if !e.pending {
		return b, errors.New("grammar: an exit state without an action before it")
	}
	if !x.Valid() {
		return b, fmt.Errorf("grammar: invalid exit state %q", x)
	}
	b = append(b, TokenExitSep...)
	b = append(b, x...)
	b = append(b, TokenFrameSep...)
	e.pending = false
	e.done = true
	return b, nil
}

// appendStateText writes state s; diff says the diff form is allowed (the remaining
// conditions, on the variables, are checked here).
func (e *Encoder) appendStateText(b []byte, s State, diff bool) ([]byte, error) {
	tok := s.Event.Token()
	if tok == "" {
		return b, fmt.Errorf("grammar: invalid event %d", s.Event)
	}
	if s.Event == EventInvLineCall && e.dir != Inverse {
		return b, errors.New("grammar: an inv_line_call state in a forward trajectory")
	}
	if !s.Event.HasLocals() && len(s.Locals) > 0 {
		return b, fmt.Errorf("grammar: a %s state has no locals, but %d are set", s.Event, len(s.Locals))
	}
	if !s.Event.HasValue() && s.Value != "" {
		return b, fmt.Errorf("grammar: a %s state has no value, but one is set", s.Event)
	}
	src, ok := e.ix.srcOf(s.Loc)
	if !ok {
		return b, fmt.Errorf("grammar: %s state location %s is not in the context", s.Event, s.Loc)
	}
	n := len(b)
	b = append(b, tok...)
	if s.Event.HasLocals() {
		var err error
		if diff && isExtension(e.prev.Locals, s.Locals) {
			b, err = appendDiff(b, e.prev.Locals, s.Locals)
		} else {
			b, err = AppendLocals(b, s.Locals, false)
		}
		if err != nil {
			return b[:n], err
		}
	}
	b = append(b, TokenSrcSep...)
	b = append(b, src...)
	if s.Event.HasValue() {
		b = append(b, TokenArgSep...)
		b = AppendQuoteJSON(b, s.Value)
	}
	return append(b, TokenFrameSep...), nil
}

// isExtension reports whether cur starts with exactly prev's variable names, in order:
// then no variable disappeared and merging a diff (changed in place, new appended)
// gives cur's order back.
func isExtension(prev, cur Locals) bool {
	if len(cur) < len(prev) {
		return false
	}
	for i, v := range prev {
		if cur[i].Name != v.Name {
			return false
		}
	}
	return true
}

// appendDiff writes the diff form of cur against prev (isExtension(prev, cur) holds):
// the changed and the new variables in cur's order, then the marker when any variable
// was left out.
func appendDiff(b []byte, prev, cur Locals) ([]byte, error) {
	if err := checkNames(cur); err != nil {
		return b, err
	}
	b = append(b, '{')
	first, left := true, false
	for i, v := range cur {
		if i < len(prev) && prev[i].Repr == v.Repr {
			left = true
			continue
		}
		if !first {
			b = append(b, ',', ' ')
		}
		first = false
		b = AppendQuoteJSON(b, v.Name)
		b = append(b, ':', ' ')
		b = AppendQuoteJSON(b, v.Repr)
	}
	if left {
		if !first {
			b = append(b, ',', ' ')
		}
		b = append(b, diffMarkerEntry...)
	}
	return append(b, '}'), nil
}
