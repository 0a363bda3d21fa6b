package modelserver

import (
	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
	"github.com/ndb-project/ndb/trace"
	"github.com/ndb-project/ndb/train/eval"
)

// The methods ndb-infer answers.
const (
	MethodHello       = "hello"
	MethodOpen        = "session.open"
	MethodDo          = "session.do"
	MethodPeek        = "session.peek"
	MethodSetVariable = "session.setVariable"
	MethodClose       = "session.close"
	MethodPredict     = "predict"
	// MethodLoad loads a checkpoint (params: a Model; result: {}) ahead of the
	// session that will use it: ndb sends it as a neural launch arrives, so that the
	// load overlaps the program's parse. A server without it (MethodNotFound) loads
	// at session.open as before.
	MethodLoad = "model.load"
)

// ProtocolVersion changes when a request or a result changes shape (2: the program
// facts' constraints, GrammarOnly and PredictParams.Facts).
const ProtocolVersion = 2

// Error codes of the server's answers, so that the client gives the session the
// errors it knows (session.ErrEnded, session.ErrAtStart, *session.ProgramError).
const (
	CodeEnded        = 1001 // session.ErrEnded
	CodeAtStart      = 1002 // session.ErrAtStart
	CodeProgram      = 1003 // a *session.ProgramError (Data holds it)
	CodeNoSession    = 1004 // an unknown or closed session id
	CodeTooMany      = 1005 // the server's session limit is reached
	CodeModel        = 1006 // the checkpoint does not load
	CodeCanceled     = 1007 // the request's deadline passed or it was cancelled
	CodeInvalidInput = 1008 // a request the server cannot use
	CodeCacheLimit   = 1009 // a prediction needs more KV cache than the server's limits allow
)

// Hello is the server's answer to "hello": its protocol version and limits.
type Hello struct {
	Protocol    int    `json:"protocol"`
	MaxSessions int    `json:"maxSessions"`
	Sessions    int    `json:"sessions"`
	Threads     int    `json:"threads"`
	Version     string `json:"version,omitempty"`
}

// Model names a checkpoint and where it runs; the server loads each (dir, device)
// once and shares its weights between sessions.
type Model struct {
	Dir    string `json:"dir"`    // a checkpoint folder as the server sees it; "" is its bundled model
	Device string `json:"device"` // cpu, cuda, cuda:N or auto ("" is cpu)
}

// Sampling are the decoding settings.
type Sampling struct {
	Temperature float64 `json:"temperature,omitempty"`
	TopP        float64 `json:"topP,omitempty"`
	Seed        int64   `json:"seed,omitempty"`
	MaxTokens   int     `json:"maxTokens,omitempty"`
	// NoCopyCandidate leaves out the copy candidate that a greedy answer is weighed
	// against (neural.Generate).
	NoCopyCandidate bool `json:"noCopyCandidate,omitempty"`
	// CopyPrior is the copy candidate's prior per action name, in nats (nil: the
	// default, neural.DefaultCopyPrior).
	CopyPrior map[string]float64 `json:"copyPrior,omitempty"`
}

// OpenParams open a neural session of a parsed program.
type OpenParams struct {
	Model    Model             `json:"model"`
	Sampling Sampling          `json:"sampling"`
	Path     string            `json:"path"`    // the program's path, for errors
	Context  grammar.Context   `json:"context"` // the program's context (its Files)
	Parsed   trace.ParseResult `json:"parsed"`  // with the program facts (Parsed.Facts)
	Entry    string            `json:"entry"`   // the entry call; "" is the whole script
	// GrammarOnly leaves the predictions to the grammar alone (--constraints
	// grammar); by default the server constrains them by the program facts too,
	// rebuilt from Parsed.Facts as an in-process session builds them.
	GrammarOnly bool `json:"grammarOnly,omitempty"`
}

// OpenResult is an open session: its id and its entry state.
type OpenResult struct {
	Session string        `json:"session"`
	Entry   grammar.State `json:"entry"`
}

// ActionParams apply (or peek at) an action in a session.
type ActionParams struct {
	Session string         `json:"session"`
	Action  grammar.Action `json:"action"`
}

// Outcome is session.Outcome on the wire, with the model's confidence in it.
type Outcome struct {
	State      grammar.State       `json:"state"`
	Exit       grammar.Exit        `json:"exit,omitempty"`
	Confidence *grammar.Confidence `json:"confidence,omitempty"`
}

// SetVariableParams edit a local of the session's current state.
type SetVariableParams struct {
	Session string `json:"session"`
	Name    string `json:"name"`
	Repr    string `json:"repr"`
}

// CloseParams close a session (its cache is freed).
type CloseParams struct {
	Session string `json:"session"`
}

// PredictParams ask for n predictions of one evaluation prompt.
type PredictParams struct {
	Model    Model       `json:"model"`
	Sampling Sampling    `json:"sampling"`
	Prompt   eval.Prompt `json:"prompt"`
	N        int         `json:"n"`
	// Facts are the prompt's program facts (nil: none), parsed by ndb: they count
	// the predictions that invent a line or name (eval.Prediction.Invented) and,
	// unless GrammarOnly, constrain them.
	Facts       *grammar.Facts `json:"facts,omitempty"`
	GrammarOnly bool           `json:"grammarOnly,omitempty"`
}

// PredictResult are the predictions.
type PredictResult struct {
	Predictions []eval.Prediction `json:"predictions"`
}

// OutcomeOf is o on the wire.
func OutcomeOf(o session.Outcome) Outcome {
	return Outcome{State: o.State, Exit: o.Exit, Confidence: o.Confidence}
}

// Session is the outcome as the session sees it.
func (o Outcome) Session() session.Outcome {
	return session.Outcome{State: o.State, Exit: o.Exit, Confidence: o.Confidence}
}
