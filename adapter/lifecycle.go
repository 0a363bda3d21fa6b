package adapter

import (
	"github.com/google/go-dap"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/session"
)

// capabilities are the features ndb declares in its initialize response: only what
// it implements.
func capabilities() dap.Capabilities {
	return dap.Capabilities{
		SupportsConfigurationDoneRequest:   true,
		SupportsStepBack:                   true,
		SupportsSetVariable:                true,
		SupportsEvaluateForHovers:          true,
		SupportsTerminateRequest:           true,
		SupportsExceptionInfoRequest:       true,
		SupportsBreakpointLocationsRequest: true,
		SupportsDelayedStackTraceLoading:   true,
		ExceptionBreakpointFilters: []dap.ExceptionBreakpointsFilter{
			{Filter: filterRaised, Label: "Raised Exceptions", Description: "Stop where an exception is raised, caught or not."},
			{Filter: filterUncaught, Label: "Uncaught Exceptions", Description: "Stop at an exception that ends the program.", Default: true},
		},
	}
}

// The exception breakpoint filters.
const (
	filterRaised   = "raised"
	filterUncaught = "uncaught"
)

func (c *conn) onInitialize(req *dap.InitializeRequest) (dap.ResponseMessage, error) {
	c.linesStartAt1 = req.Arguments.LinesStartAt1
	c.columnsStartAt1 = req.Arguments.ColumnsStartAt1
	c.log.Debug().Str("client", req.Arguments.ClientID).Str("adapter", req.Arguments.AdapterID).Msg("initialize")
	return &dap.InitializeResponse{Response: newResponse(&req.Request), Body: capabilities()}, nil
}

// onLaunch validates the arguments, builds the session (recording the program in
// recorded and compare modes) and sends the initialized event; the client then sets
// breakpoints and sends configurationDone, which starts the session.
func (c *conn) onLaunch(req *dap.LaunchRequest) (dap.ResponseMessage, error) {
	c.mu.Lock()
	already := c.launched != nil
	c.mu.Unlock()
	if already {
		return nil, errorf(ErrAlreadyLaunched, "launch: a program is already launched on this connection")
	}
	cfg, ignored, err := parseLaunch(req.Arguments, "")
	if len(ignored) > 0 {
		c.log.Debug().Strs("fields", ignored).Msg("launch: ignoring unknown arguments")
	}
	if err != nil {
		return nil, err
	}
	l, err := c.srv.launch(c.ctx, cfg)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.launched = l
	c.mu.Unlock()
	if cfg.Model != "" && cfg.Mode == session.ModeRecorded {
		c.output("console", "ndb: \"model\" is ignored in recorded mode\n")
	}
	c.log.Info().Str("program", cfg.Program).Str("entry", cfg.Entry).Str("mode", string(cfg.Mode)).Msg("launched")
	c.send(&dap.InitializedEvent{Event: newEvent("initialized")})
	return &dap.LaunchResponse{Response: newResponse(&req.Request)}, nil
}

// onConfigurationDone starts the session: a stop at the entry state (stopOnEntry, or a
// breakpoint on the first line of a script), else a continue.
func (c *conn) onConfigurationDone(req *dap.ConfigurationDoneRequest) (dap.ResponseMessage, error) {
	l, err := c.session(req.Command, false)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	again := c.configured
	c.configured = true
	c.mu.Unlock()
	c.send(&dap.ConfigurationDoneResponse{Response: newResponse(&req.Request)})
	if again {
		return nil, nil
	}
	first := l.sess.Current().State
	switch {
	case l.cfg.StopOnEntry:
		c.stopNow(l, stopInfo{reason: "entry"}, nil)
	case first.Event == grammar.EventLine && c.isBreakpoint(first.Loc.Line):
		c.stopNow(l, stopInfo{reason: "breakpoint"}, []int{first.Loc.Line})
	default:
		c.startAction(l, session.PlanContinue)
	}
	return nil, nil
}

func (c *conn) onThreads(req *dap.ThreadsRequest) (dap.ResponseMessage, error) {
	c.mu.Lock()
	l := c.launched
	c.mu.Unlock()
	threads := []dap.Thread{{Id: threadMain, Name: "main"}}
	if l != nil {
		threads = threads[:0]
		for _, t := range l.sess.Threads() {
			threads = append(threads, dap.Thread{Id: int(t), Name: l.sess.ThreadName(t)})
		}
	}
	return &dap.ThreadsResponse{Response: newResponse(&req.Request), Body: dap.ThreadsResponseBody{Threads: threads}}, nil
}

// onTerminate stops any action in flight and ends the debugging: terminated follows
// the response. The client then disconnects.
func (c *conn) onTerminate(req *dap.TerminateRequest) (dap.ResponseMessage, error) {
	c.mu.Lock()
	was := c.terminated
	c.terminated = true
	c.mu.Unlock()
	c.waitAction()
	c.send(&dap.TerminateResponse{Response: newResponse(&req.Request)})
	if !was {
		c.send(&dap.TerminatedEvent{Event: newEvent("terminated")})
	}
	return nil, nil
}

// onDisconnect stops any action in flight and ends the connection after the
// response; the session is closed as the connection ends.
func (c *conn) onDisconnect(req *dap.DisconnectRequest) (dap.ResponseMessage, error) {
	c.mu.Lock()
	c.terminated = true
	c.mu.Unlock()
	c.waitAction()
	c.mu.Lock()
	c.disconnected = true
	c.mu.Unlock()
	return &dap.DisconnectResponse{Response: newResponse(&req.Request)}, nil
}

func newEvent(name string) dap.Event {
	return dap.Event{ProtocolMessage: dap.ProtocolMessage{Type: "event"}, Event: name}
}

// output sends an output event; text should end with a newline.
func (c *conn) output(category, text string) {
	if text == "" {
		return
	}
	c.send(&dap.OutputEvent{Event: newEvent("output"), Body: dap.OutputEventBody{Category: category, Output: text}})
}
