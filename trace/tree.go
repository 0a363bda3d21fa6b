package trace

import (
	"errors"
	"fmt"

	"github.com/ndb-project/ndb/grammar"
)

// A Tree is a state tree (spec sections 2 and 3) laid out in walk order: the forward
// tree's nodes in trace order (its pre-order), or the inverse tree's nodes in reverse
// trace order with an inv_line_call twin for every line that made a call. A node's
// level is its depth: the states of a call are the children of the line node that made
// it, so tree depth equals call-stack depth, and "the next node at this level, skipping
// the subtree" is the next node in walk order whose depth is not greater.
type Tree struct {
	Dir   grammar.Direction
	Nodes []Node
	// Exit is how the traced run (or the scope the tree was cut to) ended; a forward
	// walk that runs past the last node arrives there.
	Exit grammar.Exit
}

// Node is one state of a tree.
type Node struct {
	Event  grammar.Event
	Frame  int
	Depth  int
	Func   string
	Loc    grammar.Loc
	Locals grammar.Locals
	Value  string
	// Trace is the index of the raw event the node came from; an inv_line_call twin
	// carries the index of the line it doubles.
	Trace int
}

// State returns the node as a state of the trajectory language.
func (n Node) State() grammar.State {
	s := grammar.State{Event: n.Event, Loc: n.Loc, Frame: n.Frame, Func: n.Func}
	switch {
	case n.Event.HasLocals():
		s.Locals = n.Locals.Clone()
		if s.Locals == nil {
			s.Locals = grammar.Locals{}
		}
	case n.Event.HasValue():
		s.Value = n.Value
	}
	return s
}

// ErrAtStart is returned by an inverse walk that would go before the first state: there
// is nothing earlier to show.
var ErrAtStart = errors.New("already at the first state: there is nothing earlier")

// ErrDirection is returned when an action of one direction is asked of the other
// direction's tree.
var ErrDirection = errors.New("action does not belong to this tree's direction")

// NewForward builds the forward state tree of a traced run.
func NewForward(res TraceResult) (*Tree, error) {
	nodes, err := nodesOf(res.Events)
	if err != nil {
		return nil, err
	}
	return &Tree{Dir: grammar.Forward, Nodes: nodes, Exit: grammar.Exit(res.Status)}, nil
}

// NewInverse builds the inverse state tree of a traced run: reverse trace order, with an
// inv_line_call twin placed after the subtree of every line node that made a call, so
// that walking backwards one meets the twin first and can enter the callee from its end
// or skip it.
func NewInverse(res TraceResult) (*Tree, error) {
	fwd, err := NewForward(res)
	if err != nil {
		return nil, err
	}
	return fwd.Inverse(), nil
}

// Inverse returns the inverse tree of a forward tree.
func (t *Tree) Inverse() *Tree {
	if t.Dir == grammar.Inverse {
		return t
	}
	withTwins := make([]Node, 0, len(t.Nodes)+len(t.Nodes)/4)
	// open holds the line nodes whose callee subtree is still being walked.
	var open []Node
	for i, n := range t.Nodes {
		for len(open) > 0 && n.Depth <= open[len(open)-1].Depth {
			withTwins = append(withTwins, twinOf(open[len(open)-1]))
			open = open[:len(open)-1]
		}
		withTwins = append(withTwins, n)
		if n.Event == grammar.EventLine && i+1 < len(t.Nodes) && t.Nodes[i+1].Depth > n.Depth {
			open = append(open, n)
		}
	}
	for len(open) > 0 {
		withTwins = append(withTwins, twinOf(open[len(open)-1]))
		open = open[:len(open)-1]
	}
	rev := make([]Node, len(withTwins))
	for i, n := range withTwins {
		rev[len(withTwins)-1-i] = n
	}
	return &Tree{Dir: grammar.Inverse, Nodes: rev, Exit: t.Exit}
}

func twinOf(line Node) Node {
	return Node{Event: grammar.EventInvLineCall, Frame: line.Frame, Depth: line.Depth, Func: line.Func, Loc: line.Loc, Trace: line.Trace}
}

// nodesOf converts raw events into forward nodes, checking what the walks rely on.
func nodesOf(events []Event) ([]Node, error) {
	nodes := make([]Node, len(events))
	for i, e := range events {
		kind, ok := grammar.ParseEvent(e.Event)
		if !ok || kind == grammar.EventInvLineCall {
			return nil, fmt.Errorf("event %d: unknown event %q", i, e.Event)
		}
		if e.Depth < 0 {
			return nil, fmt.Errorf("event %d: negative depth %d", i, e.Depth)
		}
		if i > 0 && e.Depth > events[i-1].Depth+1 {
			return nil, fmt.Errorf("event %d: depth jumps from %d to %d", i, events[i-1].Depth, e.Depth)
		}
		n := Node{Event: kind, Frame: e.Frame, Depth: e.Depth, Func: e.Func, Loc: grammar.Loc{File: e.File, Line: e.Line}, Trace: i}
		if kind.HasLocals() {
			n.Locals = make(grammar.Locals, len(e.Locals))
			for j, p := range e.Locals {
				n.Locals[j] = grammar.Var{Name: p[0], Repr: p[1]}
			}
		} else {
			n.Value = e.Arg
		}
		nodes[i] = n
	}
	return nodes, nil
}

// Scope cuts the forward tree to the call that starts at node i (a call node): the
// call's own states and everything they call, rebased to depth 0. Leaving the scope
// is its exit state: normal when the call returned, error when an exception ended it,
// never when the recording stopped inside it. Repository-level trajectories use it so
// that a long trace yields many short, self-contained ones.
func (t *Tree) Scope(i int) (*Tree, error) {
	if t.Dir != grammar.Forward {
		return nil, ErrDirection
	}
	if i < 0 || i >= len(t.Nodes) || t.Nodes[i].Event != grammar.EventCall {
		return nil, fmt.Errorf("node %d is not a call", i)
	}
	base, frame := t.Nodes[i].Depth, t.Nodes[i].Frame
	// The scope is this activation of the frame (a generator's later resumptions start
	// with call nodes of their own) and everything deeper.
	end := i + 1
	for end < len(t.Nodes) {
		n := t.Nodes[end]
		if n.Depth < base || (n.Depth == base && (n.Frame != frame || n.Event == grammar.EventCall)) {
			break
		}
		end++
	}
	nodes := append([]Node(nil), t.Nodes[i:end]...)
	for k := range nodes {
		nodes[k].Depth -= base
	}
	last := nodes[len(nodes)-1]
	exit := grammar.ExitNever
	switch {
	case last.Depth == 0 && last.Event == grammar.EventReturn:
		exit = grammar.ExitNormal
	case end == len(t.Nodes) && t.Exit == grammar.ExitNever:
		// The recording stopped inside the scope.
	case last.Depth == 0 && last.Event == grammar.EventException:
		exit = grammar.ExitError
	}
	return &Tree{Dir: grammar.Forward, Nodes: nodes, Exit: exit}, nil
}
