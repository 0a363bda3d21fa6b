package adapter

import "github.com/google/go-dap"

// runningError refuses a request that needs a stopped program while an action runs.
// The requests a client's views send by themselves (VS Code refreshes the Variables
// view of the previous stop while a step runs) are refused quietly: nothing the user
// can act on, so no error notification; a request the user made says to pause first.
func runningError(r dap.RequestMessage) error {
	command := r.GetRequest().Command
	switch r.(type) {
	case *dap.StackTraceRequest, *dap.ScopesRequest, *dap.VariablesRequest, *dap.EvaluateRequest, *dap.ExceptionInfoRequest:
		return quietf(ErrRunning, "%s: the program is running", command)
	}
	return errorf(ErrRunning, "%s: the program is running: pause it first", command)
}
