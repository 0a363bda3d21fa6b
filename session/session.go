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
// outcomes, the call stack derived from them, and the breakpoints. Its methods are
// safe for concurrent use; actions run one at a time.
type Session struct {
	mu          sync.Mutex
	backend     Backend
	started     bool
	current     Outcome
	history     []Step
	stack       stack
	breakpoints []grammar.Loc
}

// New returns a session over a backend. lookup names the function of a location for
// the derived call stack (may be nil).
func New(b Backend, lookup FuncLookup) *Session {
	return &Session{backend: b, stack: stack{lookup: lookup}}
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
	return st, nil
}

// Do applies an action. Forward actions after the program ended return ErrEnded;
// reverse actions are still allowed then (they walk back into the execution).
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
	out, err := s.backend.Do(ctx, a)
	if err != nil {
		return Outcome{}, err
	}
	s.current = out
	s.history = append(s.history, Step{Action: a, Outcome: out})
	if !out.Ended() {
		s.stack.move(out.State, a)
	}
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
	return callStack(s.backend, &s.stack)
}

// History returns the actions taken so far and their outcomes.
func (s *Session) History() []Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.history)
}

// SetBreakpoints replaces the breakpoint lines.
func (s *Session) SetBreakpoints(locs []grammar.Loc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.breakpoints = slices.Clone(locs)
}

// ContinueAction is what a debugger's continue means here: a breakpoint action over
// every breakpoint line, or continue to the exit when there are none.
func (s *Session) ContinueAction() grammar.Action {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.breakpoints) == 0 {
		return grammar.Action{Kind: grammar.Continue}
	}
	return grammar.Action{Kind: grammar.Breakpoint, Lines: slices.Clone(s.breakpoints)}
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
	return st, nil
}

// Close releases the backend.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend.Close()
}
