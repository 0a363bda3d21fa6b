package adapter

import (
	"errors"
	"fmt"

	"github.com/google/go-dap"
)

// Error ids of ndb's error responses. They are stable: clients and tests may rely on
// them. 1xxx: the protocol (the message itself); 2xxx: launching; 3xxx: debugging a
// launched program.
const (
	// ErrMalformedMessage: the message is not JSON, or not a DAP message.
	ErrMalformedMessage = 1001
	// ErrUnsupportedRequest: a request ndb does not implement (listed in dispatch.go),
	// or one the protocol does not know.
	ErrUnsupportedRequest = 1002
	// ErrBadArguments: a request's arguments have the wrong types or miss a field.
	ErrBadArguments = 1003
	// ErrNotLaunched: the request needs a launched program.
	ErrNotLaunched = 1004
	// ErrRunning: the request needs the program stopped (pause it first).
	ErrRunning = 1005
	// ErrNotConfigured: the request needs configurationDone first.
	ErrNotConfigured = 1006

	// ErrLaunchArguments: a launch argument is missing, of the wrong type or out of
	// range (program, entry, mode, model, temperature, seed, stopOnEntry, maxSteps).
	ErrLaunchArguments = 2001
	// ErrProgram: the program cannot be debugged as asked: a syntax error, an entry
	// call that names nothing, a module that fails at import.
	ErrProgram = 2002
	// ErrBackend: the backend could not start (no model in this build, no Python for
	// the tracer).
	ErrBackend = 2003
	// ErrAlreadyLaunched: a second launch on the same connection.
	ErrAlreadyLaunched = 2004

	// ErrProgramEnded: a forward action after the program ended.
	ErrProgramEnded = 3001
	// ErrMaxSteps: the session took maxSteps actions.
	ErrMaxSteps = 3002
	// ErrSetVariable: the variable cannot be set (recorded mode, unknown name, not a
	// local of the current state).
	ErrSetVariable = 3003
	// ErrEvaluate: the expression cannot be evaluated over the frame's locals.
	ErrEvaluate = 3004
	// ErrUnknownReference: a thread, frame or variables reference that is unknown or
	// stale (variables references are reset at every stop; not shown to the user for a
	// frame id: it is the client's bookkeeping).
	ErrUnknownReference = 3005
	// ErrNoException: exceptionInfo while not stopped on an exception.
	ErrNoException = 3006
	// ErrAction: an action failed in the backend (e.g. a model output that does not
	// decode); the message says why.
	ErrAction = 3007
)

// requestError is an error that knows its error response: id, message and whether a
// client should show it to the user.
type requestError struct {
	id       int
	showUser bool
	msg      string
}

func (e *requestError) Error() string { return e.msg }

// errorf returns an error for an error response with the given id, shown to the user.
func errorf(id int, format string, a ...any) *requestError {
	return &requestError{id: id, showUser: true, msg: fmt.Sprintf(format, a...)}
}

// quietf is errorf for errors a client need not show (a failed hover evaluation).
func quietf(id int, format string, a ...any) *requestError {
	return &requestError{id: id, msg: fmt.Sprintf(format, a...)}
}

// newErrorResponse builds the error response to a request. go-dap has no helper that
// does this safely, so it is built field by field. err that is not a *requestError
// is reported with fallbackID.
func newErrorResponse(requestSeq int, command string, err error, fallbackID int) *dap.ErrorResponse {
	re := &requestError{id: fallbackID, showUser: true, msg: err.Error()}
	errors.As(err, &re)
	return &dap.ErrorResponse{
		Response: dap.Response{
			ProtocolMessage: dap.ProtocolMessage{Type: "response"},
			Command:         command,
			RequestSeq:      requestSeq,
			Success:         false,
			Message:         re.msg,
		},
		Body: dap.ErrorResponseBody{Error: &dap.ErrorMessage{
			Id:       re.id,
			Format:   re.msg,
			ShowUser: re.showUser,
		}},
	}
}
