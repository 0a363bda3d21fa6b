package session

import (
	"context"
	"errors"

	"github.com/ndb-project/ndb/grammar"
)

// Outcome is what an action led to: a state, or the program's exit state when Exit is
// set.
type Outcome struct {
	State grammar.State
	Exit  grammar.Exit
	// Output is program output produced by this step (recorded backend only).
	Output string
	// Confidence is how sure the model was of each part of a predicted outcome (the
	// neural backend only; nil for a recorded one, and for the entry state, which the
	// model did not write).
	Confidence *grammar.Confidence
}

// Ended reports whether the program ended (the outcome is an exit state).
func (o Outcome) Ended() bool { return o.Exit != "" }

// Backend answers debugger actions. The neural backend predicts each outcome with the
// model and never runs the program; the recorded backend replays a real execution.
// A backend is used by one session at a time; its methods are not called concurrently.
type Backend interface {
	// Entry returns the state the session starts in: the entry call's call state, or
	// the first state of a whole script.
	Entry(ctx context.Context) (grammar.State, error)
	// Do applies an action to the current state. ctx cancels a prediction in flight.
	Do(ctx context.Context, a grammar.Action) (Outcome, error)
	// Close releases the backend's resources.
	Close() error
}

// Editor is implemented by backends whose current state can be edited; later
// outcomes are conditioned on the edit (the neural backend).
type Editor interface {
	SetVariable(name, repr string) (grammar.State, error)
}

// ErrAtStart is returned by a reverse action at the first state of the execution.
var ErrAtStart = errors.New("already at the first state: there is nothing earlier")

// ErrEnded is returned by an action after the program ended.
var ErrEnded = errors.New("the program has ended")

// ErrMaxSteps is returned by an action once the session took its Options.MaxSteps
// actions.
var ErrMaxSteps = errors.New("the session took its maxSteps actions")
