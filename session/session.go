package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ndb-project/ndb/grammar"
)

// Step is one action of the session's history and what it led to.
type Step struct {
	Action  grammar.Action
	Outcome Outcome
}

// Session is one debugging session: the backend it steps, the history of actions and
// outcomes, the call stack derived from them, each frame's latest locals, the
// breakpoints and exception filters, and the step limit. Its methods are safe for
// concurrent use; actions run one at a time, and the settings (SetBreakpoints,
// SetFilters) can be changed while one runs: they apply from the next Run.
type Session struct {
	mu      sync.Mutex
	backend Backend
	started bool
	current Outcome
	history []Step
	stack   stack
	// Set by Open before the session is shared, then never changed: read without mu
	// (zero for a session made with New).
	prog       *Program
	mode       Mode
	cmp        *Compare
	executable map[int]bool
	maxSteps   int
	// actions counts the backend actions taken, against maxSteps.
	actions int
	// frames keeps, per thread, the latest state with locals of every frame instance
	// visited: the locals shown for caller frames and for states that carry none
	// (return, exception, inv_line_call).
	frames [threadCount]map[int]grammar.State
	// lastStop is where the latest Run stopped (the uncaught filter reads it).
	lastStop Stop

	// cfgMu guards the settings, which never wait for an action in flight.
	cfgMu       sync.Mutex
	breakpoints []grammar.Loc
	filters     Filters
}

// New returns a session over a backend, not started. lookup names the function of a
// location for the derived call stack (may be nil). Open is the constructor front
// ends use: it reads the program and builds the backend of a mode.
func New(b Backend, lookup FuncLookup) *Session {
	s := &Session{backend: b, stack: stack{lookup: lookup}, executable: map[int]bool{}}
	for i := range s.frames {
		s.frames[i] = map[int]grammar.State{}
	}
	return s
}

// Start asks the backend for the entry state.
func (s *Session) Start(ctx context.Context) (grammar.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return s.current.State, nil
	}
	st, err := s.backend.Entry(ctx)
	if err != nil {
		return grammar.State{}, err
	}
	s.started = true
	s.current = Outcome{State: st}
	s.stack.visit(st, grammar.Forward)
	s.remember()
	return st, nil
}

// Do applies an action. Forward actions after the program ended return ErrEnded;
// reverse actions are still allowed then (they walk back into the execution). Once
// the session took its MaxSteps actions, Do returns ErrMaxSteps.
func (s *Session) Do(ctx context.Context, a grammar.Action) (Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		return Outcome{}, errors.New("the session has not started")
	}
	if err := a.Validate(); err != nil {
		return Outcome{}, err
	}
	if s.current.Ended() && !a.Kind.Inverse() {
		return Outcome{}, ErrEnded
	}
	if s.maxSteps > 0 && s.actions >= s.maxSteps {
		return Outcome{}, ErrMaxSteps
	}
	out, err := s.backend.Do(ctx, a)
	if err != nil {
		return Outcome{}, err
	}
	s.actions++
	s.current = out
	s.history = append(s.history, Step{Action: a, Outcome: out})
	if !out.Ended() {
		dir := grammar.Forward
		if a.Kind.Inverse() {
			dir = grammar.Inverse
		}
		s.stack.visit(out.State, dir)
	}
	s.remember()
	return out, nil
}

// Current returns the latest outcome.
func (s *Session) Current() Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// Stack returns the call stack, innermost frame first. It is empty once the program
// has ended.
func (s *Session) Stack() []Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current.Ended() {
		return nil
	}
	return s.stack.snapshot()
}

// History returns the actions taken so far and their outcomes.
func (s *Session) History() []Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.history)
}

// SetBreakpoints replaces the breakpoint lines. In a session made by Open, lines
// where no line event can happen (not executable) are left out.
func (s *Session) SetBreakpoints(locs []grammar.Loc) {
	var keep []grammar.Loc
	for _, l := range locs {
		if s.prog == nil || s.executable[l.Line] {
			keep = append(keep, l)
		}
	}
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	s.breakpoints = keep
}

// ContinueAction is what a debugger's continue means here: a breakpoint action over
// every breakpoint line, or continue to the exit when there are none.
func (s *Session) ContinueAction() grammar.Action {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	if len(s.breakpoints) == 0 {
		return grammar.Action{Kind: grammar.Continue}
	}
	return grammar.Action{Kind: grammar.Breakpoint, Lines: slices.Clone(s.breakpoints)}
}

// Executable reports whether a line event can happen at line n of the program (a
// breakpoint candidate); false in a session made with New.
func (s *Session) Executable(n int) bool { return s.executable[n] }

// Program returns what the session was opened on (nil for a session made with New):
// its source, parse, context and, in recorded and compare modes, its recording.
func (s *Session) Program() *Program { return s.prog }

// Mode returns the session's mode ("" for a session made with New).
func (s *Session) Mode() Mode { return s.mode }

// Peeker is implemented by backends that can predict an action's outcome without
// moving (the neural backend): repeated calls draw repeated samples.
type Peeker interface {
	Peek(ctx context.Context, a grammar.Action) (Outcome, error)
}

// Peek predicts the outcome of action a without moving the session, when the
// backend can (see Peeker).
func (s *Session) Peek(ctx context.Context, a grammar.Action) (Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.backend.(Peeker)
	if !ok {
		return Outcome{}, errors.New("this backend cannot predict without moving")
	}
	if err := a.Validate(); err != nil {
		return Outcome{}, err
	}
	return p.Peek(ctx, a)
}

// SetVariable edits a variable of the current state, when the backend can condition
// later outcomes on the edit.
func (s *Session) SetVariable(name, repr string) (grammar.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ed, ok := s.backend.(Editor)
	if !ok {
		return grammar.State{}, errors.New("this backend replays a real execution: its variables cannot be changed")
	}
	if s.current.Ended() || !s.current.State.Event.HasLocals() {
		return grammar.State{}, fmt.Errorf("the current state has no local variables to set")
	}
	st, err := ed.SetVariable(name, repr)
	if err != nil {
		return grammar.State{}, err
	}
	s.current.State = st
	s.current.Confidence = edited(s.current.Confidence, name)
	if st.Frame != 0 {
		s.frames[ThreadMain][st.Frame] = st
	}
	return st, nil
}

// Close releases the backend.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend.Close()
}

// edited returns c with the named variable certain: its value is the user's now,
// not the model's (a new variable is appended). c itself is not changed.
func edited(c *grammar.Confidence, name string) *grammar.Confidence {
	if c == nil {
		return nil
	}
	c = c.Clone()
	for i := range c.Vars {
		if c.Vars[i].Name == name {
			c.Vars[i].P, c.Vars[i].Kept = 1, false
			return c
		}
	}
	c.Vars = append(c.Vars, grammar.VarConfidence{Name: name, P: 1})
	return c
}
