package adapter

import "github.com/google/go-dap"

// dispatch answers one request. Requests come in three tiers: those answered at any
// time, those answered while an action runs (pause; the rest wait for the stop), and
// those that need the program stopped. Every case names the capability it serves.
// A handler returns its response, or an error that becomes an error response; a
// handler that sends its own response (the resuming requests, which answer first
// and act after) returns neither.
func (c *conn) dispatch(r dap.RequestMessage) {
	req := r.GetRequest()
	c.log.Debug().Int("seq", req.Seq).Str("command", req.Command).Msg("request")
	resp, err := c.dispatchTiers(r)
	switch {
	case err != nil:
		c.send(newErrorResponse(req.Seq, req.Command, err, ErrAction))
	case resp != nil:
		c.send(resp)
	}
}

func (c *conn) dispatchTiers(r dap.RequestMessage) (dap.ResponseMessage, error) {
	if resp, err, ok := c.anyTime(r); ok {
		return resp, err
	}
	c.mu.Lock()
	running := c.running
	c.mu.Unlock()
	if running {
		return c.whileRunning(r)
	}
	return c.whenStopped(r)
}

// anyTime handles the requests that are answered whatever the program is doing.
func (c *conn) anyTime(r dap.RequestMessage) (resp dap.ResponseMessage, err error, ok bool) {
	switch req := r.(type) {
	case *dap.InitializeRequest: // Required
		resp, err = c.onInitialize(req)
	case *dap.LaunchRequest: // Required
		resp, err = c.onLaunch(req)
	case *dap.ConfigurationDoneRequest: // Optional (supportsConfigurationDoneRequest)
		resp, err = c.onConfigurationDone(req)
	case *dap.SetBreakpointsRequest: // Required
		resp, err = c.onSetBreakpoints(req)
	case *dap.SetExceptionBreakpointsRequest: // Optional (exceptionBreakpointFilters)
		resp, err = c.onSetExceptionBreakpoints(req)
	case *dap.BreakpointLocationsRequest: // Optional (supportsBreakpointLocationsRequest)
		resp, err = c.onBreakpointLocations(req)
	case *dap.ThreadsRequest: // Required
		resp, err = c.onThreads(req)
	case *dap.TerminateRequest: // Optional (supportsTerminateRequest)
		resp, err = c.onTerminate(req)
	case *dap.DisconnectRequest: // Required
		resp, err = c.onDisconnect(req)

	// Not supported: each is answered with ErrUnsupportedRequest, and the matching
	// capability is left unset in initialize.
	case *dap.AttachRequest, // ndb launches; there is no process to attach to
		*dap.RestartRequest,                   // supportsRestartRequest
		*dap.RestartFrameRequest,              // supportsRestartFrame
		*dap.GotoRequest,                      // supportsGotoTargetsRequest
		*dap.GotoTargetsRequest,               // supportsGotoTargetsRequest
		*dap.StepInTargetsRequest,             // supportsStepInTargetsRequest
		*dap.SetFunctionBreakpointsRequest,    // supportsFunctionBreakpoints
		*dap.DataBreakpointInfoRequest,        // supportsDataBreakpoints
		*dap.SetDataBreakpointsRequest,        // supportsDataBreakpoints
		*dap.SetInstructionBreakpointsRequest, // supportsInstructionBreakpoints
		*dap.SetExpressionRequest,             // supportsSetExpression
		*dap.CompletionsRequest,               // supportsCompletionsRequest
		*dap.ModulesRequest,                   // supportsModulesRequest
		*dap.LoadedSourcesRequest,             // supportsLoadedSourcesRequest
		*dap.SourceRequest,                    // sources are files on disk (no sourceReference)
		*dap.TerminateThreadsRequest,          // supportsTerminateThreadsRequest
		*dap.ReadMemoryRequest,                // supportsReadMemoryRequest
		*dap.WriteMemoryRequest,               // supportsWriteMemoryRequest
		*dap.DisassembleRequest,               // supportsDisassembleRequest
		*dap.CancelRequest,                    // supportsCancelRequest
		*dap.RunInTerminalRequest,             // a reverse request: the adapter sends it
		*dap.StartDebuggingRequest:            // a reverse request: the adapter sends it
		err = unsupported(r)
	default:
		return nil, nil, false
	}
	return resp, err, true
}

