package trace

import (
	"fmt"
	"slices"

	"github.com/ndb-project/ndb/grammar"
)

// Do applies a debugger action to node i and returns the node it leads to. A forward
// walk that runs past the last node returns exit = true: the result is the tree's exit
// state. An inverse walk that would go before the first state returns ErrAtStart.
func (t *Tree) Do(i int, a grammar.Action) (j int, exit bool, err error) {
	if i < 0 || i >= len(t.Nodes) {
		return 0, false, fmt.Errorf("node %d is outside the tree (%d nodes)", i, len(t.Nodes))
	}
	if a.Kind.Inverse() != (t.Dir == grammar.Inverse) {
		return 0, false, fmt.Errorf("%s: %w", a.Kind, ErrDirection)
	}
	switch a.Kind {
	case grammar.StepInto:
		j = i + 1
	case grammar.StepOver:
		j = t.nextAtLevel(i)
	case grammar.StepReturn:
		j = t.levelReturn(i)
	case grammar.Breakpoint:
		j = t.nextAt(i, a.Lines)
	case grammar.Continue:
		j = len(t.Nodes)
	case grammar.InvStepInto:
		j = i + 1
	case grammar.InvStepOver:
		j = t.nextAtLevel(i)
	case grammar.InvStepCall:
		j = t.levelCall(i)
	default:
		return 0, false, fmt.Errorf("unknown action %d", a.Kind)
	}
	if j < len(t.Nodes) {
		return j, false, nil
	}
	if t.Dir == grammar.Inverse {
		return 0, false, ErrAtStart
	}
	return 0, true, nil
}

// NextAtLevel is the next node at i's level, skipping i's subtree; at the end of the
// level it is the next node one level up (or len(Nodes) when there is none).
func (t *Tree) NextAtLevel(i int) int { return t.nextAtLevel(i) }

func (t *Tree) nextAtLevel(i int) int {
	d := t.Nodes[i].Depth
	j := i + 1
	for j < len(t.Nodes) && t.Nodes[j].Depth > d {
		j++
	}
	return j
}

// activationEnd is the last node at i's depth of the frame activation that node i
// belongs to, and whether the activation visibly ended there (the walk met a node of
// a shallower level, another frame or the start of another activation after it).
func (t *Tree) activationEnd(i int) (last int, ended bool) {
	d, frame := t.Nodes[i].Depth, t.Nodes[i].Frame
	last = i
	for j := i + 1; j < len(t.Nodes); j++ {
		n := t.Nodes[j]
		if n.Depth < d || (n.Depth == d && (n.Frame != frame || n.Event == grammar.EventCall)) {
			return last, true
		}
		if n.Depth == d {
			last = j
		}
	}
	return last, t.Exit != grammar.ExitNever
}

// levelReturn is the return (or final exception) node of i's level; when i is already
// that node, the return node of the level above. A call the recording stopped inside
// never returns: the walk runs past the end.
func (t *Tree) levelReturn(i int) int {
	last, ended := t.activationEnd(i)
	if last == i && ended && t.Nodes[i].Event.HasValue() {
		up := t.levelAbove(i)
		if up >= len(t.Nodes) {
			return up
		}
		last, ended = t.activationEnd(up)
	}
	if !ended || !t.Nodes[last].Event.HasValue() {
		return len(t.Nodes)
	}
	return last
}

// levelAbove is the first node after i that is shallower than i.
func (t *Tree) levelAbove(i int) int {
	d := t.Nodes[i].Depth
	j := i + 1
	for j < len(t.Nodes) && t.Nodes[j].Depth >= d {
		j++
	}
	return j
}

// nextAt is the first future line node, at any level, whose location is in lines.
// Decision: like pdb and debugpy, a breakpoint stops only where its line is about to
// run (a line event); the call, return and exception events that share a line number
// pass it by. So a breakpoint on `return n` stops before the return, with the locals.
func (t *Tree) nextAt(i int, lines []grammar.Loc) int {
	j := i + 1
	for j < len(t.Nodes) && (t.Nodes[j].Event != grammar.EventLine || !slices.Contains(lines, t.Nodes[j].Loc)) {
		j++
	}
	return j
}

// levelCall is, in the inverse tree, the call node of i's level: the function's inputs.
// When i is that call node already, it is the call node of the level above.
func (t *Tree) levelCall(i int) int {
	if t.Nodes[i].Event == grammar.EventCall {
		i = t.levelAbove(i)
		if i >= len(t.Nodes) {
			return i
		}
	}
	d, frame := t.Nodes[i].Depth, t.Nodes[i].Frame
	for j := i + 1; j < len(t.Nodes); j++ {
		n := t.Nodes[j]
		if n.Depth < d {
			break
		}
		if n.Depth == d && n.Frame == frame && n.Event == grammar.EventCall {
			return j
		}
	}
	return len(t.Nodes)
}
