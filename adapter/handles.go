package adapter

import (
	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// startHandle is the first frame or variables reference handed out after a stop. Low
// numbers are left unused so that a stale or made-up reference is easy to tell apart.
const startHandle = 1000

// handles maps references (frame ids, variables references) to what they stand for.
// All references are reset at every stop: a reference from an earlier stop is unknown.
type handles[T any] struct {
	next int
	m    map[int]T
}

func newHandles[T any]() handles[T] {
	return handles[T]{next: startHandle, m: map[int]T{}}
}

func (h *handles[T]) reset() {
	h.next = startHandle
	clear(h.m)
}

func (h *handles[T]) create(v T) int {
	id := h.next
	h.next++
	h.m[id] = v
	return id
}

func (h *handles[T]) get(id int) (T, bool) {
	v, ok := h.m[id]
	return v, ok
}

// The threads of a session: one, or two in compare mode (the session's threads;
// their numbers are the DAP thread ids).
const (
	threadMain      = int(session.ThreadMain)     // the only thread; in compare mode, the predicted execution
	threadRecorded  = int(session.ThreadRecorded) // compare mode: the recorded execution
	threadPredicted = threadMain
)

// frameRef is what a frame id stands for: a frame of one thread's derived stack.
type frameRef struct {
	thread int
	index  int // 0 = innermost
	frame  session.Frame
}

// varRef is what a variables reference stands for: a scope's variables, or the
// elements of an expandable value.
type varRef struct {
	// scope is set for a scope: its named values.
	scope *scope
	// node is set for a value: the parsed repr whose elements are shown; path is the
	// expression that names it (for evaluateName), "" when it has none.
	node *grammar.ReprNode
	path string
}

// scope is one scope of a frame: Locals, Return value, Exception, Differences.
type scope struct {
	name   string
	values []namedValue
	// settable marks the current state's locals on the session's own thread: the
	// variables setVariable may change.
	settable bool
	// noPaths marks scopes whose value names are not expressions (Differences).
	noPaths bool
}

// namedValue is one variable of a scope: a name and a repr, and for a predicted
// value the model's confidence in it (when hasConf).
type namedValue struct {
	name    string
	repr    string
	conf    float64
	hasConf bool
}
