// Package grammar is the language the neural debugger reads and writes: the special
// tokens, the program context, states, actions and exit states, their exact byte form
// (spec section 5 of shared/design/trace-model.md), and decoding of generated text back
// into states with a precise error.
//
// The package knows nothing of how states are produced: the tracer and the state trees
// (package trace) and the model (package infer) both speak in these types.
package grammar

// Event is the kind of a program state.
type Event uint8

// The events of a state. EventInvLineCall exists only in inverse trajectories: the
// twin of a line that made a call, placed after the callee's states.
const (
	EventCall Event = iota + 1
	EventLine
	EventReturn
	EventException
	EventInvLineCall
)

var eventNames = map[Event]string{
	EventCall:        "call",
	EventLine:        "line",
	EventReturn:      "return",
	EventException:   "exception",
	EventInvLineCall: "inv_line_call",
}

// String returns the settrace name of the event ("call", "line", ...).
func (e Event) String() string {
	if n, ok := eventNames[e]; ok {
		return n
	}
	return "invalid"
}

// ParseEvent maps a settrace event name to an Event.
func ParseEvent(name string) (Event, bool) {
	for e, n := range eventNames {
		if n == name {
			return e, true
		}
	}
	return 0, false
}

// HasLocals reports whether states of this event carry a locals object.
func (e Event) HasLocals() bool { return e == EventCall || e == EventLine }

// HasValue reports whether states of this event carry a value (return value or
// exception repr).
func (e Event) HasValue() bool { return e == EventReturn || e == EventException }

// Loc is a source location. File is empty when the context holds a single file.
type Loc struct {
	File string
	Line int
}

// Var is one local variable: its name and the repr of its value.
type Var struct {
	Name string
	Repr string
}

// Locals is an ordered list of variables, in f_locals order.
type Locals []Var

// Get returns the repr of the named variable.
func (l Locals) Get(name string) (string, bool) {
	for _, v := range l {
		if v.Name == name {
			return v.Repr, true
		}
	}
	return "", false
}

// Clone returns a copy that shares nothing with l.
func (l Locals) Clone() Locals {
	if l == nil {
		return nil
	}
	return append(Locals(nil), l...)
}

// State is one program state of a trajectory.
type State struct {
	Event Event
	Loc   Loc
	// Locals holds every local variable for call and line states (also when the
	// serialized form is a diff: decoding merges it with the previous state).
	Locals Locals
	// Value is the repr of the return value or of the exception.
	Value string
	// Frame identifies the frame instance; it is not serialized. Zero means unknown
	// (a state decoded from text that did not say). Two states with the same non-zero
	// Frame belong to the same call.
	Frame int
	// Func is the name of the function the state belongs to; not serialized.
	Func string
}

// Exit is the exit state of a program: how its execution ended.
type Exit string

// The exit states.
const (
	ExitNormal Exit = "normal"
	ExitError  Exit = "error"
	ExitNever  Exit = "never"
)

// Valid reports whether e is one of the three exit states.
func (e Exit) Valid() bool { return e == ExitNormal || e == ExitError || e == ExitNever }

// ActionKind is a debugger action.
type ActionKind uint8

// The debugger actions of spec sections 2 and 3.
const (
	StepInto ActionKind = iota + 1
	StepOver
	StepReturn
	Breakpoint
	Continue
	InvStepInto
	InvStepOver
	InvStepCall
)

var actionNames = map[ActionKind]string{
	StepInto:    "step_into",
	StepOver:    "step_over",
	StepReturn:  "step_return",
	Breakpoint:  "breakpoint",
	Continue:    "continue",
	InvStepInto: "inv_step_into",
	InvStepOver: "inv_step_over",
	InvStepCall: "inv_step_call",
}

// AllActions lists every action kind, forward ones first.
var AllActions = []ActionKind{StepInto, StepOver, StepReturn, Breakpoint, Continue, InvStepInto, InvStepOver, InvStepCall}

// String returns the action's name as in the spec ("step_into", ...).
func (k ActionKind) String() string {
	if n, ok := actionNames[k]; ok {
		return n
	}
	return "invalid"
}

// ParseActionKind maps an action name to its kind.
func ParseActionKind(name string) (ActionKind, bool) {
	for k, n := range actionNames {
		if n == name {
			return k, true
		}
	}
	return 0, false
}

// Inverse reports whether the action walks backwards.
func (k ActionKind) Inverse() bool { return k >= InvStepInto }

// Action is a debugger action; Lines is the set of breakpoint locations for Breakpoint.
type Action struct {
	Kind  ActionKind
	Lines []Loc
}

// Direction says whether a trajectory walks forward or backward.
type Direction uint8

// The two directions.
const (
	Forward Direction = iota + 1
	Inverse
)

// Step is one action and what it led to: a state, or an exit state when Exit is set.
type Step struct {
	Action Action
	State  State
	Exit   Exit
}

// Trajectory is an entry state followed by actions and the states they led to.
type Trajectory struct {
	Context   Context
	Direction Direction
	Start     State
	Steps     []Step
}

// SourceLine is one line of program source with its line number.
type SourceLine struct {
	N    int
	Text string
}

// ContextFile is one file of the context: the lines a trajectory can visit.
type ContextFile struct {
	Path  string
	Lines []SourceLine
}

// Context is the source a trajectory can visit. With a single file, locations carry no
// file name; with several, every location names its file.
type Context struct {
	Files []ContextFile

	// idx is the lookup index built by the constructors (see Indexed); nil for a
	// Context written as a literal.
	idx *contextIndex
}
