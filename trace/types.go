// Package trace records real executions of Python programs and turns them into the
// state trees that every debugger action walks.
//
// A pool of persistent Python worker processes (the tracer, tracer.py, embedded in the
// binary) speaks JSON-RPC 2.0 with the Go side over pipes that the traced program's own
// stdout and stderr cannot reach. The forward and inverse state trees of spec sections 2
// and 3 are built from a trace's raw events; the trajectory sampler of section 4 walks
// them. Nothing here needs libtorch.
package trace

import "github.com/ndb-project/ndb/grammar"

// Event is one raw settrace event (spec section 1).
type Event struct {
	Event string `json:"event"` // call, line, return, exception
	Frame int    `json:"frame"` // unique per frame instance, from 1
	Depth int    `json:"depth"` // call-stack depth relative to the entry frame (entry = 0)
	Func  string `json:"func"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	// Locals is present for call and line events: name/repr pairs in f_locals order.
	Locals Pairs `json:"locals,omitempty"`
	// Arg is the repr of the return value (return) or of the exception (exception).
	Arg string `json:"arg,omitempty"`
}

// Pair is one local variable: name and repr.
type Pair [2]string

// Pairs is an ordered list of local variables. It is a list on the wire because a JSON
// object would lose the order.
type Pairs []Pair

// Status is how a traced run ended.
type Status string

// The statuses of a traced run; they are the exit states of the trajectory language.
const (
	StatusNormal Status = "normal" // returned
	StatusError  Status = "error"  // ended by an uncaught exception
	StatusNever  Status = "never"  // cut off by the event or wall-clock limit
)

// Limits bound one request. Zero fields take the defaults.
type Limits struct {
	MaxEvents int     `json:"max_events"` // default 10,000
	MaxRepr   int     `json:"max_repr"`   // default 200 characters, then "..."
	WallSecs  float64 `json:"wall_secs"`  // default 2 s
	MaxOutput int     `json:"max_output"` // captured program output, default 64 KiB
	MemoryMiB int     `json:"memory_mib"` // address-space rlimit of the worker, default 1024
}

// TraceRequest asks a worker to run a program under settrace.
type TraceRequest struct {
	Source string `json:"source"`
	// Entry is a call expression such as `f("berry", "r")`, evaluated after the module
	// ran untraced; empty traces the whole script.
	Entry  string `json:"entry,omitempty"`
	Limits Limits `json:"limits"`
}

// TraceResult is what a traced run recorded.
type TraceResult struct {
	Events []Event `json:"events"`
	Status Status  `json:"status"`
	// Exception is the repr of the uncaught exception when Status is error, or the
	// reason for never ("event limit", "time limit").
	Exception string `json:"exception,omitempty"`
	Output    string `json:"output"` // the program's stdout and stderr, interleaved
	// Setup is set when the module itself (not the entry call) failed, e.g. a syntax
	// error or an exception at import time; then no events are recorded.
	Setup *SetupError `json:"setup_error,omitempty"`
}

// SetupError says why a program could not be run at all.
type SetupError struct {
	Kind    string `json:"kind"` // syntax, entry, module
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
}

// ParseRequest asks for the static structure of a program; it never runs the program.
type ParseRequest struct {
	Source string `json:"source"`
	// Entry is the expression a run calls after the module ran ("": unknown); the
	// program facts say when it makes the only frame of a function (Facts.EntryCode).
	Entry string `json:"entry,omitempty"`
}

// Function is one function or method of a parsed program.
type Function struct {
	Name      string   `json:"name"`
	QualName  string   `json:"qualname"`
	FirstLine int      `json:"first_line"` // the def line
	LastLine  int      `json:"last_line"`
	Params    []string `json:"params"`
}

// ParseResult is the static structure of a program.
type ParseResult struct {
	Functions []Function `json:"functions"`
	// Executable holds the lines where a line event can happen, sorted.
	Executable []int       `json:"executable"`
	Syntax     *SetupError `json:"syntax_error,omitempty"`
	// Facts are what the program's text says about its execution (analyze.py): the
	// constrained decoder allows only the states they allow. Nil when the analysis
	// does not model this interpreter or failed (FactsError says why).
	Facts      *grammar.Facts `json:"facts,omitempty"`
	FactsError string         `json:"facts_error,omitempty"`
}

// CheckRequest asks whether Call, evaluated in the program, equals Expected.
type CheckRequest struct {
	Source   string `json:"source"`
	Call     string `json:"call"`
	Expected string `json:"expected"` // a Python expression, usually a repr
	Limits   Limits `json:"limits"`
}

// CheckResult says whether the call gave the expected value.
type CheckResult struct {
	OK     bool   `json:"ok"`
	Actual string `json:"actual,omitempty"` // repr of what the call gave
	Error  string `json:"error,omitempty"`  // why it could not be compared
}
