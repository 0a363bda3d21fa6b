package session

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ndb-project/ndb/grammar"
)

// Compare is a Backend that runs two backends in lockstep on the same actions: the
// predicted one (the neural model) and the recorded one (a real execution). Its
// outcomes are the predicted side's, so a Session over a Compare shows and stacks the
// prediction; Recorded gives the other side with its own derived call stack, and
// Differences says how the two differ.
//
// An action runs on the predicted side first. When it fails there, nothing moves and
// the error is returned. When it then fails on the recorded side (the real run already
// ended, or is at its first state), the recorded side stays where it was and
// RecordedErr says why: the two walks have come apart, which Differences shows.
//
// Compare is safe for concurrent use: a session steps it while a debugger reads both
// sides.
type Compare struct {
	mu        sync.Mutex
	predicted compareSide
	recorded  compareSide
}

type compareSide struct {
	b     Backend
	cur   Outcome
	err   error // why the last action did not move this side
	stack stack
}

// NewCompare returns a backend that steps predicted and recorded together. lookup
// names the function of a location for the recorded side's call stack (may be nil).
func NewCompare(predicted, recorded Backend, lookup FuncLookup) *Compare {
	return &Compare{
		predicted: compareSide{b: predicted, stack: stack{lookup: lookup}},
		recorded:  compareSide{b: recorded, stack: stack{lookup: lookup}},
	}
}

// Entry returns the predicted side's entry state after asking both sides for theirs.
func (c *Compare) Entry(ctx context.Context) (grammar.State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.predicted.b.Entry(ctx)
	if err != nil {
		return grammar.State{}, fmt.Errorf("predicted: %w", err)
	}
	r, err := c.recorded.b.Entry(ctx)
	if err != nil {
		return grammar.State{}, fmt.Errorf("recorded: %w", err)
	}
	c.predicted.cur, c.recorded.cur = Outcome{State: p}, Outcome{State: r}
	c.predicted.stack.visit(p, grammar.Forward)
	c.recorded.stack.visit(r, grammar.Forward)
	return p, nil
}

// Do applies the action to both sides and returns the predicted outcome.
func (c *Compare) Do(ctx context.Context, a grammar.Action) (Outcome, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.predicted.b.Do(ctx, a)
	if err != nil {
		return Outcome{}, err
	}
	c.predicted.move(p, a)
	r, err := c.recorded.b.Do(ctx, a)
	if err != nil {
		c.recorded.err = err
	} else {
		c.recorded.move(r, a)
	}
	return p, nil
}

func (s *compareSide) move(o Outcome, a grammar.Action) {
	s.cur, s.err = o, nil
	if o.Ended() {
		return
	}
	dir := grammar.Forward
	if a.Kind.Inverse() {
		dir = grammar.Inverse
	}
	s.stack.visit(o.State, dir)
}

// SetVariable edits the predicted side's current state when its backend is an Editor;
// the recorded side is a real execution and keeps its value (Differences shows the
// edit).
func (c *Compare) SetVariable(name, repr string) (grammar.State, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ed, ok := c.predicted.b.(Editor)
	if !ok {
		return grammar.State{}, errors.New("the predicted backend cannot change variables")
	}
	st, err := ed.SetVariable(name, repr)
	if err != nil {
		return grammar.State{}, err
	}
	c.predicted.cur.State = st
	c.predicted.cur.Confidence = edited(c.predicted.cur.Confidence, name)
	return st, nil
}

// Predicted returns the predicted side's latest outcome.
func (c *Compare) Predicted() Outcome {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.predicted.cur
}

// Recorded returns the recorded side's latest outcome and its call stack, innermost
// frame first (empty once the run ended).
func (c *Compare) Recorded() (Outcome, []Frame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.recorded.cur.Ended() {
		return c.recorded.cur, nil
	}
	return c.recorded.cur, c.recorded.stack.snapshot()
}

// RecordedErr returns why the last action did not move the recorded side, or nil.
func (c *Compare) RecordedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recorded.err
}

// Differences returns how the two sides' latest outcomes differ (none when they agree).
func (c *Compare) Differences() []Difference {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Diff(c.predicted.cur, c.recorded.cur)
}

// Close releases both backends.
func (c *Compare) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return errors.Join(c.predicted.b.Close(), c.recorded.b.Close())
}

var (
	_ Backend = (*Compare)(nil)
	_ Editor  = (*Compare)(nil)
)