// whileRunning handles requests while an action is in flight: pause cancels it; the
// requests that need a stopped program are refused.
func (c *conn) whileRunning(r dap.RequestMessage) (dap.ResponseMessage, error) {
	switch req := r.(type) {
	case *dap.PauseRequest: // Required
		return c.onPause(req)
	}
	if isStoppedOnly(r) {
		return nil, runningError(r)
	}
	return nil, unsupported(r)
}

// whenStopped handles the requests that need the program stopped (or not started:
// they then fail with ErrNotLaunched or ErrNotConfigured).
func (c *conn) whenStopped(r dap.RequestMessage) (dap.ResponseMessage, error) {
	switch req := r.(type) {
	case *dap.PauseRequest: // Required: nothing runs, so there is nothing to pause
		return &dap.PauseResponse{Response: newResponse(&req.Request)}, nil
	case *dap.StackTraceRequest: // Required; Optional (supportsDelayedStackTraceLoading)
		return c.onStackTrace(req)
	case *dap.ScopesRequest: // Required
		return c.onScopes(req)
	case *dap.VariablesRequest: // Required
		return c.onVariables(req)
	case *dap.SetVariableRequest: // Optional (supportsSetVariable)
		return c.onSetVariable(req)
	case *dap.EvaluateRequest: // Required; Optional (supportsEvaluateForHovers)
		return c.onEvaluate(req)
	case *dap.ExceptionInfoRequest: // Optional (supportsExceptionInfoRequest)
		return c.onExceptionInfo(req)

	// Resuming requests: answered first, then run on the action goroutine.
	case *dap.NextRequest: // Required
		return c.onNext(req)
	case *dap.StepInRequest: // Required
		return c.onStepIn(req)
	case *dap.StepOutRequest: // Required
		return c.onStepOut(req)
	case *dap.ContinueRequest: // Required
		return c.onContinue(req)
	case *dap.StepBackRequest: // Optional (supportsStepBack)
		return c.onStepBack(req)
	case *dap.ReverseContinueRequest: // Optional (supportsStepBack)
		return c.onReverseContinue(req)
	case *ReverseStepRequest: // ndb's custom request (supportsStepBack)
		return c.onReverseStep(req)
	}
	return nil, unsupported(r)
}

// isStoppedOnly reports whether a request is one of those whenStopped serves.
func isStoppedOnly(r dap.RequestMessage) bool {
	switch r.(type) {
	case *dap.StackTraceRequest, *dap.ScopesRequest, *dap.VariablesRequest, *dap.SetVariableRequest,
		*dap.EvaluateRequest, *dap.ExceptionInfoRequest, *dap.NextRequest, *dap.StepInRequest,
		*dap.StepOutRequest, *dap.ContinueRequest, *dap.StepBackRequest, *dap.ReverseContinueRequest,
		*ReverseStepRequest:
		return true
	}
	return false
}

func unsupported(r dap.RequestMessage) error {
	return errorf(ErrUnsupportedRequest, "unsupported request %q: ndb does not implement it", r.GetRequest().Command)
}

// newResponse returns the successful response header to a request.
func newResponse(req *dap.Request) dap.Response {
	return dap.Response{
		ProtocolMessage: dap.ProtocolMessage{Type: "response"},
		Command:         req.Command,
		RequestSeq:      req.Seq,
		Success:         true,
	}
}

// session returns the launched program, or ErrNotLaunched / ErrNotConfigured.
func (c *conn) session(command string, needConfigured bool) (*launched, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.launched == nil {
		return nil, errorf(ErrNotLaunched, "%s: no program is launched yet", command)
	}
	if needConfigured && !c.configured {
		return nil, errorf(ErrNotConfigured, "%s: the session starts at configurationDone", command)
	}
	return c.launched, nil
}

// lineOut and lineIn convert line numbers between ndb (1-based) and the client.
func (c *conn) lineOut(n int) int {
	if c.linesStartAt1 {
		return n
	}
	return n - 1
}

func (c *conn) lineIn(n int) int {
	if c.linesStartAt1 {
		return n
	}
	return n + 1
}

func (c *conn) column() int {
	if c.columnsStartAt1 {
		return 1
	}
	return 0
}

func badThread(id int) error {
	return errorf(ErrUnknownReference, "unknown thread %d", id)
}
