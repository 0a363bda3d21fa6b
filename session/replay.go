package session

import (
	"context"
	"errors"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// Replay is the recorded backend: a record-and-replay debugger over one real
// execution (a trace.Recording). The state trees answer every action exactly, reverse
// actions included.
type Replay struct {
	rec *trace.Recording
	fwd *trace.Tree
	inv *trace.Tree
	// invOf maps a forward node to its inverse node (not a twin).
	invOf []int
	dir   grammar.Direction
	pos   int // index in the tree of direction dir
	ended bool
}

// NewReplay returns the recorded backend of a recording, at the entry state.
func NewReplay(rec *trace.Recording) *Replay {
	inv := rec.Forward.Inverse()
	invOf := make([]int, len(rec.Forward.Nodes))
	for k, n := range inv.Nodes {
		if n.Event != grammar.EventInvLineCall {
			invOf[n.Trace] = k
		}
	}
	return &Replay{rec: rec, fwd: rec.Forward, inv: inv, invOf: invOf, dir: grammar.Forward}
}

// Recording returns the execution the backend replays.
func (r *Replay) Recording() *trace.Recording { return r.rec }

// Entry returns the first state of the execution.
func (r *Replay) Entry(context.Context) (grammar.State, error) {
	return r.fwd.Nodes[0].State(), nil
}

// Do applies an action to the current state.
func (r *Replay) Do(ctx context.Context, a grammar.Action) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if a.Kind.Inverse() {
		return r.backward(a)
	}
	if r.ended {
		return Outcome{}, ErrEnded
	}
	from := r.forwardPos()
	j, exit, err := r.fwd.Do(from, a)
	if err != nil {
		return Outcome{}, err
	}
	if exit {
		r.ended = true
		return Outcome{Exit: r.fwd.Exit, Output: r.rec.Result.Output}, nil
	}
	r.dir, r.pos = grammar.Forward, j
	return Outcome{State: r.fwd.Nodes[j].State()}, nil
}

func (r *Replay) backward(a grammar.Action) (Outcome, error) {
	var from int
	switch {
	case r.ended:
		// Walking back from the exit state: the last state comes first.
		r.ended = false
		if a.Kind != grammar.InvStepCall {
			r.dir, r.pos = grammar.Inverse, 0
			return Outcome{State: r.inv.Nodes[0].State()}, nil
		}
		from = 0
	case r.dir == grammar.Inverse:
		from = r.pos
	default:
		from = r.invOf[r.pos]
	}
	j, _, err := r.inv.Do(from, a)
	if errors.Is(err, trace.ErrAtStart) {
		return Outcome{}, ErrAtStart
	}
	if err != nil {
		return Outcome{}, err
	}
	r.dir, r.pos = grammar.Inverse, j
	return Outcome{State: r.inv.Nodes[j].State()}, nil
}

// forwardPos is the current position in the forward tree. An inv_line_call twin (the
// calling line after its callee ran) continues forward from the callee's last state.
func (r *Replay) forwardPos() int {
	if r.dir == grammar.Forward {
		return r.pos
	}
	n := r.inv.Nodes[r.pos]
	if n.Event != grammar.EventInvLineCall {
		return n.Trace
	}
	return r.fwd.NextAtLevel(n.Trace) - 1
}

// Close releases nothing: the recording stays with its owner.
func (r *Replay) Close() error { return nil }

var _ Backend = (*Replay)(nil)
