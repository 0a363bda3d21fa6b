package session

import (
	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/trace"
)

// CallStack returns the real call stack of the current state, innermost first: the
// recording knows every frame, also those a breakpoint or a reverse walk jumped past.
// A caller's locals are those of the line that made the call (its state before the
// call ran); the innermost frame's are the current state's, or for a return, an
// exception or a calling line met walking back, those of the latest line of the frame.
// It is empty once the program ended.
func (r *Replay) CallStack() []Frame {
	if r.ended {
		return nil
	}
	nodes := r.fwd.Nodes
	i := r.pos
	if r.dir == grammar.Inverse {
		i = r.inv.Nodes[r.pos].Trace
	}
	cur := nodes[i]
	frames := []Frame{{Func: cur.Func, Loc: cur.Loc, ID: cur.Frame, Locals: frameLocals(nodes, i)}}
	depth := cur.Depth
	for k := i - 1; k >= 0 && depth > 0; k-- {
		n := nodes[k]
		if n.Depth >= depth {
			continue
		}
		// The nearest earlier node one level up is the line that made the call.
		depth = n.Depth
		frames = append(frames, Frame{Func: n.Func, Loc: n.Loc, ID: n.Frame, Locals: n.Locals.Clone()})
	}
	return frames
}

// frameLocals returns the locals of node i's frame: its own, else those of the latest
// earlier state of the same frame instance that had locals (an empty set when none).
func frameLocals(nodes []trace.Node, i int) grammar.Locals {
	for k := i; k >= 0; k-- {
		n := nodes[k]
		if n.Frame == nodes[i].Frame && n.Event.HasLocals() {
			return n.Locals.Clone()
		}
		if n.Depth < nodes[i].Depth {
			break
		}
	}
	return grammar.Locals{}
}

var _ StackTeller = (*Replay)(nil)
